import assert from "node:assert/strict";
import fc from "fast-check";
import type { Host } from "../host.ts";
import {
  candidateHosts,
  createLoadBalancer,
  defaultLbOptions,
  LB_FACTORIES,
} from "./load_balancer.ts";
import { LeastRequestLoadBalancer } from "./least_request.ts";
import { lbPolicyError } from "./lb_policy_support.ts";
import { testHost as host } from "./test_hosts.ts";
import { CLUSTER_ENUMS } from "../../../spec/cluster/enums.ts";

const opts = defaultLbOptions();

function tally(pick: () => Host | null, n: number): Map<Host | null, number> {
  const counts = new Map<Host | null, number>();
  for (let i = 0; i < n; i++) {
    const h = pick();
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  return counts;
}

Deno.test("cluster.enums.lb-policy: every Cluster.LbPolicy row has a balancer or a refusal", () => {
  const row = CLUSTER_ENUMS.find((e) => e.name === "Cluster.LbPolicy")!;
  assert.deepEqual(Object.keys(LB_FACTORIES).sort(), row.values.map((v) => v.name).sort());
});

Deno.test("cluster.fields.lb-policy: ROUND_ROBIN gives each host exactly its weight in one cycle of the EDF schedule (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
      (weights) => {
        const hs = weights.map((w, i) => host(1000 + i, w));
        const lb = createLoadBalancer("ROUND_ROBIN", hs, opts);
        const total = weights.reduce((a, b) => a + b, 0);
        const counts = tally(() => lb.choose({}), total);
        hs.forEach((h, i) => assert.equal(counts.get(h) ?? 0, weights[i]));
      },
    ),
  );
});

Deno.test("cluster.fields.lb-policy: ROUND_ROBIN spreads a weighted cycle (EDF order) and rotates equal hosts from the seed", () => {
  const [a, b, c] = [host(1, 1), host(2, 2), host(3, 3)];
  const lb = createLoadBalancer("ROUND_ROBIN", [a, b, c], opts);
  // Deadlines 1/w: c 1/3, b 1/2, c 2/3, then a, b, c at 1 in insertion order.
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(() => lb.choose({})!.port), [3, 2, 3, 1, 2, 3]);
  const eq = [host(1), host(2), host(3)];
  const seeded = createLoadBalancer("ROUND_ROBIN", eq, defaultLbOptions({ seed: 4 }));
  assert.deepEqual([1, 2, 3, 4].map(() => seeded.choose({})!.port), [2, 3, 1, 2]);
});

Deno.test("cluster.fields.lb-policy: ROUND_ROBIN skips unhealthy hosts; all unhealthy enters panic and uses all", () => {
  const a = host(1);
  const b = host(2, 1, "UNHEALTHY");
  const c = host(3);
  assert.deepEqual(candidateHosts([a, b, c], 50), [a, c]);
  const lb = createLoadBalancer("ROUND_ROBIN", [a, b, c], opts);
  for (let i = 0; i < 6; i++) assert.notEqual(lb.choose({}), b);
  const x = host(4, 1, "UNHEALTHY");
  const y = host(5, 1, "DRAINING");
  assert.deepEqual(candidateHosts([x, y], 50), [x, y]);
});

// Property: over 20,000 picks each host's share is its weight share within 0.03 (absolute).
Deno.test("cluster.fields.lb-policy: RANDOM distributes by weight within 0.03 (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
      (weights) => {
        const hs = weights.map((w, i) => host(1000 + i, w));
        const lb = createLoadBalancer("RANDOM", hs, opts);
        const total = weights.reduce((a, b) => a + b, 0);
        const n = 20000;
        const counts = tally(() => lb.choose({}), n);
        hs.forEach((h, i) => {
          assert.ok(Math.abs((counts.get(h) ?? 0) / n - weights[i] / total) < 0.03);
        });
      },
    ),
    { numRuns: 30 },
  );
  assert.equal(createLoadBalancer("RANDOM", [], opts).choose({}), null);
});

