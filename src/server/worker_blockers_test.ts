import assert from "node:assert/strict";
import { workerBlockers } from "./configuration_check.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";

/** A bootstrap with one HTTP listener whose connection manager is `hcm` (after a TCP one). */
function withHcm(hcm: Record<string, unknown>): Bootstrap {
  const tcp = {
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{ name: "envoy.filters.network.tcp_proxy", typed_config: { stat_prefix: "rds" } }],
    }],
  };
  const http = {
    name: "http",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type":
            "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
          stat_prefix: "rds",
          http_filters: [{ name: "envoy.filters.http.router" }],
          ...hcm,
        },
      }],
    }],
  };
  return { static_resources: { listeners: [tcp, http], clusters: [] } } as unknown as Bootstrap;
}

Deno.test("cli.options.concurrency: RDS runs with workers (the main thread subscribes and sends the routes)", () => {
  const rds = withHcm({
    rds: { route_config_name: "r", config_source: { path_config_source: { path: "/x.yaml" } } },
  });
  assert.deepEqual(workerBlockers(rds), []);
});

Deno.test("cli.options.concurrency: CDS and LDS run with workers (the main thread subscribes and tells every worker)", () => {
  const cds = { dynamic_resources: { cds_config: { path: "/x/cds.yaml" } } } as Bootstrap;
  assert.deepEqual(workerBlockers(cds), []);
  const lds = { dynamic_resources: { lds_config: { path: "/x/lds.yaml" } } } as Bootstrap;
  assert.deepEqual(workerBlockers(lds), []);
});

Deno.test("cli.options.concurrency: load reporting (LRS) runs with workers; every worker's counts are gathered before a report", () => {
  const lrs = {
    cluster_manager: {
      load_stats_config: {
        api_type: "GRPC",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
      },
    },
  } as unknown as Bootstrap;
  assert.deepEqual(workerBlockers(lrs), []);
});
