/**
 * `http2_protocol_options` SETTINGS of upstream HTTP/2 connections, observed by an h2c origin
 * over real sockets: the initial stream window, the HPACK table size and the connection window.
 */
import assert from "node:assert/strict";
import http2 from "node:http2";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { validateClusters } from "../config/validate_cluster.ts";

const routes: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "h2" } }],
  }],
};

function cluster(port: number, h2: JsonObject): JsonObject {
  return {
    name: "h2",
    connect_timeout: "1s",
    http2_protocol_options: h2,
    load_assignment: {
      cluster_name: "h2",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
  };
}

Deno.test("cluster http2_protocol_options: the SETTINGS and connection window reach the upstream", async () => {
  const seen: { settings?: http2.Settings; window?: number } = {};
  const server = http2.createServer();
  server.on("stream", (stream: http2.ServerHttp2Stream) => {
    const s = stream.session!;
    seen.settings = s.remoteSettings;
    seen.window = s.state.remoteWindowSize;
    stream.respond({ ":status": 200 });
    stream.end("h2 ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const p = await startTestProxy([httpListener(routes)], [
    effectiveCluster(cluster(port, {
      initial_stream_window_size: 1048576,
      initial_connection_window_size: { value: 4194304 },
      hpack_table_size: 8192,
    })),
  ]);
  try {
    const r = await fetch(`http://127.0.0.1:${p.port()}/`);
    assert.equal(await r.text(), "h2 ok");
    assert.equal(seen.settings?.initialWindowSize, 1048576);
    assert.equal(seen.settings?.headerTableSize, 8192);
    assert.ok((seen.window ?? 0) > 65535 * 2, `connection window ${seen.window}`);
  } finally {
    await p.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

Deno.test("cluster.rules.http2-window-sizes-in-range: window sizes outside 65535..2147483647 are refused with their path", () => {
  const { errors } = validateClusters([
    cluster(80, { initial_stream_window_size: 100, initial_connection_window_size: 2147483648 }),
  ], { path: "static_resources.clusters", allowUnknown: false });
  const mine = errors.filter((e) => e.rule === "cluster.rules.http2-window-sizes-in-range");
  assert.deepEqual(mine.map((e) => e.path).sort(), [
    "static_resources.clusters[0].http2_protocol_options.initial_connection_window_size",
    "static_resources.clusters[0].http2_protocol_options.initial_stream_window_size",
  ]);
});
