import assert from "node:assert/strict";
import fc from "fast-check";
import { defaultLbOptions, type RingHashOptions } from "./load_balancer.ts";
import { Ring, RingHashLoadBalancer } from "./ring_hash.ts";
import { testHost, testHosts, U64_MAX } from "./test_hosts.ts";
import { randomHash } from "./hash.ts";

const ring = (o: Partial<RingHashOptions>): RingHashOptions => ({
  ...defaultLbOptions().ringHash,
  ...o,
});
const pick = (lb: RingHashLoadBalancer, h: bigint) => lb.choose({ computeHashKey: () => h });

// Vectors from Envoy's test/common/upstream/ring_hash_lb_test.cc (test names in each title).
Deno.test("cluster.enums.lb-policy: RING_HASH picks as Envoy (RingHashLoadBalancerTest.Basic)", () => {
  const hs = testHosts([90, 91, 92, 93, 94, 95]);
  const gauges: Record<string, number> = {};
  const o = defaultLbOptions({
    ringHash: ring({ minimumRingSize: 12 }),
    gauge: (n, v) => gauges[n] = v,
  });
  const lb = new RingHashLoadBalancer(hs, o);
  const r = lb.ring();
  assert.equal(r.hashes.length, 12);
  assert.deepEqual(gauges, {
    "ring_hash_lb.size": 12,
    "ring_hash_lb.min_hashes_per_host": 2,
    "ring_hash_lb.max_hashes_per_host": 2,
  });
  assert.deepEqual([r.minHashesPerHost, r.maxHashesPerHost], [2, 2]);
  assert.equal(pick(lb, 0n), hs[4]);
  assert.equal(pick(lb, U64_MAX), hs[4]);
  assert.equal(pick(lb, 3551244743356806947n), hs[5]);
  assert.equal(pick(lb, 3551244743356806948n), hs[3]);
  assert.equal(pick(lb, 16117243373044804880n), hs[0]);
  // Every host unhealthy: panic mode builds the ring over all of them; the same pick.
  for (const h of hs) h.health.failed_active_hc = true;
  assert.equal(pick(lb, 0n), hs[4]);
});

Deno.test("cluster.objects.ring-hash-lb-config.hash-function: MURMUR_HASH_2 picks as Envoy (RingHashLoadBalancerTest.BasicWithMurmur2)", () => {
  const hs = testHosts([80, 81, 82, 83, 84, 85]);
  const o = defaultLbOptions({
    ringHash: ring({ minimumRingSize: 12, hashFunction: "MURMUR_HASH_2" }),
  });
  const lb = new RingHashLoadBalancer(hs, o);
  assert.equal(lb.ring().hashes.length, 12);
  assert.equal(pick(lb, 0n), hs[5]);
  assert.equal(pick(lb, U64_MAX), hs[5]);
  assert.equal(pick(lb, 1358027074129602068n), hs[5]);
  assert.equal(pick(lb, 1358027074129602069n), hs[3]);
  assert.equal(pick(lb, 10150910876324007730n), hs[2]);
});

Deno.test("cluster.objects.ring-hash-lb-config.minimum-ring-size: ring scaled up to whole hashes per host (RingHashLoadBalancerTest.UnevenHosts)", () => {
  const o = defaultLbOptions({ ringHash: ring({ minimumRingSize: 3 }) });
  const a = testHosts([80, 81]);
  const lb = new RingHashLoadBalancer(a, o);
  assert.equal(lb.ring().hashes.length, 4);
  assert.deepEqual([lb.ring().minHashesPerHost, lb.ring().maxHashesPerHost], [2, 2]);
  assert.equal(pick(lb, 0n), a[0]);
  const b = testHosts([81, 82]);
  assert.equal(pick(new RingHashLoadBalancer(b, o), 0n), b[0]);
});

Deno.test("cluster.objects.ring-hash-lb-config.maximum-ring-size: weights 1, 2, 3 on a ring of exactly 6 (RingHashLoadBalancerTest.HostWeightedTinyRing)", () => {
  const hs = testHosts([90, 91, 92], [1, 2, 3]);
  const o = defaultLbOptions({ ringHash: ring({ minimumRingSize: 6, maximumRingSize: 6 }) });
  const lb = new RingHashLoadBalancer(hs, o);
  assert.equal(lb.ring().hashes.length, 6);
  assert.deepEqual([lb.ring().minHashesPerHost, lb.ring().maxHashesPerHost], [1, 3]);
  const expected: [bigint, number][] = [
    [928266305478181108n, 2],
    [4443673547860492590n, 2],
    [5583722120771150861n, 1],
    [6311230543546372928n, 1],
    [13444792449719432967n, 2],
    [16117243373044804889n, 0],
  ];
  for (const [h, i] of expected) assert.equal(pick(lb, h), hs[i], `hash ${h}`);
});

