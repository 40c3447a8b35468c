/**
 * The connection manager's connection close counters, as Envoy's `ConnectionManagerImpl::onEvent`
 * keeps them in `http.<stat_prefix>.`: `downstream_cx_destroy` for every closed connection,
 * `downstream_cx_destroy_remote` when the client closed it, `downstream_cx_destroy_local` when
 * the proxy did, with `_local_active_rq` / `_remote_active_rq` and `downstream_cx_destroy_active_rq`
 * when a request was in flight; and `downstream_rq_tx_reset`, the streams the proxy reset toward
 * the client (a response cut after its head). Over HTTP/1.1 and h2c, with real sockets.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import { serveHttp1 } from "./http1_server.ts";
import { DEFAULT_LIMITS, limitCounters } from "./downstream_limits.ts";
import { Store } from "../stats/store.ts";
import { localReply } from "../http/local_reply.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

const ROUTES: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "c", timeout: "0s" } }],
  }],
};

async function withProxy(
  hcm: JsonObject,
  port: number,
  fn: (p: TestProxy) => Promise<void>,
): Promise<void> {
  const p = await startTestProxy([httpListener(ROUTES, hcm)], [
    testCluster("c", [["127.0.0.1", port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const counter = (p: TestProxy, n: string) => p.store.counter(`http.test.${n}`).value();

/** The close counters of `p`, in one object (the names without `downstream_`). */
function closes(p: TestProxy): Record<string, number> {
  const out: Record<string, number> = {};
  for (
    const n of [
      "cx_destroy",
      "cx_destroy_remote",
      "cx_destroy_local",
      "cx_destroy_remote_active_rq",
      "cx_destroy_local_active_rq",
      "cx_destroy_active_rq",
      "rq_tx_reset",
    ]
  ) out[n] = counter(p, `downstream_${n}`);
  return out;
}

