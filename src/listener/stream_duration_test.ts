/**
 * The stream duration limit over real sockets: the connection manager's
 * `common_http_protocol_options.max_stream_duration` and a route's `max_stream_duration`
 * (override, 0 turning it off, the `grpc-timeout` header), over HTTP/1.1 and h2c, before the
 * response (Envoy's local reply) and after its head (the stream reset).
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseDownstreamLimits } from "./downstream_limits.ts";
import { parseRouteAction } from "../router/route_action.ts";
import { formatGrpcTimeout, parseGrpcTimeout } from "../http/grpc_timeout.ts";

const HCM_DURATION = { common_http_protocol_options: { max_stream_duration: "0.2s" } };

function routes(extra: JsonObject = {}, more: JsonObject[] = []): JsonObject {
  return {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [...more, {
        match: { prefix: "/" },
        route: { cluster: "c", timeout: "0s", ...extra },
      }],
    }],
  };
}

async function withProxy(
  rc: JsonObject,
  hcm: JsonObject,
  port: number,
  fn: (p: TestProxy) => Promise<void>,
) {
  const p = await startTestProxy([httpListener(rc, hcm)], [
    testCluster("c", [["127.0.0.1", port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const reached = (p: TestProxy) =>
  p.store.counter("http.test.downstream_rq_max_duration_reached").value();
const cluster = (p: TestProxy, n: string) => p.store.counter(`cluster.c.${n}`).value();

/** An origin that reads a request and never answers. */
const silentOrigin = () => trackingOrigin(() => null);

/** An origin that answers a head and 2 of 10 body bytes, then stalls. */
const stallingOrigin = () =>
  trackingOrigin((_i, _chunk, first) =>
    first ? "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nab" : null
  );

/** An origin that answers after the delay `?ms=` names, echoing the grpc-timeout it got. */
function delayOrigin() {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const ms = Number(new URL(r.url).searchParams.get("ms"));
    await new Promise((res) => setTimeout(res, ms));
    return new Response(`ok ${r.headers.get("grpc-timeout") ?? "-"}`);
  });
}