// Property: idle hosts of unequal weights get exactly their weight per cycle (the EDF schedule);
// equal weights with N choices spread uniformly within 0.03 over 20,000 picks.
Deno.test("cluster.objects.least-request-lb-config.choice-count: LEAST_REQUEST distributes by weight (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 2, maxLength: 6 }),
      fc.integer({ min: 2, max: 5 }),
      (weights, choiceCount) => {
        const hs = weights.map((w, i) => host(1000 + i, w));
        const lb = createLoadBalancer("LEAST_REQUEST", hs, defaultLbOptions({ choiceCount }));
        const total = weights.reduce((a, b) => a + b, 0);
        const equal = weights.every((w) => w === weights[0]);
        const n = equal ? 20000 : total;
        const counts = tally(() => lb.choose({}), n);
        hs.forEach((h, i) => {
          const got = counts.get(h) ?? 0;
          if (equal) assert.ok(Math.abs(got / n - 1 / hs.length) < 0.03);
          else assert.equal(got, weights[i]);
        });
      },
    ),
    { numRuns: 30 },
  );
});

Deno.test("cluster.objects.least-request-lb-config.choice-count: LEAST_REQUEST compares choice_count random draws", () => {
  const hs = [host(1), host(2)];
  hs[0].active = 50;
  // Draws: index 0 then index 1; the idle host wins.
  const seq = [0.1, 0.9];
  let k = 0;
  const lr = new LeastRequestLoadBalancer(hs, opts, () => seq[k++ % 2]);
  assert.equal(lr.choose(), hs[1]);
  // One choice: whatever is drawn first.
  k = 0;
  const one = new LeastRequestLoadBalancer(
    hs,
    defaultLbOptions({ choiceCount: 1 }),
    () => seq[k++ % 2],
  );
  assert.equal(one.choose(), hs[0]);
  // Many choices: the busy host is almost never chosen.
  const many = createLoadBalancer("LEAST_REQUEST", hs, defaultLbOptions({ choiceCount: 10 }));
  const counts = tally(() => many.choose({}), 200);
  assert.ok((counts.get(hs[1]) ?? 0) >= 190);
});

Deno.test("cluster.objects.least-request-lb-config.choice-count: LEAST_REQUEST with unequal weights divides weight by (active + 1)^bias", () => {
  const mk = () => [host(1, 2), host(2, 1)];
  // Bias 1: the weight-2 host with 3 active requests weighs 0.5 and the idle one 1.
  const hs = mk();
  hs[0].active = 3;
  const biased = createLoadBalancer("LEAST_REQUEST", hs, opts);
  const c1 = tally(() => biased.choose({}), 300);
  assert.ok((c1.get(hs[1]) ?? 0) > (c1.get(hs[0]) ?? 0));
  // Bias 0: weights alone, as ROUND_ROBIN.
  const hs0 = mk();
  hs0[0].active = 3;
  const plain = createLoadBalancer(
    "LEAST_REQUEST",
    hs0,
    defaultLbOptions({ activeRequestBias: 0 }),
  );
  const c0 = tally(() => plain.choose({}), 300);
  assert.deepEqual([c0.get(hs0[0]), c0.get(hs0[1])], [200, 100]);
});

Deno.test("cluster.rules.cluster-provided-needs-provider: ORIGINAL_DST_LB and CLUSTER_PROVIDED need an ORIGINAL_DST cluster", () => {
  assert.throws(() => createLoadBalancer("ORIGINAL_DST_LB", [], opts), /ORIGINAL_DST cluster/);
  assert.match(
    lbPolicyError("CLUSTER_PROVIDED", "STATIC", "a") ?? "",
    /^cluster provided LB specified but cluster 'a' did not provide one/,
  );
  assert.equal(lbPolicyError("CLUSTER_PROVIDED", "ORIGINAL_DST", "a"), null);
  assert.equal(lbPolicyError("ORIGINAL_DST_LB", "ORIGINAL_DST", "a"), null);
  assert.equal(lbPolicyError("MAGLEV", "EDS", "a"), null);
  assert.match(lbPolicyError("NOPE", "STATIC", "a") ?? "", /lb_policy NOPE is not supported/);
});

Deno.test("limits.least-request-choice-count: balancer defaults come from the tables (choice_count 2, ring 1024..8M XX_HASH, panic 50%)", () => {
  const o = defaultLbOptions();
  assert.equal(o.choiceCount, 2);
  assert.equal(o.panicThreshold, 50);
  assert.deepEqual(o.ringHash, {
    minimumRingSize: 1024,
    maximumRingSize: 8388608,
    hashFunction: "XX_HASH",
  });
});