/** Waits (at most 10 s, then fails naming `what`) until `p` has counted `n` closed connections. */
async function destroyed(p: TestProxy, n: number, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (counter(p, "downstream_cx_destroy") >= n) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never happened: ${what}`);
}

/** An origin that answers every request `200 ok` and keeps its connection. */
const okOrigin = () => trackingOrigin(() => "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");

/** Reads from `c` until the response `ok` body has arrived. */
async function readAnswer(c: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(4096);
  let text = "";
  while (!text.endsWith("\r\n\r\nok")) {
    const n = await c.read(buf);
    if (n === null) break;
    text += dec.decode(buf.subarray(0, n));
  }
  return text;
}

/** Reads `c` to its end (the proxy closed it). */
async function readToEnd(c: Deno.Conn): Promise<void> {
  const buf = new Uint8Array(4096);
  while (await c.read(buf).catch(() => null) !== null) { /* drain */ }
}

Deno.test("HttpConnectionManager stats: an HTTP/1.1 client that closes its idle connection is counted downstream_cx_destroy and downstream_cx_destroy_remote", async () => {
  const o = okOrigin();
  try {
    await withProxy({}, o.port, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
      assert.match(await readAnswer(c), /^HTTP\/1\.1 200 /);
      c.close();
      await destroyed(p, 1, "the connection counted closed");
      assert.deepEqual(closes(p), {
        cx_destroy: 1,
        cx_destroy_remote: 1,
        cx_destroy_local: 0,
        cx_destroy_remote_active_rq: 0,
        cx_destroy_local_active_rq: 0,
        cx_destroy_active_rq: 0,
        rq_tx_reset: 0,
      });
    });
  } finally {
    o.close();
  }
});

Deno.test("HttpConnectionManager stats: an idle HTTP/1.1 connection the proxy closes (idle_timeout) is counted downstream_cx_destroy_local", async () => {
  const o = okOrigin();
  try {
    const hcm = { common_http_protocol_options: { idle_timeout: "0.1s" } };
    await withProxy(hcm, o.port, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
      assert.match(await readAnswer(c), /^HTTP\/1\.1 200 /);
      await readToEnd(c);
      c.close();
      await destroyed(p, 1, "the connection counted closed");
      assert.equal(counter(p, "downstream_cx_idle_timeout"), 1);
      assert.deepEqual(closes(p), {
        cx_destroy: 1,
        cx_destroy_remote: 0,
        cx_destroy_local: 1,
        cx_destroy_remote_active_rq: 0,
        cx_destroy_local_active_rq: 0,
        cx_destroy_active_rq: 0,
        rq_tx_reset: 0,
      });
    });
  } finally {
    o.close();
  }
});

Deno.test("HttpConnectionManager stats: a request with connection: close ends with the proxy closing the connection (downstream_cx_destroy_local)", async () => {
  const o = okOrigin();
  try {
    await withProxy({}, o.port, async (p) => {
      const text = await rawExchange(
        p.port(),
        "GET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n",
      );
      assert.match(text, /^HTTP\/1\.1 200 /);
      await destroyed(p, 1, "the connection counted closed");
      assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
      assert.equal(counter(p, "downstream_cx_destroy_remote"), 0);
    });
  } finally {
    o.close();
  }
});

Deno.test("HttpConnectionManager stats: an HTTP/1.1 client that closes before its answer is counted remote with an active request", async () => {
  const o = trackingOrigin(() => null);
  try {
    await withProxy({}, o.port, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
      await o.seenAtLeast(1);
      c.close();
      await destroyed(p, 1, "the connection counted closed");
      assert.deepEqual(closes(p), {
        cx_destroy: 1,
        cx_destroy_remote: 1,
        cx_destroy_local: 0,
        cx_destroy_remote_active_rq: 1,
        cx_destroy_local_active_rq: 0,
        cx_destroy_active_rq: 1,
        rq_tx_reset: 0,
      });
    });
  } finally {
    o.close();
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: an HTTP/1.1 response cut after its head is a reset sent (downstream_rq_tx_reset) and a local close with an active request", async () => {
  const o = trackingOrigin((_i, _c, first) =>
    first ? "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nab" : null
  );
  try {
    const hcm = { common_http_protocol_options: { max_stream_duration: "0.2s" } };
    await withProxy(hcm, o.port, async (p) => {
      const text = await rawExchange(p.port(), "GET / HTTP/1.1\r\nhost: a\r\n\r\n");
      assert.match(text, /^HTTP\/1\.1 200 [^]*\r\n\r\nab$/);
      await destroyed(p, 1, "the connection counted closed");
      assert.deepEqual(closes(p), {
        cx_destroy: 1,
        cx_destroy_remote: 0,
        cx_destroy_local: 1,
        cx_destroy_remote_active_rq: 0,
        cx_destroy_local_active_rq: 1,
        cx_destroy_active_rq: 1,
        rq_tx_reset: 1,
      });
    });
  } finally {
    o.close();
  }
});

Deno.test("router: an upstream that closes mid-body makes the proxy reset the HTTP/1.1 response (downstream_rq_tx_reset, local close)", async () => {
  const o = trackingOrigin((_i, _c, first) =>
    first ? "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nab" : null
  );
  let stopped = false;
  try {
    await withProxy({}, o.port, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
      await o.seenAtLeast(1);
      // The origin's connection ends with 2 of 10 body bytes sent.
      const got = new Uint8Array(4096);
      let text = "";
      while (!text.endsWith("ab")) {
        const n = await c.read(got);
        if (n === null) break;
        text += dec.decode(got.subarray(0, n));
      }
      o.close();
      stopped = true;
      await readToEnd(c);
      c.close();
      await destroyed(p, 1, "the connection counted closed");
      assert.equal(counter(p, "downstream_rq_tx_reset"), 1);
      assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
      assert.equal(counter(p, "downstream_cx_destroy_remote"), 0);
    });
  } finally {
    if (!stopped) o.close();
  }
});

/** Opens an h2c connection, makes one request answered in full, then runs `then` on the session. */
async function h2Session(
  port: number,
  then: (s: http2.ClientHttp2Session) => Promise<void> | void,
): Promise<void> {
  const s = http2.connect(`http://127.0.0.1:${port}`);
  s.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    const st = s.request({ ":path": "/" });
    st.on("error", reject);
    st.on("data", () => {});
    st.on("close", () => resolve());
    st.end();
  });
  await then(s);
}

