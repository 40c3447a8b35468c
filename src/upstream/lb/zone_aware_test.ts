import assert from "node:assert/strict";
import { Host } from "../host.ts";
import { defaultLbOptions } from "./load_balancer.ts";
import { buildLoadBalancer } from "./compose.ts";
import { localityRouting, type ZoneAwareOptions } from "./zone_aware.ts";
import { Store } from "../../stats/store.ts";

function hostsIn(zones: Record<string, number>, from = 1): Host[] {
  let port = from;
  return Object.entries(zones).flatMap(([zone, n]) =>
    Array.from({ length: n }, () =>
      new Host({
        address: "127.0.0.1",
        port: port++,
        hostname: "",
        weight: 1,
        priority: 0,
        region: "",
        zone,
        sub_zone: "",
        metadata: {},
      }))
  );
}

function zoneOptions(local: Host[], store: Store, over: Partial<ZoneAwareOptions> = {}) {
  const s = store.scope("cluster.up");
  return {
    localHosts: () => local,
    local: { region: "", zone: "a", sub_zone: "" },
    routingEnabled: () => 100,
    minClusterSize: () => 6,
    stats: {
      clusterTooSmall: s.counter("lb_zone_cluster_too_small"),
      allDirectly: s.counter("lb_zone_routing_all_directly"),
      sampled: s.counter("lb_zone_routing_sampled"),
      crossZone: s.counter("lb_zone_routing_cross_zone"),
      noCapacityLeft: s.counter("lb_zone_no_capacity_left"),
      localClusterNotOk: s.counter("lb_local_cluster_not_ok"),
    },
    ...over,
  } satisfies ZoneAwareOptions;
}

function zonesOf(lb: { choose(c: object): Host | null }, n: number) {
  const out: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const z = lb.choose({})!.zone;
    out[z] = (out[z] ?? 0) + 1;
  }
  return out;
}

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config: Envoy's locality routing: direct when the local zone has the capacity, else a sampled share and the residual capacity", () => {
  assert.deepEqual(localityRouting([3333, 3333, 3333], [3333, 3333, 3333]), { kind: "direct" });
  // Envoy's load_balancer_impl_test "RoutingSmartSimple"-style figures: upstream 1/6, 3/6, 2/6;
  // local 2/4, 1/4, 1/4.
  assert.deepEqual(localityRouting([1666, 5000, 3333], [5000, 2500, 2500]), {
    kind: "residual",
    localPercentToRoute: 3332,
    residual: [0, 2500, 3333],
  });
});

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config: with equal shares every request stays in the local zone", () => {
  for (const policy of ["ROUND_ROBIN", "LEAST_REQUEST", "RANDOM"]) {
    const store = new Store();
    const up = hostsIn({ a: 2, b: 2, c: 2 });
    const local = hostsIn({ a: 1, b: 1, c: 1 }, 100);
    const lb = buildLoadBalancer(up, policy, defaultLbOptions(), {
      zoneAware: zoneOptions(local, store),
    });
    assert.deepEqual(zonesOf(lb, 60), { a: 60 }, policy);
    assert.equal(store.counter("cluster.up.lb_zone_routing_all_directly").value(), 60);
  }
});

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config: a local zone short of capacity keeps its share and spills the rest by residual capacity", () => {
  const store = new Store();
  const up = hostsIn({ a: 1, b: 3, c: 2 });
  const local = hostsIn({ a: 2, b: 1, c: 1 }, 100);
  let seq = 0;
  // A fixed sequence of draws: each request draws the routing_enabled share, then the sample.
  const draws = [0, 1000, 0, 3331, 0, 3332, 0, 9999];
  const lb = buildLoadBalancer(up, "ROUND_ROBIN", defaultLbOptions(), {
    zoneAware: zoneOptions(local, store, { random: () => draws[seq++ % draws.length] }),
  });
  assert.equal(lb.choose({})!.zone, "a", "1000 < 3332: sampled local");
  assert.equal(lb.choose({})!.zone, "a", "3331 < 3332: sampled local");
  assert.notEqual(lb.choose({})!.zone, "a", "3332: cross zone");
  assert.equal(store.counter("cluster.up.lb_zone_routing_sampled").value(), 2);
  assert.equal(store.counter("cluster.up.lb_zone_routing_cross_zone").value(), 1);
  // With random draws the shares follow: a 1/3, b 1/2, c 1/6.
  const free = buildLoadBalancer(up, "ROUND_ROBIN", defaultLbOptions(), {
    zoneAware: zoneOptions(local, new Store()),
  });
  const z = zonesOf(free, 6000);
  assert.ok(Math.abs(z.a / 6000 - 1 / 3) < 0.05, JSON.stringify(z));
  assert.ok(Math.abs(z.b / 6000 - 1 / 2) < 0.05, JSON.stringify(z));
  assert.ok(Math.abs(z.c / 6000 - 1 / 6) < 0.05, JSON.stringify(z));
});

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config.min-cluster-size: below min_cluster_size, or with routing_enabled 0, zones are not looked at", () => {
  const store = new Store();
  const local = hostsIn({ a: 1, b: 1, c: 1 }, 100);
  const small = buildLoadBalancer(hostsIn({ a: 2, b: 2 }), "ROUND_ROBIN", defaultLbOptions(), {
    zoneAware: zoneOptions(local, store),
  });
  assert.deepEqual(zonesOf(small, 40), { a: 20, b: 20 });
  assert.ok(store.counter("cluster.up.lb_zone_cluster_too_small").value() > 0);
  const off = buildLoadBalancer(hostsIn({ a: 2, b: 2, c: 2 }), "ROUND_ROBIN", defaultLbOptions(), {
    zoneAware: zoneOptions(local, new Store(), { routingEnabled: () => 0 }),
  });
  assert.deepEqual(zonesOf(off, 60), { a: 20, b: 20, c: 20 });
});

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config.routing-enabled: routing_enabled is the share of requests routed zone-aware", () => {
  const local = hostsIn({ a: 1, b: 1, c: 1 }, 100);
  let seq = 0;
  // Draws 0..99 in turn: those below 30 are routed zone-aware (all to a).
  const lb = buildLoadBalancer(hostsIn({ a: 2, b: 2, c: 2 }), "ROUND_ROBIN", defaultLbOptions(), {
    zoneAware: zoneOptions(local, new Store(), {
      routingEnabled: () => 30,
      random: () => seq++ % 100,
    }),
  });
  const z = zonesOf(lb, 100);
  // 30 zone-aware picks to a, 70 round-robin picks over all six hosts.
  assert.ok(z.a >= 30 + 20 && z.a <= 30 + 25, JSON.stringify(z));
});
