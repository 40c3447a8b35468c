import assert from "node:assert/strict";
import { edsSourceOf } from "./eds_source.ts";

Deno.test("cluster.objects.eds-cluster-config.service-name: service_name, else the cluster name, selects the assignment", () => {
  assert.deepEqual(
    edsSourceOf({ name: "a", edsClusterConfig: { edsConfig: { path: "/p" }, serviceName: "s" } }),
    { ok: true, path: "/p", serviceName: "s" },
  );
  assert.deepEqual(
    edsSourceOf({
      name: "a",
      eds_cluster_config: { eds_config: { path_config_source: { path: "/q" } } },
    }),
    { ok: true, path: "/q", serviceName: "a" },
  );
});

Deno.test("cluster.objects.eds-cluster-config.eds-config: ADS, gRPC and REST sources are read; REST without refresh_delay and self are refused with a reason", () => {
  const ads = edsSourceOf({ name: "a", eds_cluster_config: { eds_config: { ads: {} } } });
  assert.deepEqual(ads, {
    ok: true,
    path: "",
    serviceName: "a",
    spec: { kind: "ads", initialFetchTimeoutMs: 15000 },
  });
  const grpc = edsSourceOf({
    name: "a",
    eds_cluster_config: {
      service_name: "svc",
      eds_config: {
        initial_fetch_timeout: "2s",
        api_config_source: {
          api_type: "DELTA_GRPC",
          grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
        },
      },
    },
  });
  assert.deepEqual(grpc, {
    ok: true,
    path: "",
    serviceName: "svc",
    spec: {
      kind: "grpc",
      delta: true,
      service: { kind: "envoy_grpc", clusterName: "xds" },
      nodeFirstOnly: false,
      initialFetchTimeoutMs: 2000,
    },
  });
  const rest = edsSourceOf({
    name: "a",
    eds_cluster_config: {
      eds_config: { api_config_source: { api_type: "REST", cluster_names: ["x"] } },
    },
  });
  assert.ok(
    !rest.ok && rest.at === "eds_cluster_config.eds_config.api_config_source.refresh_delay",
  );
  const polled = edsSourceOf({
    name: "a",
    eds_cluster_config: {
      eds_config: {
        api_config_source: { api_type: "REST", cluster_names: ["x"], refresh_delay: "2s" },
      },
    },
  });
  assert.ok(polled.ok);
  assert.deepEqual(polled.spec, {
    kind: "rest",
    clusterName: "x",
    refreshDelayMs: 2000,
    requestTimeoutMs: 1000,
    initialFetchTimeoutMs: 15000,
  });
  const self = edsSourceOf({ name: "a", eds_cluster_config: { eds_config: { self: {} } } });
  assert.ok(!self.ok && self.at === "eds_cluster_config.eds_config.self");
  assert.ok(!self.ok && /not supported/.test(self.message));
  assert.equal(edsSourceOf({ name: "a", type: "EDS" }).ok, false);
});
