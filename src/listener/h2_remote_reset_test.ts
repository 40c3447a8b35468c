/**
 * An HTTP/2 client that resets its stream (RST_STREAM) before the answer: as Envoy logs it, the
 * access log line has response code 0, flag `DR` (DownstreamRemoteReset) and details
 * `http2.remote_reset`; no response is counted, the reset is counted `downstream_rq_rx_reset`,
 * and the connection stays open for other streams. A client that closes its whole connection
 * instead is logged `0 DC downstream_remote_disconnect`.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { type TestProxy, withLoggedProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";

const FORMAT = "%PROTOCOL% %RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS%\n";

const counter = (p: TestProxy, n: string) => p.store.counter(n).value();

Deno.test("HttpConnectionManager access log: an HTTP/2 stream the client resets before its answer is logged 0 DR http2.remote_reset", async () => {
  const o = trackingOrigin(() => null);
  try {
    await withLoggedProxy(o.port, FORMAT, async (p, log) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      s.on("error", () => {});
      try {
        const st = s.request({ ":path": "/slow" });
        st.on("error", () => {});
        st.end();
        await o.seenAtLeast(1);
        st.close(http2.constants.NGHTTP2_CANCEL);
        assert.equal(await log(), "HTTP/2 0 DR http2.remote_reset\n");
        assert.equal(counter(p, "http.test.downstream_rq_rx_reset"), 1);
        assert.equal(counter(p, "http.test.downstream_rq_5xx"), 0);
        assert.equal(counter(p, "http.test.downstream_rq_completed"), 0);
        assert.equal(counter(p, "http.test.downstream_cx_destroy"), 0);
      } finally {
        s.destroy();
      }
    });
  } finally {
    o.close();
  }
});

Deno.test("HttpConnectionManager access log: an HTTP/2 client that closes its connection before the answer is logged 0 DC downstream_remote_disconnect", async () => {
  const o = trackingOrigin(() => null);
  try {
    await withLoggedProxy(o.port, FORMAT, async (p, log) => {
      // A bare HTTP/2 client: preface, SETTINGS, and a GET on stream 1; then the TCP
      // connection ends under the open stream (no RST_STREAM, no GOAWAY first).
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      await c.write(new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
      await c.write(new Uint8Array([0, 0, 0, 4, 0, 0, 0, 0, 0]));
      // HEADERS, END_STREAM | END_HEADERS: :method GET, :scheme http, :path /, :authority a.
      const block = [0x82, 0x86, 0x84, 0x41, 0x01, 0x61];
      await c.write(new Uint8Array([0, 0, block.length, 1, 5, 0, 0, 0, 1, ...block]));
      await o.seenAtLeast(1);
      c.close();
      assert.equal(await log(), "HTTP/2 0 DC downstream_remote_disconnect\n");
      assert.equal(counter(p, "http.test.downstream_rq_rx_reset"), 0);
      assert.equal(counter(p, "http.test.downstream_rq_5xx"), 0);
      for (let i = 0; i < 2000 && counter(p, "http.test.downstream_cx_destroy") === 0; i++) {
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.equal(counter(p, "http.test.downstream_cx_destroy_remote"), 1);
      assert.equal(counter(p, "http.test.downstream_cx_destroy_remote_active_rq"), 1);
      assert.equal(counter(p, "http.test.downstream_cx_destroy_active_rq"), 1);
    });
  } finally {
    o.close();
  }
});
