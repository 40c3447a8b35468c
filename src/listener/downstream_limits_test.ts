import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { DEFAULT_LIMITS, parseDownstreamLimits } from "./downstream_limits.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

const routes = (timeout = "15s"): JsonObject => ({
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o", timeout } }],
  }],
});

/** An origin: `/hang` answers when `release` is called; anything else answers "ok". */
function origin() {
  const waiting: (() => void)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    await r.arrayBuffer().catch(() => {});
    if (new URL(r.url).pathname === "/hang") await new Promise<void>((res) => waiting.push(res));
    return new Response("ok");
  });
  return {
    server,
    release() {
      for (const w of waiting.splice(0)) w();
    },
    hung: () => waiting.length,
  };
}

async function withProxy(
  hcm: JsonObject,
  fn: (p: TestProxy, o: ReturnType<typeof origin>) => Promise<void>,
  timeout = "15s",
) {
  const o = origin();
  const p = await startTestProxy([httpListener(routes(timeout), hcm)], [
    testCluster("o", [["127.0.0.1", o.server.addr.port]]),
  ]);
  try {
    await fn(p, o);
  } finally {
    o.release();
    await p.close();
    await o.server.shutdown();
  }
}

/** A raw client: writes what it is told, reads everything until the proxy closes. */
class Client {
  constructor(readonly c: Deno.Conn) {}
  static async open(p: TestProxy): Promise<Client> {
    return new Client(await Deno.connect({ hostname: "127.0.0.1", port: p.port() }));
  }
  async send(s: string): Promise<void> {
    const b = enc.encode(s);
    for (let off = 0; off < b.length;) off += await this.c.write(b.subarray(off));
  }
  /** Everything the proxy sends until it closes the connection. */
  async untilClosed(): Promise<string> {
    const buf = new Uint8Array(65536);
    let out = "";
    for (;;) {
      let n: number | null;
      try {
        n = await this.c.read(buf);
      } catch {
        n = null;
      }
      if (n === null) return out;
      out += dec.decode(buf.subarray(0, n));
    }
  }
  /** Reads until `want` has been seen (the connection stays open). */
  async until(want: string): Promise<string> {
    const buf = new Uint8Array(65536);
    let out = "";
    while (!out.includes(want)) {
      const n = await this.c.read(buf);
      if (n === null) throw new Error(`closed before ${JSON.stringify(want)}: ${out}`);
      out += dec.decode(buf.subarray(0, n));
    }
    return out;
  }
  close() {
    try {
      this.c.close();
    } catch { /* closed */ }
  }
}

const GET = "GET / HTTP/1.1\r\nhost: a\r\n\r\n";
const counter = (p: TestProxy, name: string) => p.store.counter(`http.test.${name}`).value();

async function eventually(f: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(f());
}

Deno.test("downstream limits: unset fields take Envoy's defaults; bad values are errors with paths", () => {
  const errors: { path: string; rule: string; message: string }[] = [];
  assert.deepEqual(parseDownstreamLimits({}, "h", errors), DEFAULT_LIMITS);
  assert.equal(DEFAULT_LIMITS.idleTimeoutMs, 3_600_000);
  assert.equal(DEFAULT_LIMITS.streamIdleTimeoutMs, 300_000);
  assert.equal(errors.length, 0);
  const v2 = parseDownstreamLimits({ idle_timeout: "2s" }, "h", errors);
  assert.equal(v2.idleTimeoutMs, 2000);
  parseDownstreamLimits(
    {
      max_request_headers_kb: 0,
      common_http_protocol_options: { max_headers_count: 0, idle_timeout: 5 },
      request_timeout: "x",
    },
    "h",
    errors,
  );
  assert.deepEqual(errors.map((e) => e.path).sort(), [
    "h.common_http_protocol_options.idle_timeout",
    "h.common_http_protocol_options.max_headers_count",
    "h.max_request_headers_kb",
    "h.request_timeout",
  ]);
});

Deno.test("downstream idle_timeout closes a silent connection and a kept-alive idle one, counted downstream_cx_idle_timeout", async () => {
  await withProxy({ common_http_protocol_options: { idle_timeout: "0.05s" } }, async (p) => {
    const silent = await Client.open(p);
    assert.equal(await silent.untilClosed(), "");
    silent.close();
    const kept = await Client.open(p);
    await kept.send(GET);
    const all = await kept.untilClosed();
    assert.match(all, /^HTTP\/1\.1 200 OK/);
    assert.doesNotMatch(all, /connection: close/i);
    kept.close();
    assert.equal(counter(p, "downstream_cx_idle_timeout"), 2);
  });
});

