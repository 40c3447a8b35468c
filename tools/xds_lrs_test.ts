/**
 * Load reporting (`cluster_manager.load_stats_config`) against `tools/xds_server.ts`: the
 * proxy streams reports for the clusters the server asks for, per locality, on its interval.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { ConfigLoadError } from "../src/config/errors.ts";
import { Store } from "../src/stats/store.ts";
import { ClusterManager } from "../src/upstream/cluster_manager.ts";
import { testCluster } from "../src/upstream/test_cluster.ts";
import { startXdsServer } from "./xds_server.ts";
import { body, origin, startTestProxy, until, xdsCluster } from "./xds_testing.ts";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
} from "../src/server/testing_proxy_process.ts";

/** A control plane serving load reporting only, asking for `cluster` every 100 ms. */
function lrsServer(dir: string, cluster: string) {
  return startXdsServer({
    dir,
    port: 0,
    watch: false,
    // A report it cannot read would otherwise only show as a timeout.
    log: (m) => {
      if (m.startsWith("malformed")) console.error(`control plane: ${m}`);
    },
    lrs: { clusters: [cluster], intervalMs: 100 },
  });
}

/** The sum of a locality field over every report received. */
function reported(reports: readonly JsonObject[], field: string): number {
  return reports.flatMap((r) => r.cluster_stats as JsonObject[])
    .flatMap((c) => c.upstream_locality_stats as JsonObject[])
    .reduce((n, l) => n + Number(l[field] ?? 0), 0);
}

Deno.test("ClusterManager.load_stats_config: load reports carry per-locality request counts for the clusters the server asks for, on its interval", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  const cp = await lrsServer(dir, "web");
  const proxy = await startTestProxy({
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    node: { id: "lrs-node", cluster: "edge" },
    cluster_manager: {
      load_stats_config: {
        api_type: "GRPC",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds_cluster" } }],
      },
    },
    static_resources: {
      clusters: [xdsCluster(cp.port), {
        name: "web",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "web",
          endpoints: [{
            locality: { region: "r1", zone: "z1" },
            lb_endpoints: [{
              endpoint: {
                address: { socket_address: { address: "127.0.0.1", port_value: a.addr.port } },
              },
            }],
          }],
        },
      }],
      listeners: [{
        name: "http",
        address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type": "type.googleapis.com/envoy.extensions.filters.network." +
                "http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "in",
              route_config: {
                virtual_hosts: [{
                  name: "all",
                  domains: ["*"],
                  routes: [{ match: { prefix: "/" }, route: { cluster: "web" } }],
                }],
              },
              http_filters: [{ name: "envoy.filters.http.router" }],
            },
          }],
        }],
      }],
    },
  });
  const sum = (field: string) => reported(cp.loadReports, field);
  try {
    for (let i = 0; i < 3; i++) {
      assert.equal(await body(`http://127.0.0.1:${proxy.portOf("http")}/`), "200 a");
    }
    await until(() => sum("total_successful_requests") === 3, "three requests reported");
    assert.equal(sum("total_issued_requests"), 3);
    assert.equal(sum("total_error_requests"), 0);
    const reported = cp.loadReports.flatMap((r) => r.cluster_stats as JsonObject[]);
    // Only the cluster the server asked for; the locality of its endpoints; the node.
    assert.deepEqual([...new Set(reported.map((c) => c.cluster_name))], ["web"]);
    const loc = (reported[0].upstream_locality_stats as JsonObject[])[0].locality;
    assert.deepEqual(loc, { region: "r1", zone: "z1" });
    assert.equal((cp.loadReports[0].node as JsonObject).id, "lrs-node");
    assert.match(String(reported[0].load_report_interval), /^\d+(\.\d+)?s$/);
    // Counts are per interval: later reports do not repeat them.
    const n = cp.loadReports.length;
    await until(() => cp.loadReports.length > n + 1, "later reports");
    assert.equal(sum("total_successful_requests"), 3);
  } finally {
    await proxy.close();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ClusterManager.load_stats_config: a source that is not one gRPC stream to a static cluster is refused with its path", () => {
  const refusal = (source: JsonObject) => {
    try {
      new ClusterManager([testCluster("cp", [["127.0.0.1", 1]])], {
        stats: new Store(),
        loadStats: source,
      });
    } catch (e) {
      assert.ok(e instanceof ConfigLoadError);
      return e.errors.map((x) => `${x.path}: ${x.message}`).join("\n");
    }
    assert.fail("accepted");
  };
  assert.match(
    refusal({ api_type: "REST", cluster_names: ["cp"], refresh_delay: "1s" }),
    /^cluster_manager\.load_stats_config\.api_type: load reporting needs api_type GRPC/,
  );
  assert.match(
    refusal({ api_type: "GRPC", grpc_services: [{ envoy_grpc: { cluster_name: "nope" } }] }),
    /load_stats_config\.grpc_services\[0\]\.envoy_grpc\.cluster_name: unknown static cluster/,
  );
});

Deno.test("ClusterManager.load_stats_config, cli.options.concurrency: with two workers, the reports add up every worker's requests, each counted once", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  const cp = await lrsServer(dir, "demo");
  const base = proxyBootstrap(a.addr.port);
  const sr = base.static_resources as { clusters: JsonObject[] };
  const bootstrap = {
    ...base,
    node: { id: "lrs-workers", cluster: "edge" },
    cluster_manager: {
      load_stats_config: {
        api_type: "GRPC",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds_cluster" } }],
      },
    },
    static_resources: { ...sr, clusters: [...sr.clusters, xdsCluster(cp.port)] },
  };
  const p = await startProxyProcess(bootstrap, ["--concurrency", "2"]);
  const sum = (field: string) => reported(cp.loadReports, field);
  try {
    const port = await listenerPort(p.admin);
    // Reports count from the baseline taken when the stream starts (every worker's counts then,
    // gathered by message); the first periodic report follows it, so no request precedes it.
    await until(() => cp.loadReports.length >= 1, "the first periodic report");
    // Fresh connections, so the kernel spreads them over both workers' sockets.
    const N = 24;
    for (let i = 0; i < N; i++) assert.equal(await requestOnce(port, "/"), 200);
    await until(() => sum("total_successful_requests") === N, `${N} requests reported`);
    const n = cp.loadReports.length;
    await until(() => cp.loadReports.length > n + 2, "later reports");
    assert.equal(sum("total_issued_requests"), N);
    assert.equal(sum("total_successful_requests"), N);
    assert.equal(sum("total_error_requests"), 0);
  } finally {
    await p.stop();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
