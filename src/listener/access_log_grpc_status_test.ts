/**
 * `%GRPC_STATUS%` (its CAMEL_STRING, SNAKE_STRING and NUMBER forms, `%GRPC_STATUS_NUMBER%`) and
 * the `grpc_status_filter` access log filter over real sockets: a gRPC origin over HTTP/2 that
 * answers with a `grpc-status` trailer, a trailers-only answer, an answer without a status, and
 * a gRPC local reply of the proxy.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { protocolCluster } from "../config/protocol_test_cluster.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import type { Errors } from "../config/config_values.ts";
import { parseAccessLogFilter } from "../access_log/access_log_filter.ts";
import { compileFormat } from "../access_log/access_log_format.ts";

/**
 * An h2c gRPC origin: `/trailer` ends with grpc-status 7, `/only` is trailers-only (5), `/none`
 * has none, `/plain` is not gRPC.
 */
async function grpcOrigin() {
  const server = http2.createServer();
  server.on("stream", (st: http2.ServerHttp2Stream, h) => {
    st.resume();
    const path = h[":path"];
    if (path === "/only") {
      st.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "5" }, {
        endStream: true,
      });
      return;
    }
    if (path === "/plain") {
      st.respond({ ":status": 200, "content-type": "text/plain" });
      st.end("x");
      return;
    }
    if (path === "/none") {
      st.respond({ ":status": 200, "content-type": "application/grpc" });
      st.end("x");
      return;
    }
    st.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    st.on("wantTrailers", () => st.sendTrailers({ "grpc-status": "7", "grpc-message": "no" }));
    st.end("payload");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const log = (path: string, format: JsonObject, filter?: JsonObject): JsonObject => ({
  name: "envoy.access_loggers.file",
  ...(filter ? { filter } : {}),
  typed_config: {
    "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
    path,
    log_format: format,
  },
});

Deno.test("access log %GRPC_STATUS% and grpc_status_filter: from the grpc-status trailer, a trailers-only answer, the HTTP status, and a gRPC local reply", async () => {
  const o = await grpcOrigin();
  const dir = await Deno.makeTempDir();
  const routes = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        { match: { prefix: "/dead" }, route: { cluster: "down" } },
        { match: { prefix: "/" }, route: { cluster: "g" } },
      ],
    }],
  };
  const text = "%REQ(:PATH)% %GRPC_STATUS% %GRPC_STATUS(SNAKE_STRING)% %GRPC_STATUS(NUMBER)% " +
    "%GRPC_STATUS_NUMBER%\n";
  const access_log = [
    log(`${dir}/all.log`, { text_format: text }),
    log(`${dir}/json.log`, { json_format: { p: "%REQ(:PATH)%", n: "%GRPC_STATUS(NUMBER)%" } }),
    log(`${dir}/denied.log`, { text_format: "%REQ(:PATH)%\n" }, {
      grpc_status_filter: { statuses: ["PERMISSION_DENIED", "UNAVAILABLE"] },
    }),
    log(`${dir}/not_ok.log`, { text_format: "%REQ(:PATH)%\n" }, {
      grpc_status_filter: { statuses: ["OK", 5], exclude: true },
    }),
  ];
  const g = protocolCluster(o.port, { explicit_http_config: { http2_protocol_options: {} } });
  const p = await startTestProxy(
    [httpListener(routes, { access_log })],
    [effectiveCluster({ ...g, name: "g" }), testCluster("down", [["127.0.0.1", 1]])],
    { fileFlushIntervalMs: 0 },
  );
  try {
    for (const path of ["/trailer", "/only", "/none", "/dead"]) {
      const r = await fetch(`http://127.0.0.1:${p.port()}${path}`, {
        method: "POST",
        headers: { "content-type": "application/grpc" },
        body: "\0\0\0\0\0",
      });
      await r.arrayBuffer();
    }
    // Not a gRPC request: no status.
    await (await fetch(`http://127.0.0.1:${p.port()}/plain`)).arrayBuffer();
    const read = (n: string) => Deno.readTextFile(`${dir}/${n}`);
    assert.equal(
      await read("all.log"),
      "/trailer PermissionDenied PERMISSION_DENIED 7 7\n" +
        "/only NotFound NOT_FOUND 5 5\n" +
        "/none Unknown UNKNOWN 2 2\n" +
        "/dead Unavailable UNAVAILABLE 14 14\n" +
        "/plain - - - -\n",
    );
    assert.deepEqual((await read("json.log")).trim().split("\n").map((l) => JSON.parse(l).n), [
      7,
      5,
      2,
      14,
      null,
    ]);
    assert.equal(await read("denied.log"), "/trailer\n/dead\n");
    // The filter does not look at the content type: /plain's 200 maps to UNKNOWN.
    assert.equal(await read("not_ok.log"), "/trailer\n/none\n/dead\n/plain\n");
  } finally {
    await p.close();
    await o.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("access log %GRPC_STATUS(F)% and grpc_status_filter: a bad format or status is an error with its path", () => {
  assert.throws(() => compileFormat("%GRPC_STATUS(LOUD)%", "f"), /f: %GRPC_STATUS\(LOUD\)%/);
  assert.throws(() => compileFormat("%GRPC_STATUS_NUMBER(X)%", "f"), /takes no argument/);
  const errors: Errors = [];
  parseAccessLogFilter({ grpc_status_filter: { statuses: ["OK", 17] } }, "a", errors);
  parseAccessLogFilter({ grpc_status_filter: { exclude: "yes" } }, "b", errors);
  assert.deepEqual(errors.map((e) => e.path), [
    "a.grpc_status_filter.statuses[1]",
    "b.grpc_status_filter.exclude",
  ]);
});