Deno.test("downstream request_headers_timeout answers a half-sent head 408 and closes, counted downstream_rq_header_timeout", async () => {
  await withProxy({ request_headers_timeout: "0.05s" }, async (p) => {
    const c = await Client.open(p);
    await c.send("GET / HTTP/1.1\r\nhost: a\r\n");
    const all = await c.untilClosed();
    c.close();
    assert.match(all, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(all, /connection: close/i);
    assert.ok(all.endsWith("\r\n\r\nrequest header timeout"));
    assert.equal(counter(p, "downstream_rq_header_timeout"), 1);
    assert.equal(counter(p, "downstream_cx_idle_timeout"), 0);
  });
});

Deno.test("downstream stream_idle_timeout: 408 for a stalled request, 504 when the upstream is silent, counted downstream_rq_idle_timeout", async () => {
  await withProxy({ stream_idle_timeout: "0.05s" }, async (p, o) => {
    const half = await Client.open(p);
    await half.send("POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc");
    const a = await half.untilClosed();
    half.close();
    assert.match(a, /^HTTP\/1\.1 408 /);
    assert.ok(a.endsWith("stream timeout"));
    const silent = await Client.open(p);
    await silent.send("GET /hang HTTP/1.1\r\nhost: a\r\n\r\n");
    const b = await silent.untilClosed();
    silent.close();
    assert.match(b, /^HTTP\/1\.1 504 /);
    assert.ok(b.endsWith("stream timeout"));
    assert.equal(o.hung(), 1);
    assert.equal(counter(p, "downstream_rq_idle_timeout"), 2);
  }, "0s");
});

Deno.test("downstream request_timeout answers a request whose body stalls 408, counted downstream_rq_timeout", async () => {
  await withProxy({ request_timeout: "0.05s" }, async (p) => {
    const c = await Client.open(p);
    await c.send("POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc");
    const all = await c.untilClosed();
    c.close();
    assert.match(all, /^HTTP\/1\.1 408 /);
    assert.ok(all.endsWith("request timeout"));
    assert.equal(counter(p, "downstream_rq_timeout"), 1);
    // A complete request is not held to it once the response has started.
    const ok = await Client.open(p);
    await ok.send(GET);
    assert.match(await ok.until("ok"), /^HTTP\/1\.1 200 /);
    ok.close();
    assert.equal(counter(p, "downstream_rq_timeout"), 1);
  });
});

Deno.test("downstream max_connection_duration closes an idle connection and drains a busy one with connection: close", async () => {
  await withProxy(
    { common_http_protocol_options: { max_connection_duration: "0.05s" } },
    async (p, o) => {
      const idle = await Client.open(p);
      assert.equal(await idle.untilClosed(), "");
      idle.close();
      assert.equal(counter(p, "downstream_cx_max_duration_reached"), 1);
      const busy = await Client.open(p);
      await busy.send("GET /hang HTTP/1.1\r\nhost: a\r\n\r\n");
      await eventually(() => counter(p, "downstream_cx_max_duration_reached") === 2);
      o.release();
      const all = await busy.untilClosed();
      busy.close();
      assert.match(all, /^HTTP\/1\.1 200 /);
      assert.match(all, /connection: close/i);
    },
  );
});

Deno.test("downstream max_requests_per_connection: the last allowed response closes the connection, counted downstream_cx_max_requests_reached", async () => {
  await withProxy(
    { common_http_protocol_options: { max_requests_per_connection: 2 } },
    async (p) => {
      const c = await Client.open(p);
      await c.send(GET);
      const first = await c.until("ok");
      assert.doesNotMatch(first, /connection: close/i);
      await c.send(GET);
      const second = await c.untilClosed();
      c.close();
      assert.match(second, /^HTTP\/1\.1 200 /);
      assert.match(second, /connection: close/i);
      assert.equal(counter(p, "downstream_cx_max_requests_reached"), 1);
    },
  );
});

Deno.test("downstream max_headers_count and max_request_headers_kb answer 431 over HTTP/1.1", async () => {
  await withProxy({
    max_request_headers_kb: 1,
    common_http_protocol_options: { max_headers_count: 5 },
  }, async (p) => {
    const many = await Client.open(p);
    let h = "";
    for (let i = 0; i < 6; i++) h += `x-h${i}: v\r\n`;
    await many.send(`GET / HTTP/1.1\r\nhost: a\r\n${h}\r\n`);
    assert.match(await many.untilClosed(), /^HTTP\/1\.1 431 /);
    many.close();
    const big = await Client.open(p);
    await big.send(`GET / HTTP/1.1\r\nhost: a\r\nx-big: ${"a".repeat(2000)}\r\n\r\n`);
    assert.match(await big.untilClosed(), /^HTTP\/1\.1 431 /);
    big.close();
    const fine = await Client.open(p);
    await fine.send(`GET / HTTP/1.1\r\nhost: a\r\nx-a: ${"a".repeat(500)}\r\n\r\n`);
    assert.match(await fine.until("ok"), /^HTTP\/1\.1 200 /);
    fine.close();
    assert.equal(counter(p, "downstream_cx_protocol_error"), 2);
  });
});

Deno.test("downstream max_headers_count and a 100 KB header answer 431 over h2c too", async () => {
  await withProxy({ common_http_protocol_options: { max_headers_count: 3 } }, async (p) => {
    const client = Deno.createHttpClient({ http1: false, http2: true });
    try {
      const headers: Record<string, string> = {};
      for (let i = 0; i < 5; i++) headers[`x-h${i}`] = "v";
      const r = await fetch(`http://127.0.0.1:${p.port()}/`, { client, headers });
      await r.body?.cancel();
      assert.equal(r.status, 431);
      // A 100 KB header is answered 431 too, not a dropped connection.
      const big = await fetch(`http://127.0.0.1:${p.port()}/`, {
        client,
        headers: { "x-big": "a".repeat(100_000) },
      });
      await big.body?.cancel();
      assert.equal(big.status, 431);
    } finally {
      client.close();
    }
  });
});

Deno.test("listener http1 codec: a request head with bare LF line endings is answered 400, never left silent", async () => {
  await withProxy({}, async (p) => {
    for (const head of ["GET / HTTP/1.1\nhost: a\n\n", "GET / HTTP/1.1\r\nhost: a\n\r\n"]) {
      const c = await Client.open(p);
      await c.send(head);
      const all = await c.untilClosed();
      c.close();
      assert.match(all, /^HTTP\/1\.1 400 Bad Request\r\n/, JSON.stringify(head));
    }
  });
});