/** An h2c request to the proxy: its status and body, or the stream's error. */
async function h2Get(port: number, path: string) {
  const s = http2.connect(`http://127.0.0.1:${port}`);
  s.on("error", () => {});
  try {
    return await new Promise<{ status: number; body: string; error?: string; rst: number }>(
      (resolve) => {
        const st = s.request({ ":path": path });
        let status = 0;
        let body = "";
        let error: string | undefined;
        st.on("response", (h) => status = Number(h[":status"]));
        st.on("data", (d: Uint8Array) => body += new TextDecoder().decode(d));
        st.on("error", (e: Error) => error = e.message);
        st.on("close", () => resolve({ status, body, error, rst: st.rstCode ?? 0 }));
        st.end();
      },
    );
  } finally {
    s.close();
  }
}

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: read from common_http_protocol_options; a bad value is an error at its path", () => {
  const errors: { path: string; rule: string; message: string }[] = [];
  assert.equal(parseDownstreamLimits(HCM_DURATION, "hcm", errors).maxStreamDurationMs, 200);
  assert.equal(parseDownstreamLimits({}, "hcm", errors).maxStreamDurationMs, 0);
  assert.equal(errors.length, 0);
  parseDownstreamLimits(
    { common_http_protocol_options: { max_stream_duration: "soon" } },
    "h",
    errors,
  );
  assert.equal(errors[0]?.path, "h.common_http_protocol_options.max_stream_duration");
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: a silent HTTP/1.1 origin: 504 downstream duration timeout, counted, the upstream connection closed", async () => {
  const o = silentOrigin();
  try {
    await withProxy(routes(), HCM_DURATION, o.port, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(`${r.status} ${await r.text()}`, "504 downstream duration timeout");
      assert.equal(reached(p), 1);
      await o.closed(0);
      assert.equal(cluster(p, "upstream_cx_destroy_local_with_active_rq"), 1);
      assert.equal(p.store.counter("http.test.downstream_rq_5xx").value(), 1);
    });
  } finally {
    o.close();
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: while the request body is still arriving the answer is 408 and the connection closes", async () => {
  const o = silentOrigin();
  try {
    await withProxy(routes(), HCM_DURATION, o.port, async (p) => {
      const text = await rawExchange(
        p.port(),
        "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 10\r\n\r\nabc",
      );
      assert.match(text, /^HTTP\/1\.1 408 [^]*connection: close[^]*downstream duration timeout$/i);
      assert.equal(reached(p), 1);
      await o.closed(0);
    });
  } finally {
    o.close();
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: after the response head the HTTP/1.1 stream is reset: the connection closes mid-body", async () => {
  const o = stallingOrigin();
  try {
    await withProxy(routes(), HCM_DURATION, o.port, async (p) => {
      const text = await rawExchange(p.port(), "GET / HTTP/1.1\r\nhost: a\r\n\r\n");
      // The head and the 2 bytes the origin sent, then the close (rawExchange reads to it).
      assert.match(text, /^HTTP\/1\.1 200 [^]*content-length: 10\r\n\r\nab$/i);
      assert.equal(reached(p), 1);
      await o.closed(0);
      assert.equal(cluster(p, "upstream_cx_destroy_local_with_active_rq"), 1);
    });
  } finally {
    o.close();
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: h2c: a silent origin answers 504, and a stalled body resets the stream", async () => {
  const silent = silentOrigin();
  const stalling = stallingOrigin();
  try {
    await withProxy(routes(), HCM_DURATION, silent.port, async (p) => {
      const r = await h2Get(p.port(), "/");
      assert.equal(`${r.status} ${r.body}`, "504 downstream duration timeout");
      assert.equal(reached(p), 1);
      await silent.closed(0);
    });
    await withProxy(routes(), HCM_DURATION, stalling.port, async (p) => {
      const r = await h2Get(p.port(), "/");
      assert.equal(r.status, 200);
      assert.equal(r.body, "ab");
      // Deno's HTTP/2 server resets a stream whose body fails with INTERNAL_ERROR.
      assert.equal(r.rst, http2.constants.NGHTTP2_INTERNAL_ERROR);
      assert.equal(reached(p), 1);
      await stalling.closed(0);
    });
  } finally {
    silent.close();
    stalling.close();
  }
});

Deno.test("RouteAction.max_stream_duration: replaces the connection manager's limit, 0 turns it off, and a route without one keeps it", async () => {
  const o = delayOrigin();
  const rc = routes({}, [
    {
      match: { prefix: "/off" },
      route: { cluster: "c", max_stream_duration: { max_stream_duration: "0s" } },
    },
    {
      match: { prefix: "/long" },
      route: { cluster: "c", max_stream_duration: { max_stream_duration: "30s" } },
    },
    {
      match: { prefix: "/short" },
      route: { cluster: "c", max_stream_duration: { max_stream_duration: "0.1s" } },
    },
  ]);
  try {
    await withProxy(rc, HCM_DURATION, o.addr.port, async (p) => {
      const get = async (path: string) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}${path}`);
        return `${r.status} ${await r.text()}`;
      };
      assert.equal(await get("/off?ms=400"), "200 ok -");
      assert.equal(await get("/long?ms=400"), "200 ok -");
      assert.equal(reached(p), 0);
      assert.equal(await get("/?ms=400"), "504 downstream duration timeout");
      assert.equal(await get("/short?ms=150"), "504 downstream duration timeout");
      assert.equal(reached(p), 2);
    });
    // Without a connection manager limit, the route's alone applies.
    await withProxy(rc, {}, o.addr.port, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/short?ms=300`);
      assert.equal(`${r.status} ${await r.text()}`, "504 downstream duration timeout");
      assert.equal(reached(p), 1);
    });
  } finally {
    await o.shutdown();
  }
});

