import assert from "node:assert/strict";
import { AggregateBalancer } from "./aggregate.ts";
import { testHost, testHosts } from "./test_hosts.ts";
import type { Host } from "../host.ts";

const member = (hs: Host[]) => ({ hosts: () => hs });

function shares(agg: AggregateBalancer<{ hosts(): Host[] }>, names: Map<unknown, string>) {
  const out = new Map<string, number>();
  for (let i = 0; i < 100; i++) {
    const c = agg.chooseCluster();
    const n = c === null ? "none" : names.get(c)!;
    out.set(n, (out.get(n) ?? 0) + 1);
  }
  return out;
}

Deno.test("cluster.rules.aggregate-config: the listed clusters are priority levels in order; load spills over by health with overprovisioning 1.4", () => {
  const primary = member(testHosts([81, 82]));
  const secondary = member(testHosts([91]));
  const byName: Record<string, { hosts(): Host[] }> = { primary, secondary };
  const names = new Map<unknown, string>([[primary, "primary"], [secondary, "secondary"]]);
  // A deterministic draw: 0.00, 0.01, ... 0.99.
  let k = 0;
  const agg = new AggregateBalancer(
    ["primary", "missing", "secondary"],
    (n) => byName[n],
    50,
    () => (k++ % 100) / 100,
  );
  assert.deepEqual([...shares(agg, names)], [["primary", 100]]);
  // One of two primary hosts unhealthy: 70% stay, 30% go to the secondary.
  primary.hosts()[0].setFlag("failed_eds_health", true);
  assert.deepEqual([...shares(agg, names)], [["primary", 70], ["secondary", 30]]);
  // Both unhealthy: everything fails over.
  primary.hosts()[1].setFlag("failed_eds_health", true);
  assert.deepEqual([...shares(agg, names)], [["secondary", 100]]);
});

Deno.test("cluster.rules.aggregate-config: a member's priorities are levels of their own; no member with hosts chooses none", () => {
  const p1 = testHost(81);
  const p2 = testHost(82);
  p2.priority = 1;
  const a = member([p1, p2]);
  const b = member([testHost(91)]);
  const names = new Map<unknown, string>([[a, "a"], [b, "b"]]);
  let k = 0;
  const agg = new AggregateBalancer(
    ["a", "b"],
    (n) => (n === "a" ? a : b),
    50,
    () => (k++ % 100) / 100,
  );
  assert.equal(agg.levels().length, 3);
  p1.setFlag("failed_eds_health", true);
  // Level 0 down: its load goes to the next level, a's priority 1, before b.
  assert.deepEqual([...shares(agg, names)], [["a", 100]]);
  const none = new AggregateBalancer(["x"], () => undefined, 50);
  assert.equal(none.chooseCluster(), null);
});
