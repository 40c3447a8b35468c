/**
 * Our control plane checked by an xDS client nobody here wrote: a `@grpc/grpc-js` channel to
 * `xds:///svc` through `@grpc/grpc-js-xds` subscribes over ADS to the Listener, then its
 * RouteConfiguration (RDS), Cluster and ClusterLoadAssignment, ACKs each, and reaches READY
 * against the gRPC server the endpoint names.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as grpcXds from "@grpc/grpc-js-xds";
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { startXdsServer } from "./xds_server.ts";

const T = "type.googleapis.com/";
const HCM = `${T}envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager`;

Deno.test({
  name:
    "xds-server: @grpc/grpc-js-xds receives the listener, routes, cluster and endpoints and ACKs them",
  // grpc-js-xds keeps its xDS client (timers, a channel) for the process's life.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const backend = new grpc.Server();
    const port = await new Promise<number>((resolve, reject) =>
      backend.bindAsync(
        "127.0.0.1:0",
        grpc.ServerCredentials.createInsecure(),
        (e, p) => e ? reject(e) : resolve(p),
      )
    );
    const dir = await Deno.makeTempDir();
    Deno.writeTextFileSync(
      join(dir, "all.yaml"),
      yaml.dump([
        {
          "@type": `${T}envoy.config.listener.v3.Listener`,
          name: "svc",
          api_listener: {
            api_listener: {
              "@type": HCM,
              stat_prefix: "svc",
              rds: { config_source: { ads: {} }, route_config_name: "svc_routes" },
              http_filters: [{
                name: "router",
                typed_config: { "@type": `${T}envoy.extensions.filters.http.router.v3.Router` },
              }],
            },
          },
        },
        {
          "@type": `${T}envoy.config.route.v3.RouteConfiguration`,
          name: "svc_routes",
          virtual_hosts: [{
            name: "vh",
            domains: ["svc"],
            routes: [{ match: { prefix: "" }, route: { cluster: "svc_cluster" } }],
          }],
        },
        {
          "@type": `${T}envoy.config.cluster.v3.Cluster`,
          name: "svc_cluster",
          type: "EDS",
          eds_cluster_config: { eds_config: { ads: {} } },
          lb_policy: "ROUND_ROBIN",
        },
        {
          "@type": `${T}envoy.config.endpoint.v3.ClusterLoadAssignment`,
          cluster_name: "svc_cluster",
          endpoints: [{
            locality: { region: "r" },
            load_balancing_weight: 1,
            lb_endpoints: [{
              endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
            }],
          }],
        },
      ]),
    );
    const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
    Deno.env.set(
      "GRPC_XDS_BOOTSTRAP_CONFIG",
      JSON.stringify({
        xds_servers: [{
          server_uri: `127.0.0.1:${cp.port}`,
          channel_creds: [{ type: "insecure" }],
          server_features: ["xds_v3"],
        }],
        node: { id: "grpc-js-xds-client", cluster: "c", locality: {} },
      }),
    );
    grpcXds.register();
    const client = new grpc.Client("xds:///svc", grpc.credentials.createInsecure());
    try {
      await new Promise<void>((resolve, reject) =>
        client.waitForReady(Date.now() + 20000, (e) => e ? reject(e) : resolve())
      );
      const acks = cp.replies.filter((r) => r.node === "grpc-js-xds-client" && !r.error)
        .map((r) => r.type_url.slice(r.type_url.lastIndexOf(".") + 1));
      for (const t of ["Listener", "RouteConfiguration", "Cluster", "ClusterLoadAssignment"]) {
        assert.ok(acks.includes(t), `no ACK for ${t}: ${acks}`);
      }
      assert.ok(cp.replies.every((r) => !r.error), JSON.stringify(cp.replies));
    } finally {
      client.close();
      await cp.close();
      backend.forceShutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
