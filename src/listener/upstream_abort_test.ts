/**
 * The router's abandoned attempts are reset upstream, seen from a real origin that never
 * answers: its HTTP/1.1 connection is closed (not pooled again) and its HTTP/2 stream gets
 * RST_STREAM, after a per-try idle timeout and after a downstream (HTTP/2) reset; each counted
 * as Envoy counts it.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function routes(route: JsonObject): JsonObject {
  return {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", timeout: "0s", ...route } }],
    }],
  };
}

/**
 * A raw HTTP/1.1 origin: the first `hang` connections read a request head and never answer;
 * later ones answer `200 ok`.
 */
const hangingOrigin = (hang: number) =>
  trackingOrigin((i, _chunk, first) =>
    i >= hang && first ? "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok" : null
  );

/** An HTTP/2 origin whose streams never answer; `reset` resolves with a stream's RST code. */
function silentH2Origin() {
  const server = http2.createServer();
  let resolveReset!: (code: number) => void;
  const reset = new Promise<number>((r) => resolveReset = r);
  let got!: () => void;
  const requested = new Promise<void>((r) => got = r);
  server.on("stream", (st) => {
    got();
    st.on("close", () => resolveReset(st.rstCode));
    st.on("error", () => {});
  });
  const ready = new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    ready,
    port: () => (server.address() as { port: number }).port,
    reset,
    requested,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function withProxy(
  route: JsonObject,
  port: number,
  h2: boolean,
  fn: (p: TestProxy) => Promise<void>,
) {
  const p = await startTestProxy([httpListener(routes(route))], [
    testCluster("c", [["127.0.0.1", port]], h2 ? { http2: true } : {}),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const stat = (p: TestProxy, n: string) => p.store.counter(`cluster.c.${n}`).value();

Deno.test("RetryPolicy.per_try_idle_timeout: the silent attempt's HTTP/1.1 connection is closed upstream, not pooled", async () => {
  const o = hangingOrigin(1);
  try {
    await withProxy(
      { retry_policy: { retry_on: "retriable-4xx", per_try_idle_timeout: "0.2s" } },
      o.port,
      false,
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`);
        assert.equal(`${r.status} ${await r.text()}`, "504 upstream request timeout");
        await o.closed(0);
        assert.equal(stat(p, "upstream_rq_per_try_idle_timeout"), 1);
        assert.equal(stat(p, "upstream_cx_destroy_local_with_active_rq"), 1);
        assert.equal(stat(p, "upstream_cx_destroy_with_active_rq"), 1);
        assert.equal(stat(p, "upstream_rq_504"), 1);
        assert.equal(p.store.gauge("cluster.c.upstream_cx_active").value(), 0);
        assert.equal(p.store.gauge("cluster.c.upstream_rq_active").value(), 0);
      },
    );
  } finally {
    o.close();
  }
});

Deno.test("RetryPolicy.per_try_idle_timeout: a retried silent attempt is reset upstream and not counted as a 504", async () => {
  const o = hangingOrigin(1);
  try {
    await withProxy(
      { retry_policy: { retry_on: "5xx", num_retries: 1, per_try_idle_timeout: "0.2s" } },
      o.port,
      false,
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`);
        assert.equal(`${r.status} ${await r.text()}`, "200 ok");
        await o.closed(0);
        assert.equal(stat(p, "upstream_rq_retry"), 1);
        assert.equal(stat(p, "upstream_cx_destroy_local_with_active_rq"), 1);
        assert.equal(stat(p, "upstream_rq_504"), 0);
        assert.equal(stat(p, "upstream_rq_200"), 1);
      },
    );
  } finally {
    o.close();
  }
});

Deno.test("RetryPolicy.per_try_idle_timeout: the silent attempt's HTTP/2 stream gets RST_STREAM CANCEL", async () => {
  const o = silentH2Origin();
  await o.ready;
  try {
    await withProxy(
      { retry_policy: { retry_on: "retriable-4xx", per_try_idle_timeout: "0.2s" } },
      o.port(),
      true,
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`);
        assert.equal(r.status, 504);
        await r.body?.cancel();
        assert.equal(await o.reset, http2.constants.NGHTTP2_CANCEL);
        assert.equal(stat(p, "upstream_rq_tx_reset"), 1);
        assert.equal(p.store.gauge("cluster.c.upstream_rq_active").value(), 0);
      },
    );
  } finally {
    await o.close();
  }
});

Deno.test("router: an HTTP/2 downstream reset before the answer closes the upstream HTTP/1.1 connection", async () => {
  const o = hangingOrigin(1);
  try {
    await withProxy({}, o.port, false, async (p) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      s.on("error", () => {});
      try {
        const st = s.request({ ":path": "/" });
        st.on("error", () => {});
        st.end();
        await o.seenAtLeast(1);
        st.close(http2.constants.NGHTTP2_CANCEL);
        await o.closed(0);
        assert.equal(stat(p, "upstream_cx_destroy_local_with_active_rq"), 1);
      } finally {
        s.close();
      }
    });
  } finally {
    o.close();
  }
});

Deno.test("router: an HTTP/2 downstream reset before the answer resets the upstream HTTP/2 stream", async () => {
  const o = silentH2Origin();
  await o.ready;
  try {
    await withProxy({}, o.port(), true, async (p) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      s.on("error", () => {});
      try {
        const st = s.request({ ":path": "/" });
        st.on("error", () => {});
        st.end();
        await o.requested;
        st.close(http2.constants.NGHTTP2_CANCEL);
        assert.equal(await o.reset, http2.constants.NGHTTP2_CANCEL);
        assert.equal(stat(p, "upstream_rq_tx_reset"), 1);
      } finally {
        s.close();
      }
    });
  } finally {
    await o.close();
  }
});

Deno.test("router: the route timeout while the request body is still arriving closes the upstream connection and answers 504", async () => {
  const o = hangingOrigin(1);
  try {
    await withProxy({ timeout: "0.2s" }, o.port, false, async (p) => {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      try {
        await c.write(
          new TextEncoder().encode("POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc"),
        );
        const buf = new Uint8Array(4096);
        const n = await c.read(buf);
        assert.match(new TextDecoder().decode(buf.subarray(0, n ?? 0)), /^HTTP\/1\.1 504 /);
        await o.closed(0);
        assert.equal(stat(p, "upstream_rq_timeout"), 1);
        assert.equal(stat(p, "upstream_cx_destroy_local_with_active_rq"), 1);
      } finally {
        c.close();
      }
    });
  } finally {
    o.close();
  }
});
