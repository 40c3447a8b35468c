/**
 * Load balancers at scale: the cost of one pick for every implemented policy at 10, 100, 1,000
 * and 10,000 hosts (equal weights, and weights 1..100), and the time to build a ring (default
 * `minimum_ring_size` 1024, both hash functions) and a Maglev table (65537 slots) over 10,000
 * hosts. Hashing policies get a random request hash per pick. A pick includes choosing the
 * candidate hosts (health, priorities, panic), which scans the host list; the lookup rows time a
 * built ring or table alone. Prints tables; no targets are asserted.
 *
 * Run: `deno task bench lb [picks]` (default 200000 picks per cell).
 *
 * @example
 * ```sh
 * deno run -A bench/lb_bench.ts 50000
 * ```
 * @module
 */
import { Host } from "../src/upstream/host.ts";
import {
  createLoadBalancer,
  defaultLbOptions,
  LB_FACTORIES,
  type LbContext,
} from "../src/upstream/lb/load_balancer.ts";
import { Ring } from "../src/upstream/lb/ring_hash.ts";
import { MaglevTable } from "../src/upstream/lb/maglev.ts";
import { randomHash } from "../src/upstream/lb/hash.ts";

function hosts(n: number, weighted: boolean): Host[] {
  return Array.from({ length: n }, (_, i) =>
    new Host({
      address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      port: 8080,
      hostname: "",
      weight: weighted ? 1 + (i * 37) % 100 : 1,
      priority: 0,
      region: "",
      zone: "",
      sub_zone: "",
      metadata: {},
    }));
}

function pickCost(policy: string, n: number, weighted: boolean, picks: number): number {
  const lb = createLoadBalancer(policy, hosts(n, weighted), defaultLbOptions());
  const hashes = Array.from({ length: 1024 }, () => randomHash());
  let i = 0;
  const ctx: LbContext = { computeHashKey: () => hashes[i++ & 1023] };
  lb.choose(ctx); // builds a ring or table once
  for (let k = 0; k < 20000; k++) lb.choose(ctx);
  const t0 = performance.now();
  for (let k = 0; k < picks; k++) lb.choose(ctx);
  return ((performance.now() - t0) * 1e6) / picks;
}

function buildTime(f: () => unknown): number {
  f();
  const t0 = performance.now();
  const runs = 3;
  for (let k = 0; k < runs; k++) f();
  return (performance.now() - t0) / runs;
}

function lookupCost(choose: (h: bigint) => unknown, picks: number): number {
  const hashes = Array.from({ length: 1024 }, () => randomHash());
  for (let k = 0; k < 20000; k++) choose(hashes[k & 1023]);
  const t0 = performance.now();
  for (let k = 0; k < picks; k++) choose(hashes[k & 1023]);
  return ((performance.now() - t0) * 1e6) / picks;
}

const basePicks = Number(Deno.args[0] ?? 200000);
/** Fewer picks for large host sets, whose picks cost more. */
const picksFor = (n: number) => Math.max(2000, Math.floor((basePicks * 10) / n));
// ORIGINAL_DST_LB and CLUSTER_PROVIDED choose the request's own destination: nothing to pick.
const provided = new Set(["ORIGINAL_DST_LB", "CLUSTER_PROVIDED"]);
const policies = Object.entries(LB_FACTORIES).filter(([p, f]) => f !== null && !provided.has(p))
  .map(([p]) => p);
const sizes = [10, 100, 1000, 10000];
console.log(
  `ns per pick (${basePicks} picks at 10 hosts, fewer above; equal weights / weights 1..100)`,
);
console.log(["policy".padEnd(14), ...sizes.map((s) => String(s).padStart(16))].join(""));
for (const p of policies) {
  const cells = sizes.map((n) => {
    const eq = pickCost(p, n, false, picksFor(n)).toFixed(0);
    const w = pickCost(p, n, true, picksFor(n)).toFixed(0);
    return `${eq} / ${w}`.padStart(16);
  });
  console.log([p.padEnd(14), ...cells].join(""));
}
console.log("\nns per lookup in a built ring / table (no candidate selection; equal weights)");
for (
  const [name, make] of [
    ["ring lookup", (n: number) => {
      const r = new Ring(hosts(n, false), defaultLbOptions().ringHash);
      return (h: bigint) => r.choose(h);
    }],
    ["maglev lookup", (n: number) => {
      const t = new MaglevTable(hosts(n, false), 65537);
      return (h: bigint) => t.choose(h);
    }],
  ] as const
) {
  const cells = sizes.map((n) => lookupCost(make(n), basePicks).toFixed(0).padStart(16));
  console.log([name.padEnd(14), ...cells].join(""));
}
const big = hosts(10000, false);
const bigW = hosts(10000, true);
const ring = defaultLbOptions().ringHash;
console.log("\nbuild time at 10,000 hosts (ms)");
for (
  const [name, f] of [
    ["ring XX_HASH, equal weights", () => new Ring(big, ring)],
    ["ring XX_HASH, weights 1..100", () => new Ring(bigW, ring)],
    ["ring MURMUR_HASH_2, equal", () => new Ring(big, { ...ring, hashFunction: "MURMUR_HASH_2" })],
    ["maglev 65537, equal weights", () => new MaglevTable(big, 65537)],
    ["maglev 65537, weights 1..100", () => new MaglevTable(bigW, 65537)],
  ] as const
) {
  const r = f();
  const size = r instanceof Ring ? r.hashes.length : (r as MaglevTable).table.length;
  console.log(`  ${name.padEnd(30)} ${buildTime(f).toFixed(1).padStart(8)} ms  (${size} entries)`);
}