Deno.test("cluster.enums.lb-policy: RING_HASH weighted counts equal Envoy's (RingHashLoadBalancerTest.HostWeightedLargeRing)", () => {
  const hs = testHosts([90, 91, 92], [1, 2, 3]);
  const lb = new RingHashLoadBalancer(
    hs,
    defaultLbOptions({ ringHash: ring({ minimumRingSize: 6144 }) }),
  );
  const r = lb.ring();
  assert.deepEqual([r.hashes.length, r.minHashesPerHost, r.maxHashesPerHost], [6144, 1024, 3072]);
  const counts = [0, 0, 0];
  for (let i = 0n; i < 6000n; i++) counts[pick(lb, i * (U64_MAX / 6000n))!.port - 90]++;
  assert.deepEqual(counts, [987, 1932, 3081]);
});

Deno.test("cluster.enums.lb-policy: RING_HASH without hosts picks nothing; without a request hash picks some host (RingHashLoadBalancerTest.NoHost)", () => {
  assert.equal(new RingHashLoadBalancer([], defaultLbOptions()).choose({}), null);
  const hs = testHosts([1, 2, 3]);
  const lb = new RingHashLoadBalancer(hs, defaultLbOptions());
  assert.ok(hs.includes(lb.choose({})!));
  assert.ok(hs.includes(lb.choose({ computeHashKey: () => undefined })!));
});

Deno.test("cluster.objects.ring-hash-lb-config.maximum-ring-size: the ring never exceeds maximum_ring_size", () => {
  const hs = testHosts([1, 2, 3], [1, 1, 100]);
  const r = new Ring(hs, ring({ minimumRingSize: 1024, maximumRingSize: 500 }));
  assert.equal(r.hashes.length, 500);
});

// Property: the share of random request hashes a host receives is its weight share within 0.04
// (absolute) on a ring of at least 8192 points.
Deno.test("cluster.enums.lb-policy: RING_HASH distributes by weight within 0.04 (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
      (weights) => {
        const hs = weights.map((w, i) => testHost(1000 + i, w));
        const lb = new RingHashLoadBalancer(
          hs,
          defaultLbOptions({ ringHash: ring({ minimumRingSize: 8192 }) }),
        );
        const total = weights.reduce((a, b) => a + b, 0);
        const counts = new Map<unknown, number>();
        const n = 20000;
        for (let i = 0; i < n; i++) {
          const h = pick(lb, randomHash());
          counts.set(h, (counts.get(h) ?? 0) + 1);
        }
        hs.forEach((h, i) => {
          const share = (counts.get(h) ?? 0) / n;
          assert.ok(
            Math.abs(share - weights[i] / total) < 0.04,
            `${share} vs ${weights[i] / total}`,
          );
        });
      },
    ),
    { numRuns: 25 },
  );
});

// Property: removing one of N equally weighted hosts moves the keys of that host (about 1/N) plus
// the keys that land on points the rebuilt ring adds for the others (each survivor gets
// ceil(1024 / (N - 1)) instead of ceil(1024 / N) points); at most 1/N + 0.15 of all keys move.
Deno.test("cluster.enums.lb-policy: RING_HASH moves about 1/N of keys when one of N hosts goes (property)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 3, max: 30 }), fc.nat(), (n, drop) => {
      const hs = testHosts(Array.from({ length: n }, (_, i) => 2000 + i));
      const gone = hs[drop % n];
      const before = new RingHashLoadBalancer(hs, defaultLbOptions());
      const after = new RingHashLoadBalancer(hs.filter((h) => h !== gone), defaultLbOptions());
      let moved = 0;
      let onGone = 0;
      const keys = 5000;
      for (let i = 0; i < keys; i++) {
        const k = randomHash();
        const a = pick(before, k);
        if (a === gone) onGone++;
        if (a !== pick(after, k)) moved++;
      }
      assert.ok(moved >= onGone, "every key of the removed host moves");
      assert.ok(moved / keys <= 1 / n + 0.15, `moved ${moved / keys} with n=${n}`);
    }),
    { numRuns: 20 },
  );
});

/** Envoy's Ketama search over BigInt points, as a reference for the 32-bit-halves search. */
function ketama(ring: BigUint64Array, h: bigint): number {
  let lowp = 0;
  let highp = ring.length;
  for (;;) {
    const midp = Math.trunc((lowp + highp) / 2);
    if (midp === ring.length) return 0;
    const midval = ring[midp];
    const midval1 = midp === 0 ? 0n : ring[midp - 1];
    if (h <= midval && h > midval1) return midp;
    if (midval < h) lowp = midp + 1;
    else highp = midp - 1;
    if (lowp > highp) return 0;
  }
}

Deno.test("cluster.enums.lb-policy: RING_HASH lookup equals Envoy's Ketama search for any hash (property)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.bigUintN(64), { minLength: 1, maxLength: 50 }),
      (n, extra) => {
        const r = new Ring(
          testHosts(Array.from({ length: n }, (_, i) => 100 + i)),
          ring({
            minimumRingSize: 3 * n,
          }),
        );
        const probes = [0n, 1n, U64_MAX, ...extra, ...Array.from(r.hashes.slice(0, 5))];
        for (const p of [...probes, ...probes.map((x) => (x + 1n) & U64_MAX)]) {
          assert.equal(r.choose(p), r.hosts[ketama(r.hashes, p)], `hash ${p}`);
        }
      },
    ),
    { numRuns: 100 },
  );
});
