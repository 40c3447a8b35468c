import assert from "node:assert/strict";
import { validateClusters } from "../../config/validate_cluster.ts";
import { checkClusterSupport } from "../cluster_manager.ts";
import { Cluster } from "../cluster.ts";
import { Store } from "../../stats/store.ts";

const member = {
  cluster_name: "x",
  endpoints: [{
    lb_endpoints: [{
      endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 80 } } },
    }],
  }],
};
const cluster = (name: string, extra: Record<string, unknown>) => ({
  name,
  connect_timeout: "1s",
  load_assignment: member,
  ...extra,
});

function check(clusters: unknown[]) {
  const v = validateClusters(clusters, { path: "static_resources.clusters", allowUnknown: false });
  return [...v.errors, ...checkClusterSupport(v.clusters)].map((e) => [e.path, e.rule]);
}

Deno.test("cluster.enums.lb-policy: RING_HASH and MAGLEV clusters load; their settings reach the balancer", () => {
  const v = validateClusters([
    cluster("r", {
      lb_policy: "RING_HASH",
      ring_hash_lb_config: { minimum_ring_size: 64, hash_function: "MURMUR_HASH_2" },
    }),
    cluster("m", { lb_policy: "MAGLEV" }),
  ], { path: "static_resources.clusters", allowUnknown: false });
  assert.deepEqual(v.errors, []);
  assert.deepEqual(checkClusterSupport(v.clusters), []);
  assert.deepEqual(v.clusters[0].ringHash, {
    minimumRingSize: 64,
    maximumRingSize: 8388608,
    hashFunction: "MURMUR_HASH_2",
  });
});

Deno.test("cluster.rules.ring-min-not-above-max: bad ring settings are load-time errors with their field path", () => {
  const p = "static_resources.clusters";
  assert.deepEqual(
    check([
      cluster("a", { lb_policy: "RING_HASH", ring_hash_lb_config: { maximum_ring_size: 8388609 } }),
      cluster("b", { lb_policy: "RING_HASH", ring_hash_lb_config: { minimum_ring_size: 8388609 } }),
      cluster("c", {
        lb_policy: "RING_HASH",
        ring_hash_lb_config: { minimum_ring_size: 2048, maximum_ring_size: 1024 },
      }),
      cluster("d", { lb_policy: "RING_HASH", ring_hash_lb_config: { hash_function: "CITY_HASH" } }),
      cluster("e", { lb_policy: "MAGLEV", ring_hash_lb_config: {} }),
      cluster("f", { least_request_lb_config: { choice_count: 3 } }),
      cluster("g", { lb_policy: "MAGLEV", maglev_lb_config: { table_size: 8 } }),
      cluster("h", { lb_policy: "MAGLEV", maglev_lb_config: { table_size: 5000012 } }),
      cluster("i", { lb_policy: "RANDOM", round_robin_lb_config: {} }),
      cluster("j", { lb_policy: "RING_HASH", maglev_lb_config: {} }),
      cluster("k", {
        lb_policy: "LEAST_REQUEST",
        least_request_lb_config: { active_request_bias: { default_value: 0.5 } },
      }),
      cluster("l", { lb_policy: "MAGLEV", maglev_lb_config: { table_size: 5000011 } }),
    ]),
    [
      [
        `${p}[0].ring_hash_lb_config.maximum_ring_size`,
        "cluster.objects.ring-hash-lb-config.maximum-ring-size",
      ],
      [
        `${p}[1].ring_hash_lb_config.minimum_ring_size`,
        "cluster.objects.ring-hash-lb-config.minimum-ring-size",
      ],
      [`${p}[2].ring_hash_lb_config.minimum_ring_size`, "cluster.rules.ring-min-not-above-max"],
      [`${p}[3].ring_hash_lb_config.hash_function`, "cluster.enums.hash-function"],
      [`${p}[4].ring_hash_lb_config`, "cluster.rules.ring-hash-config-requires-ring-hash"],
      [
        `${p}[5].least_request_lb_config`,
        "cluster.rules.least-request-config-requires-least-request",
      ],
      [`${p}[6].maglev_lb_config.table_size`, "cluster.rules.maglev-table-size-prime"],
      [`${p}[7].maglev_lb_config.table_size`, "cluster.objects.maglev-lb-config.table-size"],
      [`${p}[8].round_robin_lb_config`, "cluster.rules.round-robin-config-requires-round-robin"],
      [`${p}[9].maglev_lb_config`, "cluster.rules.maglev-config-requires-maglev"],
      [
        `${p}[10].least_request_lb_config.active_request_bias.runtime_key`,
        "cluster.objects.runtime-double.runtime-key",
      ],
    ],
  );
});

Deno.test("cluster.enums.lb-policy: a RING_HASH cluster reports its ring in cluster.<name>.ring_hash_lb.* gauges, as Envoy", () => {
  const v = validateClusters([
    cluster("r", { lb_policy: "RING_HASH", ring_hash_lb_config: { minimum_ring_size: 12 } }),
  ], { path: "static_resources.clusters", allowUnknown: false });
  const store = new Store();
  const c = new Cluster(v.clusters[0], store);
  assert.equal(store.gauge("cluster.r.ring_hash_lb.size").value(), 12);
  assert.equal(store.gauge("cluster.r.ring_hash_lb.min_hashes_per_host").value(), 12);
  assert.equal(store.gauge("cluster.r.ring_hash_lb.max_hashes_per_host").value(), 12);
  c.close();
});
