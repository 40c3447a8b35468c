import assert from "node:assert/strict";
import { validateClusters } from "../../config/validate_cluster.ts";
import { Cluster } from "../cluster.ts";
import { Store } from "../../stats/store.ts";
import type { Host } from "../host.ts";
import { LeastRequestLoadBalancer } from "./least_request.ts";
import { defaultLbOptions } from "./load_balancer.ts";
import { policyOptions } from "./policy_options.ts";
import { testHosts } from "./test_hosts.ts";
import { slowStartWeight } from "./slow_start.ts";
import type { JsonObject } from "../../config/bootstrap_types.ts";

const endpoint = (port: number) => ({
  endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
});

function load(extra: Record<string, unknown>, ports = [81, 82]) {
  const v = validateClusters([{
    name: "c",
    connect_timeout: "1s",
    load_assignment: { cluster_name: "c", endpoints: [{ lb_endpoints: ports.map(endpoint) }] },
    ...extra,
  }], { path: "static_resources.clusters", allowUnknown: false });
  assert.deepEqual(v.errors, []);
  const store = new Store();
  return { cluster: new Cluster(v.clusters[0], store), store, effective: v.clusters[0] };
}

function count(pick: () => Host | null, n: number): Map<number, number> {
  const m = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const h = pick()!;
    m.set(h.port, (m.get(h.port) ?? 0) + 1);
  }
  return m;
}

Deno.test("cluster.objects.maglev-lb-config.table-size: the Maglev table has table_size slots", () => {
  const { cluster, store } = load({ lb_policy: "MAGLEV", maglev_lb_config: { table_size: 101 } }, [
    81,
  ]);
  assert.equal(store.gauge("cluster.c.maglev_lb.max_entries_per_host").value(), 101);
  cluster.close();
  const d = load({ lb_policy: "MAGLEV" }, [81]);
  assert.equal(d.store.gauge("cluster.c.maglev_lb.max_entries_per_host").value(), 65537);
  d.cluster.close();
});

Deno.test("cluster.objects.least-request-lb-config.active-request-bias: weight / (active + 1) ^ bias, runtime over default", () => {
  const hosts = () => {
    const hs = testHosts([81, 82], [2, 1]);
    hs[0].active = 9;
    return hs;
  };
  const cfg = (default_value: number) => ({
    least_request_lb_config: { active_request_bias: { default_value, runtime_key: "lr.bias" } },
  });
  const lr = (c: JsonObject, rt: Record<string, string> = {}) => {
    const o = defaultLbOptions(policyOptions(c, { get: (k) => rt[k] }));
    const lb = new LeastRequestLoadBalancer(hosts(), o);
    return count(() => lb.choose(), 1200);
  };
  // Bias 1: 2/10 against 1/1, the busy host gets a sixth.
  assert.equal(lr(cfg(1)).get(81), 200);
  // Bias 0: weighted round robin, 2 to 1.
  assert.equal(lr(cfg(0)).get(81), 800);
  // The runtime key overrides the default.
  assert.equal(lr(cfg(1), { "lr.bias": "0" }).get(81), 800);
  // A negative bias counts as 1.0.
  assert.equal(lr(cfg(-2)).get(81), 200);
});

function slowStartNewHost(policy: "ROUND_ROBIN" | "LEAST_REQUEST") {
  const ssc = { slow_start_window: "3600s", min_weight_percent: { value: 10 } };
  const field = policy === "ROUND_ROBIN" ? "round_robin_lb_config" : "least_request_lb_config";
  const { cluster, effective } = load({ lb_policy: policy, [field]: { slow_start_config: ssc } });
  // The hosts the cluster started with are not in slow start.
  const before = count(() => cluster.lb.choose({}), 200);
  assert.ok((before.get(81) ?? 0) > 50 && (before.get(82) ?? 0) > 50);
  cluster.updateHosts([...effective.hosts, { ...effective.hosts[0], port: 83 }]);
  const after = count(() => cluster.lb.choose({}), 2100);
  // Weights 1, 1 and 0.1: the new host gets about one pick in 21.
  assert.ok(Math.abs((after.get(83) ?? 0) - 100) <= 2, `${after.get(83)}`);
  assert.ok(Math.abs((after.get(81) ?? 0) - 1000) <= 2, `${after.get(81)}`);
  cluster.close();
}

Deno.test("cluster.objects.slow-start-config.min-weight-percent: ROUND_ROBIN: a host added to an initialized cluster starts at min_weight_percent of its weight", () => {
  slowStartNewHost("ROUND_ROBIN");
});

Deno.test("cluster.objects.slow-start-config.min-weight-percent: LEAST_REQUEST: a host added to an initialized cluster starts at min_weight_percent of its weight", () => {
  slowStartNewHost("LEAST_REQUEST");
});

Deno.test("cluster.objects.slow-start-config.aggression: weight * max(min_weight_percent, (elapsed / window) ^ (1 / aggression)), runtime over default", () => {
  let now = 0;
  const rt: Record<string, string> = {};
  const o = (aggression: number, min: number) =>
    policyOptions({
      round_robin_lb_config: {
        slow_start_config: {
          slow_start_window: "100s",
          aggression: { default_value: aggression, runtime_key: "ss.aggr" },
          min_weight_percent: { value: min },
        },
      },
    }, {
      get: (k) => rt[k],
    }, () => now).slowStart!;
  const [h] = testHosts([81], [10]);
  h.lastHcPassTime = 0;
  now = 25_000;
  assert.equal(slowStartWeight(h, 10, o(1, 0)), 2.5);
  assert.equal(slowStartWeight(h, 10, o(2, 0)), 5);
  assert.equal(slowStartWeight(h, 10, o(2, 60)), 6);
  rt["ss.aggr"] = "1";
  assert.equal(slowStartWeight(h, 10, o(2, 0)), 2.5);
  // Not above 0 at run time: 1.0.
  rt["ss.aggr"] = "-1";
  assert.equal(slowStartWeight(h, 10, o(2, 0)), 2.5);
  // Past the window, or unhealthy: the full weight.
  now = 100_000;
  assert.equal(slowStartWeight(h, 10, o(1, 0)), 10);
  now = 50_000;
  h.setFlag("failed_active_hc", true);
  assert.equal(slowStartWeight(h, 10, o(1, 0)), 10);
  // Never entered: the full weight.
  const [g] = testHosts([82], [10]);
  assert.equal(slowStartWeight(g, 10, o(1, 0)), 10);
});
