/**
 * The connection manager's timeouts on h2c (HTTP/2 with prior knowledge) downstream
 * connections, through real sockets: `idle_timeout` and `max_connection_duration` end the
 * connection with a GOAWAY, `request_timeout` and `stream_idle_timeout` answer 408 / 504 before
 * the response starts and reset the stream after; each is counted as on HTTP/1.1.
 *
 * @module
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { testCluster } from "../upstream/test_cluster.ts";

const routes = {
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o", timeout: "0s" } }],
  }],
};

/** An origin: `/hold` answers once released, `/stall` sends one chunk and then nothing. */
function origin() {
  let release = () => {};
  const released = new Promise<void>((r) => release = r);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/hold") {
      await released;
      return new Response("held");
    }
    if (path === "/stall") {
      let stop = () => {};
      return new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode("first"));
            stop = () => {
              try {
                c.close();
              } catch { /* cancelled by the proxy */ }
            };
            released.then(() => stop());
          },
        }),
      );
    }
    await req.body?.cancel();
    return new Response("ok");
  });
  return { server, release };
}

async function withH2(
  hcm: JsonObject,
  fn: (p: TestProxy, session: http2.ClientHttp2Session) => Promise<void>,
) {
  const o = origin();
  const p = await startTestProxy([httpListener(routes, hcm)], [
    testCluster("o", [["127.0.0.1", o.server.addr.port]]),
  ]);
  const session = http2.connect(`http://127.0.0.1:${p.port()}`);
  session.on("error", () => {});
  try {
    await fn(p, session);
  } finally {
    o.release();
    session.destroy();
    await p.close();
    await o.server.shutdown();
  }
}

interface Answer {
  status: number;
  body: string;
  /** The RST_STREAM code when the stream was reset. */
  reset: number;
}

function request(
  session: http2.ClientHttp2Session,
  path: string,
  opts: { method?: string; body?: "never-ends" } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const s = session.request({ ":path": path, ":method": opts.method ?? "GET" }, {
      endStream: opts.body === undefined,
    });
    if (opts.body === "never-ends") s.write("partial");
    let status = 0;
    let body = "";
    s.on("response", (h) => status = Number(h[":status"]));
    s.setEncoding("utf8");
    s.on("data", (d: string) => body += d);
    s.on("error", () => {});
    // A request still sending its body sees the response end before its stream closes.
    s.on("end", () => {
      resolve({ status, body, reset: 0 });
      s.close();
    });
    s.on("close", () => resolve({ status, body, reset: s.rstCode ?? 0 }));
  });
}

/** `p`, or a failure naming `what` if it has not settled in 10 s (a bound, not a measure). */
function bounded<T>(p: Promise<T>, what: string): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const fail = new Promise<never>((_, rej) =>
    t = setTimeout(() => rej(new Error(`no ${what} within 10 s`)), 10_000)
  );
  return Promise.race([p, fail]).finally(() => clearTimeout(t));
}

const counter = (p: TestProxy, name: string) => p.store.counter(`http.test.${name}`).value();

Deno.test("HttpConnectionManager.common_http_protocol_options: idle_timeout ends an idle h2c connection with a GOAWAY, counted", async () => {
  const hcm = { common_http_protocol_options: { idle_timeout: "0.2s" }, drain_timeout: "0.05s" };
  await withH2(hcm, async (p, session) => {
    const goaway = new Promise<[number, number]>((r) =>
      session.on("goaway", (code, last) => r([code, last]))
    );
    const closed = new Promise((r) => session.on("close", r));
    const a = await request(session, "/");
    assert.deepEqual([a.status, a.body], [200, "ok"]);
    // Envoy's drain sequence starts with the notice (last stream id 2^31-1, NO_ERROR).
    assert.deepEqual(await bounded(goaway, "GOAWAY"), [0, 0x7fffffff]);
    await bounded(closed, "close");
    assert.equal(counter(p, "downstream_cx_idle_timeout"), 1);
  });
});

/** An h2c client speaking raw frames: it sees every frame the proxy sends, in order. */
class RawH2 {
  readonly frames: { type: number; flags: number; stream: number; payload: Uint8Array }[] = [];
  #buf = new Uint8Array(0);
  constructor(readonly conn: Deno.Conn) {}

  static async open(port: number): Promise<RawH2> {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    const preface = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    await c.write(new Uint8Array([...preface, ...frame(4, 0, 0, [])]));
    return new RawH2(c);
  }

  /** Sends a GET of `path` on stream `id` (HPACK literals without indexing). */
  async get(id: number, path: string): Promise<void> {
    const lit = (index: number, v: string) => [index, v.length, ...new TextEncoder().encode(v)];
    const block = [0x82, 0x86, ...lit(4, path), ...lit(1, "a")];
    await this.conn.write(frame(1, 0x5, id, block));
  }

