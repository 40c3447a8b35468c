/**
 * The cluster's `common_http_protocol_options.max_stream_duration` and `max_headers_count`
 * through a real listener and real origins: a stream that outlives its duration is reset
 * upstream and answered 504 (408 while the request was still arriving), retried as a reset, or
 * cut once its response started; a response head with too many fields is a protocol error.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { connectionLimitsOf } from "../config/upstream_http_options.ts";

const enc = new TextEncoder();

/** A raw HTTP/1.1 origin: connection `i` gets `script(i)` written after its first bytes (null: nothing). */
const rawOrigin = (script: (i: number) => string | null) =>
  trackingOrigin((i, _chunk, first) => first ? script(i) : null);

async function withProxy(
  route: JsonObject,
  port: number,
  over: Partial<EffectiveCluster>,
  fn: (p: TestProxy) => Promise<void>,
) {
  const routes = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", timeout: "0s", ...route } }],
    }],
  };
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("c", [["127.0.0.1", port]], over),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const stat = (p: TestProxy, n: string) => p.store.counter(`cluster.c.${n}`).value();
const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
const MSD = "upstream max stream duration reached";

Deno.test("core.HttpProtocolOptions.max_stream_duration: read from common_http_protocol_options", () => {
  const l = connectionLimitsOf({
    common_http_protocol_options: { max_stream_duration: "0.25s", max_headers_count: 7 },
  });
  assert.equal(l.maxStreamDurationMs, 250);
  assert.equal(l.maxHeadersCount, 7);
  assert.equal(connectionLimitsOf({}).maxHeadersCount, 100);
  assert.equal(connectionLimitsOf({}).maxStreamDurationMs, 0);
});

Deno.test("core.HttpProtocolOptions.max_stream_duration: a silent upstream stream is reset and answered 504, counted upstream_rq_max_duration_reached", async () => {
  const o = rawOrigin(() => null);
  try {
    await withProxy({}, o.port, { maxStreamDurationMs: 200 }, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(`${r.status} ${await r.text()}`, `504 ${MSD}`);
      await o.closedAtLeast(1);
      assert.equal(stat(p, "upstream_rq_max_duration_reached"), 1);
      assert.equal(stat(p, "upstream_cx_destroy_local_with_active_rq"), 1);
      assert.equal(stat(p, "upstream_rq_504"), 0);
      assert.equal(p.store.gauge("cluster.c.upstream_rq_active").value(), 0);
    });
  } finally {
    o.close();
  }
});

Deno.test("core.HttpProtocolOptions.max_stream_duration: while the request body is still arriving the answer is 408", async () => {
  const o = rawOrigin(() => null);
  try {
    await withProxy({}, o.port, { maxStreamDurationMs: 200 }, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      try {
        await c.write(enc.encode("POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc"));
        const buf = new Uint8Array(4096);
        const n = await c.read(buf);
        const text = new TextDecoder().decode(buf.subarray(0, n ?? 0));
        assert.match(text, /^HTTP\/1\.1 408 /);
        assert.ok(text.endsWith(MSD), text);
      } finally {
        c.close();
      }
    });
  } finally {
    o.close();
  }
});

Deno.test("core.HttpProtocolOptions.max_stream_duration: retry_on reset retries the reset stream", async () => {
  const o = rawOrigin((i) => i === 0 ? null : OK);
  try {
    await withProxy(
      { retry_policy: { retry_on: "reset", num_retries: 1 } },
      o.port,
      { maxStreamDurationMs: 200 },
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`);
        assert.equal(`${r.status} ${await r.text()}`, "200 ok");
        assert.equal(stat(p, "upstream_rq_max_duration_reached"), 1);
        assert.equal(stat(p, "upstream_rq_retry"), 1);
      },
    );
  } finally {
    o.close();
  }
});

Deno.test("core.HttpProtocolOptions.max_stream_duration: a response that started is cut", async () => {
  const o = rawOrigin(() => "HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial");
  try {
    await withProxy({}, o.port, { maxStreamDurationMs: 200 }, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(r.status, 200);
      await assert.rejects(() => r.text());
      await o.closedAtLeast(1);
      assert.equal(stat(p, "upstream_rq_max_duration_reached"), 1);
      assert.equal(stat(p, "upstream_rq_rx_reset"), 0);
    });
  } finally {
    o.close();
  }
});

Deno.test("core.HttpProtocolOptions.max_stream_duration: an HTTP/2 upstream stream gets RST_STREAM CANCEL and the client 504", async () => {
  const server = http2.createServer();
  let resolveReset!: (code: number) => void;
  const reset = new Promise<number>((r) => resolveReset = r);
  server.on("stream", (st) => {
    st.on("close", () => resolveReset(st.rstCode));
    st.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  try {
    await withProxy({}, port, { http2: true, maxStreamDurationMs: 200 }, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(`${r.status} ${await r.text()}`, `504 ${MSD}`);
      assert.equal(await reset, http2.constants.NGHTTP2_CANCEL);
      assert.equal(stat(p, "upstream_rq_max_duration_reached"), 1);
      assert.equal(stat(p, "upstream_rq_tx_reset"), 1);
    });
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

Deno.test("core.HttpProtocolOptions.max_headers_count: a response head with more fields is a protocol error (503), one within is forwarded", async () => {
  const head = (n: number) =>
    "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n" +
    Array.from({ length: n }, (_, i) => `x-h${i}: v\r\n`).join("") + "\r\nok";
  // Two fields besides content-length, then three.
  const o = rawOrigin((i) => head(i === 0 ? 2 : 3));
  try {
    // One request per upstream connection: the origin answers each connection's first request.
    const over = { maxHeadersCount: 3, maxRequestsPerConnection: 1 };
    await withProxy({}, o.port, over, async (p) => {
      const ok = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(`${ok.status} ${await ok.text()}`, "200 ok");
      const bad = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(
        `${bad.status} ${await bad.text()}`,
        "503 upstream connect error or disconnect/reset before headers. reset reason: protocol error",
      );
      assert.equal(stat(p, "upstream_cx_protocol_error"), 1);
    });
  } finally {
    o.close();
  }
});

Deno.test("core.HttpProtocolOptions.max_headers_count: an HTTP/2 response head with more fields resets its stream (503)", async () => {
  const server = http2.createServer((req, res) => {
    const n = req.url === "/many" ? 6 : 1;
    for (let i = 0; i < n; i++) res.setHeader(`x-h${i}`, "v");
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  try {
    await withProxy({}, port, { http2: true, maxHeadersCount: 4 }, async (p) => {
      const ok = await fetch(`http://127.0.0.1:${p.port()}/few`);
      assert.equal(`${ok.status} ${await ok.text()}`, "200 ok");
      const bad = await fetch(`http://127.0.0.1:${p.port()}/many`);
      assert.equal(bad.status, 503);
      assert.match(await bad.text(), /^upstream connect error or disconnect\/reset before headers/);
    });
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
