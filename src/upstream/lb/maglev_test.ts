import assert from "node:assert/strict";
import fc from "fast-check";
import {
  createLoadBalancer,
  defaultLbOptions,
  MAGLEV_DEFAULT_TABLE_SIZE,
} from "./load_balancer.ts";
import { MaglevLoadBalancer, MaglevTable } from "./maglev.ts";
import { testHost, testHosts } from "./test_hosts.ts";
import { randomHash } from "./hash.ts";

const pick = (lb: MaglevLoadBalancer, h: bigint) => lb.choose({ computeHashKey: () => h });

// Vectors from Envoy's test/common/upstream/maglev_lb_test.cc (test names in each title).
Deno.test("cluster.enums.lb-policy: MAGLEV table of 7 equals Envoy's (MaglevLoadBalancerTest.Basic)", () => {
  const hs = testHosts([90, 91, 92, 93, 94, 95]);
  const gauges: Record<string, number> = {};
  const lb = new MaglevLoadBalancer(
    hs,
    defaultLbOptions({ maglevTableSize: 7, gauge: (n, v) => gauges[n] = v }),
  );
  const t = lb.table();
  assert.deepEqual([t.minEntriesPerHost, t.maxEntriesPerHost], [1, 2]);
  assert.deepEqual(gauges, {
    "maglev_lb.min_entries_per_host": 1,
    "maglev_lb.max_entries_per_host": 2,
  });
  const expected = [2, 4, 0, 1, 5, 0, 3];
  for (let i = 0; i < 3 * expected.length; i++) {
    assert.equal(pick(lb, BigInt(i)), hs[expected[i % expected.length]], `hash ${i}`);
  }
  // Hash 10 lands on slot 3 (MaglevLoadBalancerTest.BasicWithRetryHostPredicate).
  assert.equal(pick(lb, 10n), hs[1]);
});

Deno.test("cluster.enums.lb-policy: MAGLEV weighted table of 17 equals Envoy's (MaglevLoadBalancerTest.Weighted)", () => {
  const hs = testHosts([90, 91], [1, 2]);
  const lb = new MaglevLoadBalancer(hs, defaultLbOptions({ maglevTableSize: 17 }));
  const t = lb.table();
  assert.deepEqual([t.minEntriesPerHost, t.maxEntriesPerHost], [6, 11]);
  const expected = [1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1];
  for (let i = 0; i < 3 * expected.length; i++) {
    assert.equal(pick(lb, BigInt(i)), hs[expected[i % expected.length]], `hash ${i}`);
  }
});

Deno.test("cluster.enums.lb-policy: MAGLEV without hosts picks nothing; table size defaults to 65537 (MaglevLoadBalancerTest.NoHost, DefaultMaglevTableSize)", () => {
  assert.equal(MAGLEV_DEFAULT_TABLE_SIZE, 65537);
  assert.equal(createLoadBalancer("MAGLEV", [], defaultLbOptions()).choose({}), null);
  const hs = testHosts([1, 2]);
  const lb = new MaglevLoadBalancer(hs, defaultLbOptions());
  assert.equal(lb.table().table.length, 65537);
  assert.ok(hs.includes(lb.choose({})!));
});

// Property: with 65537 slots each host's share of the table is its weight share within 0.002,
// and so is its share of random request hashes within 0.03.
Deno.test("cluster.enums.lb-policy: MAGLEV table balance and distribution follow weights (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 8 }),
      (weights) => {
        const hs = weights.map((w, i) => testHost(4000 + i, w));
        const t = new MaglevTable(hs, MAGLEV_DEFAULT_TABLE_SIZE);
        const total = weights.reduce((a, b) => a + b, 0);
        const slots = new Map<unknown, number>();
        for (const h of t.table) slots.set(h, (slots.get(h) ?? 0) + 1);
        const hits = new Map<unknown, number>();
        const n = 10000;
        for (let i = 0; i < n; i++) {
          const h = t.choose(randomHash());
          hits.set(h, (hits.get(h) ?? 0) + 1);
        }
        hs.forEach((h, i) => {
          const want = weights[i] / total;
          assert.ok(Math.abs((slots.get(h) ?? 0) / t.size - want) < 0.002);
          assert.ok(Math.abs((hits.get(h) ?? 0) / n - want) < 0.03);
        });
      },
    ),
    { numRuns: 20 },
  );
});

Deno.test("cluster.enums.lb-policy: MAGLEV keeps most slots when one of N hosts goes", () => {
  const hs = testHosts(Array.from({ length: 10 }, (_, i) => 5000 + i));
  const a = new MaglevTable(hs, MAGLEV_DEFAULT_TABLE_SIZE);
  const b = new MaglevTable(hs.slice(1), MAGLEV_DEFAULT_TABLE_SIZE);
  let moved = 0;
  for (let i = 0; i < a.size; i++) if (a.table[i] !== b.table[i]) moved++;
  assert.ok(moved / a.size < 0.2, `moved ${moved / a.size}`);
});