Deno.test("RouteAction.max_stream_duration: a route that sets it no longer uses its timeout, as Envoy's new timeouts", async () => {
  const o = delayOrigin();
  const rc = routes({}, [{
    match: { prefix: "/" },
    route: { cluster: "c", timeout: "0.1s", max_stream_duration: { max_stream_duration: "0s" } },
  }]);
  try {
    await withProxy(rc, {}, o.addr.port, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/?ms=300`);
      assert.equal(`${r.status} ${await r.text()}`, "200 ok -");
    });
  } finally {
    await o.shutdown();
  }
});

Deno.test("MaxStreamDuration.grpc_timeout_header_max: the grpc-timeout header gives the limit, capped, less grpc_timeout_header_offset, and goes upstream as set", async () => {
  const o = delayOrigin();
  const rc = routes({}, [{
    match: { prefix: "/" },
    route: {
      cluster: "c",
      max_stream_duration: {
        max_stream_duration: "30s",
        grpc_timeout_header_max: "1s",
        grpc_timeout_header_offset: "0.05s",
      },
    },
  }]);
  const grpc = (timeout: string) => ({
    "content-type": "application/grpc",
    "grpc-timeout": timeout,
  });
  try {
    await withProxy(rc, {}, o.addr.port, async (p) => {
      const get = async (path: string, headers: Record<string, string>) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}${path}`, { headers });
        return `${r.status} ${await r.text()}`;
      };
      // 300 ms less the 50 ms offset; the upstream sees the limit.
      assert.equal(await get("/?ms=0", grpc("300m")), "200 ok 250m");
      // Capped at grpc_timeout_header_max (1 s), then the offset.
      assert.equal(await get("/?ms=0", grpc("5S")), "200 ok 950m");
      assert.equal(reached(p), 0);
      // A gRPC request gets the local reply as gRPC: DEADLINE_EXCEEDED.
      const late = await fetch(`http://127.0.0.1:${p.port()}/?ms=400`, { headers: grpc("200m") });
      assert.equal(
        `${late.status} ${late.headers.get("grpc-status")} ${late.headers.get("grpc-message")}`,
        "200 4 downstream duration timeout",
      );
      await late.body?.cancel();
      assert.equal(reached(p), 1);
      // Without the header, max_stream_duration applies; non-gRPC requests keep their header.
      assert.equal(await get("/?ms=0", {}), "200 ok -");
      assert.equal(await get("/?ms=0", { "grpc-timeout": "7S" }), "200 ok 7S");
    });
    // Uncapped, the largest value (99999999 hours) is a limit that does not fire at once.
    const uncapped = routes({}, [{
      match: { prefix: "/" },
      route: { cluster: "c", max_stream_duration: { grpc_timeout_header_max: "0s" } },
    }]);
    await withProxy(uncapped, {}, o.addr.port, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/?ms=50`, {
        headers: grpc("99999999H"),
      });
      assert.equal(`${r.status} ${await r.text()}`, "200 ok 99999999H");
    });
  } finally {
    await o.shutdown();
  }
});

Deno.test("MaxStreamDuration.grpc_timeout_header_offset: parsed with the route; grpc-timeout values read and written as Envoy does", () => {
  const errors: { path: string; rule: string; message: string }[] = [];
  const a = parseRouteAction(
    {
      route: {
        cluster: "c",
        max_stream_duration: { grpc_timeout_header_max: "0s", grpc_timeout_header_offset: "1s" },
      },
    },
    "r",
    errors,
    null,
  );
  assert.equal(errors.length, 0);
  assert.ok(a !== null && "maxStreamDuration" in a);
  assert.deepEqual(a.maxStreamDuration, {
    maxMs: null,
    grpcHeaderMaxMs: 0,
    grpcHeaderOffsetMs: 1000,
  });
  assert.equal(a.timeoutMs, 0);
  parseRouteAction(
    { route: { cluster: "c", max_stream_duration: { max_stream_duration: 3, bogus: 1 } } },
    "r",
    errors,
    null,
  );
  assert.deepEqual(errors.map((e) => e.path).sort(), [
    "r.route.max_stream_duration.bogus",
    "r.route.max_stream_duration.max_stream_duration",
  ]);
  assert.equal(parseGrpcTimeout("2S"), 2000);
  assert.equal(parseGrpcTimeout("1500u"), 2);
  assert.equal(parseGrpcTimeout("123456789m"), null);
  assert.equal(parseGrpcTimeout("5s"), null);
  assert.equal(formatGrpcTimeout(250), "250m");
  assert.equal(formatGrpcTimeout(100_000_000), "100000S");
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: the access log shows details max_duration_timeout and no response flag", async () => {
  const o = silentOrigin();
  const dir = await Deno.makeTempDir();
  const accessLog = [{
    name: "envoy.access_loggers.file",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
      path: `${dir}/access.log`,
      log_format: {
        text_format_source: {
          inline_string: "%RESPONSE_CODE% %RESPONSE_CODE_DETAILS% [%RESPONSE_FLAGS%]\n",
        },
      },
    },
  }];
  const p = await startTestProxy(
    [httpListener(routes(), { ...HCM_DURATION, access_log: accessLog })],
    [testCluster("c", [["127.0.0.1", o.port]])],
    { fileFlushIntervalMs: 0 },
  );
  try {
    const r = await fetch(`http://127.0.0.1:${p.port()}/`);
    assert.equal(r.status, 504);
    await r.body?.cancel();
    let line = "";
    for (let i = 0; i < 50 && line === ""; i++) {
      line = await Deno.readTextFile(`${dir}/access.log`).catch(() => "");
      if (line === "") await new Promise((res) => setTimeout(res, 20));
    }
    assert.equal(line, "504 max_duration_timeout [-]\n");
  } finally {
    await p.close();
    o.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: an HTTP/2 upstream stream is reset with RST_STREAM CANCEL", async () => {
  const server = http2.createServer();
  let resolveReset!: (code: number) => void;
  const reset = new Promise<number>((r) => resolveReset = r);
  server.on("stream", (st) => {
    st.on("close", () => resolveReset(st.rstCode));
    st.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  const p = await startTestProxy([httpListener(routes(), HCM_DURATION)], [
    testCluster("c", [["127.0.0.1", port]], { http2: true }),
  ]);
  try {
    const r = await fetch(`http://127.0.0.1:${p.port()}/`);
    assert.equal(`${r.status} ${await r.text()}`, "504 downstream duration timeout");
    assert.equal(await reset, http2.constants.NGHTTP2_CANCEL);
    assert.equal(cluster(p, "upstream_rq_tx_reset"), 1);
    assert.equal(reached(p), 1);
  } finally {
    await p.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: an internal redirect starts a new stream with its own limit, as Envoy recreates the stream", async () => {
  // Each leg takes 250 ms: 500 ms in all, more than the 400 ms limit, less than it per stream.
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    await new Promise((res) => setTimeout(res, 250));
    const first = new URL(r.url).pathname === "/first";
    return first
      ? new Response("moved", { status: 302, headers: { location: "http://a/second" } })
      : new Response("second");
  });
  const rc = routes({}, [{
    match: { prefix: "/first" },
    route: { cluster: "c", internal_redirect_policy: {} },
  }]);
  try {
    await withProxy(
      rc,
      { common_http_protocol_options: { max_stream_duration: "0.4s" } },
      o.addr.port,
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/first`);
        assert.equal(`${r.status} ${await r.text()}`, "200 second");
        assert.equal(reached(p), 0);
      },
    );
  } finally {
    await o.shutdown();
  }
});

Deno.test("DownstreamHttpProtocolOptions.max_stream_duration: h2c: while the request body is still arriving the answer is 408", async () => {
  const o = silentOrigin();
  try {
    await withProxy(routes(), HCM_DURATION, o.port, async (p) => {
      const s = http2.connect(`http://127.0.0.1:${p.port()}`);
      s.on("error", () => {});
      try {
        const r = await new Promise<string>((resolve) => {
          const st = s.request({ ":path": "/", ":method": "POST" });
          let status = 0;
          let body = "";
          st.on("response", (h) => status = Number(h[":status"]));
          st.on("data", (d: Uint8Array) => body += new TextDecoder().decode(d));
          st.on("error", () => {});
          // The answer ends the server's side; the client's stays open.
          st.on("end", () => resolve(`${status} ${body}`));
          st.on("close", () => resolve(`${status} ${body}`));
          // Part of the body, never its end.
          st.write("abc");
        });
        assert.equal(r, "408 downstream duration timeout");
        assert.equal(reached(p), 1);
      } finally {
        s.close();
      }
    });
  } finally {
    o.close();
  }
});