  /** Reads frames until one satisfies `want` (acknowledging SETTINGS); null at the end. */
  async until(want: (type: number, stream: number) => boolean): Promise<number | null> {
    for (;;) {
      while (this.#buf.length >= 9) {
        const len = (this.#buf[0] << 16) | (this.#buf[1] << 8) | this.#buf[2];
        if (this.#buf.length < 9 + len) break;
        const type = this.#buf[3];
        const flags = this.#buf[4];
        const stream = new DataView(this.#buf.buffer, this.#buf.byteOffset).getUint32(5) &
          0x7fffffff;
        const payload = this.#buf.slice(9, 9 + len);
        this.#buf = this.#buf.slice(9 + len);
        this.frames.push({ type, flags, stream, payload });
        if (type === 4 && (flags & 1) === 0) await this.conn.write(frame(4, 1, 0, []));
        if (want(type, stream)) return type;
      }
      const chunk = new Uint8Array(65536);
      const n = await this.conn.read(chunk).catch(() => null);
      if (n === null) return null;
      this.#buf = new Uint8Array([...this.#buf, ...chunk.subarray(0, n)]);
    }
  }
}

function frame(type: number, flags: number, stream: number, payload: number[]): Uint8Array {
  const f = new Uint8Array(9 + payload.length);
  f[0] = payload.length >> 16;
  f[1] = (payload.length >> 8) & 0xff;
  f[2] = payload.length & 0xff;
  f[3] = type;
  f[4] = flags;
  new DataView(f.buffer).setUint32(5, stream);
  f.set(payload, 9);
  return f;
}

Deno.test("DownstreamHttpProtocolOptions.max_connection_duration: an h2c connection gets a GOAWAY, its open stream finishes, then it closes", async () => {
  const o = origin();
  const p = await startTestProxy(
    [httpListener(routes, {
      common_http_protocol_options: { max_connection_duration: "0.2s" },
      drain_timeout: "0.05s",
    })],
    [testCluster("o", [["127.0.0.1", o.server.addr.port]])],
  );
  const h2 = await RawH2.open(p.port());
  try {
    await h2.get(1, "/hold");
    assert.equal(await bounded(h2.until((type) => type === 7), "GOAWAY"), 7);
    // The notice (last stream id 2^31-1, NO_ERROR), then after drain_timeout the final GOAWAY.
    assert.deepEqual([...h2.frames.at(-1)!.payload], [0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    assert.equal(await bounded(h2.until((type) => type === 7), "final GOAWAY"), 7);
    // Last stream id 1, NO_ERROR.
    assert.deepEqual([...h2.frames.at(-1)!.payload], [0, 0, 0, 1, 0, 0, 0, 0]);
    assert.equal(p.store.counter("http.test.downstream_cx_max_duration_reached").value(), 1);
    o.release();
    // The stream in flight is answered in full (HEADERS, then DATA ending the stream)...
    const got = await h2.until((type, stream) => type === 1 && stream === 1);
    assert.equal(got, 1);
    await h2.until((type, stream) => type === 0 && stream === 1);
    // ... and then the connection closes.
    assert.equal(await bounded(h2.until(() => false), "close"), null);
  } finally {
    o.release();
    h2.conn.close();
    await p.close();
    await o.server.shutdown();
  }
});

Deno.test("HttpConnectionManager.request_timeout: an h2c request whose body never ends is answered 408, counted", async () => {
  await withH2({ request_timeout: "0.2s" }, async (p, session) => {
    const a = await bounded(
      request(session, "/", { method: "POST", body: "never-ends" }),
      "answer",
    );
    assert.deepEqual([a.status, a.body], [408, "request timeout"]);
    assert.equal(counter(p, "downstream_rq_timeout"), 1);
    // The connection serves the next request.
    const b = await request(session, "/");
    assert.equal(b.status, 200);
  });
});

Deno.test("HttpConnectionManager.stream_idle_timeout: an h2c stream without progress is answered 504, or reset once its response started; counted", async () => {
  await withH2({ stream_idle_timeout: "0.2s" }, async (p, session) => {
    const a = await bounded(request(session, "/hold"), "answer");
    assert.deepEqual([a.status, a.body], [504, "stream timeout"]);
    assert.equal(counter(p, "downstream_rq_idle_timeout"), 1);
    const b = await bounded(request(session, "/stall"), "reset");
    assert.equal(b.status, 200);
    assert.equal(b.body, "first");
    assert.notEqual(b.reset, 0, "the stalled response is reset");
    assert.equal(counter(p, "downstream_rq_idle_timeout"), 2);
  });
});
