import assert from "node:assert/strict";
import { validateClusters } from "../../config/validate_cluster.ts";
import { checkClusterSupport } from "../cluster_manager.ts";

const member = (name: string) => ({
  name,
  connect_timeout: "1s",
  load_assignment: {
    cluster_name: name,
    endpoints: [{
      lb_endpoints: [{
        endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 80 } } },
      }],
    }],
  },
});
const agg = (name: string, clusters: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  connect_timeout: "1s",
  lb_policy: "CLUSTER_PROVIDED",
  cluster_type: {
    name: "envoy.clusters.aggregate",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig",
      clusters,
    },
  },
  ...extra,
});

function check(clusters: unknown[]) {
  const v = validateClusters(clusters, { path: "static_resources.clusters", allowUnknown: false });
  return [...v.errors, ...checkClusterSupport(v.clusters)].map((e) => [e.path, e.rule]);
}

const P = "static_resources.clusters";

Deno.test("cluster.rules.aggregate-config cluster.rules.custom-type-registered: an aggregate cluster over defined clusters loads (both spellings)", () => {
  assert.deepEqual(
    check([
      member("a"),
      member("b"),
      agg("x", ["a", "b"]),
      {
        ...agg("y", ["x"]),
        cluster_type: { ...agg("y", ["x"]).cluster_type, name: "proxy.clusters.aggregate" },
      },
    ]),
    [],
  );
});

Deno.test("cluster.rules.aggregate-known-clusters cluster.rules.aggregate-no-loop cluster.rules.aggregate-needs-cluster-provided: bad aggregates are load-time errors with their field path", () => {
  assert.deepEqual(
    check([
      member("a"),
      agg("x", ["a", "nope", "y"]),
      agg("y", ["x"]),
      agg("z", [], { lb_policy: "ROUND_ROBIN" }),
      agg("self", ["self"]),
    ]),
    [
      [`${P}[3].cluster_type.typed_config.clusters`, "cluster.rules.aggregate-config"],
      [`${P}[3].lb_policy`, "cluster.rules.aggregate-needs-cluster-provided"],
      [`${P}[1].cluster_type.typed_config.clusters[1]`, "cluster.rules.aggregate-known-clusters"],
      [`${P}[1].cluster_type.typed_config.clusters[2]`, "cluster.rules.aggregate-no-loop"],
      [`${P}[2].cluster_type.typed_config.clusters[0]`, "cluster.rules.aggregate-no-loop"],
      [`${P}[4].cluster_type.typed_config.clusters[0]`, "cluster.rules.aggregate-no-loop"],
    ],
  );
  // The built-in types still take no typed_config.
  const s = { ...member("s"), cluster_type: agg("s", []).cluster_type };
  s.cluster_type = { ...s.cluster_type, name: "envoy.cluster.static" };
  assert.deepEqual(check([s]), [[
    `${P}[0].cluster_type.typed_config`,
    "cluster.objects.custom-cluster-type.typed-config",
  ]]);
});

Deno.test("cluster.rules.aggregate-config: settings an aggregate cluster would not use (its own hosts, health checks, breakers, TLS) are refused with their paths", () => {
  const got = check([
    member("a"),
    agg("x", ["a"], {
      load_assignment: member("x").load_assignment,
      health_checks: [{ timeout: "1s", interval: "1s", tcp_health_check: {} }],
      circuit_breakers: { thresholds: [{ max_connections: 1 }] },
    }),
  ]);
  for (const f of ["load_assignment", "health_checks", "circuit_breakers"]) {
    assert.ok(
      got.some(([p, r]) => p === `${P}[1].${f}` && r === "cluster.rules.aggregate-config"),
      `${f}: ${JSON.stringify(got)}`,
    );
  }
});
