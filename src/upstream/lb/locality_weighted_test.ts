import assert from "node:assert/strict";
import { Host } from "../host.ts";
import { defaultLbOptions } from "./load_balancer.ts";
import { buildLoadBalancer } from "./compose.ts";
import { subsetConfig } from "./subset.ts";

function host(port: number, zone: string, localityWeight?: number, health_status?: string): Host {
  return new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight: 1,
    priority: 0,
    region: "r",
    zone,
    sub_zone: "",
    metadata: { version: port % 2 ? "odd" : "even" },
    ...(localityWeight === undefined ? {} : { localityWeight }),
    ...(health_status ? { health_status } : {}),
  });
}

function tally(choose: () => Host | null, n: number): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const z = choose()?.zone ?? "none";
    out.set(z, (out.get(z) ?? 0) + 1);
  }
  return out;
}

Deno.test("cluster.objects.common-lb-config.locality-weighted-lb-config: localities get traffic in proportion to their weights; one without a weight gets none", () => {
  for (const policy of ["ROUND_ROBIN", "LEAST_REQUEST", "RANDOM"]) {
    const hosts = [host(1, "a", 1), host(2, "b", 3), host(3, "b", 3), host(4, "c")];
    const lb = buildLoadBalancer(hosts, policy, defaultLbOptions(), { localityWeighted: true });
    const t = tally(() => lb.choose({}), 400);
    // The locality is drawn by an EDF schedule: exactly 1:3.
    assert.deepEqual([t.get("a"), t.get("b"), t.get("c")], [100, 300, undefined], policy);
  }
  // Without locality weighting, hosts share alike.
  const hosts = [host(1, "a", 1), host(2, "b", 3), host(3, "b", 3), host(4, "c")];
  const plain = buildLoadBalancer(hosts, "ROUND_ROBIN", defaultLbOptions(), {});
  const t = tally(() => plain.choose({}), 400);
  assert.deepEqual([t.get("a"), t.get("b"), t.get("c")], [100, 200, 100]);
});

Deno.test("cluster.objects.endpoint.locality-lb-endpoints.load-balancing-weight: a locality's weight shrinks with its availability (1.4 × healthy share)", () => {
  // Locality b: 1 of 2 hosts healthy → 3 × min(1, 1.4 × 0.5) = 2.1 against a's 1.
  const hosts = [host(1, "a", 1), host(2, "b", 3), host(3, "b", 3, "UNHEALTHY")];
  const lb = buildLoadBalancer(hosts, "ROUND_ROBIN", defaultLbOptions(), {
    localityWeighted: true,
  });
  const t = tally(() => lb.choose({}), 3100);
  assert.deepEqual([t.get("a"), t.get("b")], [1000, 2100]);
});

Deno.test("cluster.objects.common-lb-config.locality-weighted-lb-config: RING_HASH and MAGLEV give each locality its weight's share of the ring or table", () => {
  for (const policy of ["RING_HASH", "MAGLEV"]) {
    const hosts = [host(1, "a", 1), host(2, "b", 3), host(3, "b", 3), host(4, "c")];
    const lb = buildLoadBalancer(hosts, policy, defaultLbOptions(), { localityWeighted: true });
    const t = tally(() => lb.choose({}), 4000);
    assert.equal(t.get("c"), undefined, `${policy}: a weightless locality is left out`);
    const shareA = (t.get("a") ?? 0) / 4000;
    assert.ok(shareA > 0.2 && shareA < 0.3, `${policy}: locality a has ${shareA}, about 1/4`);
  }
});

Deno.test("cluster.objects.lb-subset-config.locality-weight-aware: subsets weigh localities only when asked; scale_locality_weight scales by the subset's share", () => {
  // Locality a: hosts 1, 2; locality b: hosts 3, 4, 5, 7; both weigh 1.
  const mk = () => [
    host(1, "a", 1),
    host(2, "a", 1),
    host(3, "b", 1),
    host(4, "b", 1),
    host(5, "b", 1),
    host(7, "b", 1),
  ];
  const sel = { subset_selectors: [{ keys: ["version"] }] };
  const odd = { metadataMatch: { version: "odd" } }; // hosts 1 (a), 3, 5 and 7 (b)
  const aware = buildLoadBalancer(mk(), "ROUND_ROBIN", defaultLbOptions(), {
    localityWeighted: true,
    subset: { config: subsetConfig({ ...sel, locality_weight_aware: true })!, stats: null },
  });
  const ta = tally(() => aware.choose(odd), 300);
  assert.deepEqual([ta.get("a"), ta.get("b")], [150, 150], "equal locality weights: 1:1");
  const unaware = buildLoadBalancer(mk(), "ROUND_ROBIN", defaultLbOptions(), {
    localityWeighted: true,
    subset: { config: subsetConfig(sel)!, stats: null },
  });
  const tu = tally(() => unaware.choose(odd), 300);
  assert.deepEqual([tu.get("a"), tu.get("b")], [75, 225], "hosts alike: 1:3");
  const scaled = buildLoadBalancer(mk(), "ROUND_ROBIN", defaultLbOptions(), {
    localityWeighted: true,
    subset: {
      config: subsetConfig({ ...sel, locality_weight_aware: true, scale_locality_weight: true })!,
      stats: null,
    },
  });
  // a: 1 × 1/2 of its hosts; b: 1 × 3/4 of its hosts: 2:3.
  const ts = tally(() => scaled.choose(odd), 300);
  assert.deepEqual([ts.get("a"), ts.get("b")], [120, 180]);
});