Deno.test("HttpConnectionManager stats: an h2c client that closes its connection is counted downstream_cx_destroy_remote", async () => {
  const o = okOrigin();
  try {
    await withProxy({}, o.port, async (p) => {
      await h2Session(p.port(), (s) => {
        s.destroy();
      });
      await destroyed(p, 1, "the connection counted closed");
      assert.deepEqual(closes(p), {
        cx_destroy: 1,
        cx_destroy_remote: 1,
        cx_destroy_local: 0,
        cx_destroy_remote_active_rq: 0,
        cx_destroy_local_active_rq: 0,
        cx_destroy_active_rq: 0,
        rq_tx_reset: 0,
      });
    });
  } finally {
    o.close();
  }
});

Deno.test("HttpConnectionManager stats: an idle h2c connection the proxy closes (idle_timeout) is counted downstream_cx_destroy_local", async () => {
  const o = okOrigin();
  try {
    const hcm = {
      common_http_protocol_options: { idle_timeout: "0.1s" },
      drain_timeout: "0.05s",
    };
    await withProxy(hcm, o.port, async (p) => {
      // A bare HTTP/2 client (preface and SETTINGS) that never closes: only the proxy can.
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(enc.encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
      await c.write(new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]));
      await readToEnd(c);
      c.close();
      await destroyed(p, 1, "the connection counted closed");
      assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
      assert.equal(counter(p, "downstream_cx_destroy_remote"), 0);
      assert.equal(counter(p, "downstream_cx_destroy_active_rq"), 0);
    });
  } finally {
    o.close();
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: an h2c response cut after its head is a reset sent (downstream_rq_tx_reset)", async () => {
  const o = trackingOrigin((_i, _c, first) =>
    first ? "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nab" : null
  );
  try {
    const hcm = { common_http_protocol_options: { max_stream_duration: "0.2s" } };
    await withProxy(hcm, o.port, async (p) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      s.on("error", () => {});
      try {
        const rst = await new Promise<number>((resolve) => {
          const st = s.request({ ":path": "/" });
          st.on("error", () => {});
          st.on("data", () => {});
          st.on("close", () => resolve(st.rstCode ?? 0));
          st.end();
        });
        assert.notEqual(rst, 0);
        assert.equal(counter(p, "downstream_rq_tx_reset"), 1);
        assert.equal(counter(p, "downstream_rq_rx_reset"), 0);
      } finally {
        s.destroy();
      }
    });
  } finally {
    o.close();
  }
});

Deno.test("HttpConnectionManager stats: an HTTP/1.1 connection closed by the proxy under a request (a listener stopping) is counted local with an active request", async () => {
  const store = new Store();
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: (l.addr as Deno.NetAddr).port });
  const conn = await l.accept();
  let handled: () => void = () => {};
  const inHandler = new Promise<void>((r) => handled = r);
  let answer: (r: ProxyResponse) => void = () => {};
  const served = serveHttp1(
    conn,
    { remoteAddr: conn.remoteAddr as Deno.NetAddr, localAddr: conn.localAddr as Deno.NetAddr },
    () => {
      handled();
      return new Promise<ProxyResponse>((r) => answer = r);
    },
    {
      busy: false,
      closing: false,
      limits: { limits: DEFAULT_LIMITS, counters: limitCounters(store, store) },
    },
  );
  try {
    await client.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
    await inHandler;
    // What a stopping listener does to the connections it still has.
    conn.close();
    answer(localReply(200, "late"));
    await served;
    const c = (n: string) => store.counter(`downstream_${n}`).value();
    assert.equal(c("cx_destroy"), 1);
    assert.equal(c("cx_destroy_local"), 1);
    assert.equal(c("cx_destroy_remote"), 0);
    assert.equal(c("cx_destroy_local_active_rq"), 1);
    assert.equal(c("cx_destroy_active_rq"), 1);
  } finally {
    client.close();
    l.close();
  }
});

Deno.test("HttpConnectionManager stats: codec_type HTTP2 closing a connection that does not open with the preface is counted downstream_cx_destroy_local", async () => {
  const o = okOrigin();
  try {
    await withProxy({ codec_type: "HTTP2" }, o.port, async (p) => {
      const text = await rawExchange(p.port(), "GET / HTTP/1.1\r\nhost: a\r\n\r\n");
      assert.equal(text, "");
      await destroyed(p, 1, "the connection counted closed");
      assert.equal(counter(p, "downstream_cx_destroy_local"), 1);
      assert.equal(counter(p, "downstream_cx_destroy_remote"), 0);
    });
  } finally {
    o.close();
  }
});
