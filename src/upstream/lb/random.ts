/**
 * RANDOM: a candidate host drawn at random, in proportion to its weight.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RandomLoadBalancer } from "./random.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * assert.equal(new RandomLoadBalancer([], defaultLbOptions()).choose(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";
import { equalWeights, PerHostList } from "./host_list.ts";

/** Picks a host at random, weighted by host weight; `rnd` draws from [0, 1). */
export function weightedRandom(hs: readonly Host[], rnd: () => number = Math.random): Host | null {
  if (hs.length === 0) return null;
  let total = 0;
  for (const h of hs) total += h.weight;
  let r = rnd() * total;
  for (const h of hs) {
    r -= h.weight;
    if (r < 0) return h;
  }
  return hs[hs.length - 1];
}

/** Cumulative weights of a candidate list (null when all weigh the same). */
function prefixSums(hs: readonly Host[]): Float64Array | null {
  if (equalWeights(hs)) return null;
  const sums = new Float64Array(hs.length);
  let total = 0;
  for (let i = 0; i < hs.length; i++) sums[i] = total += hs[i].weight;
  return sums;
}

/** Random balancing over the candidate hosts: O(1) with equal weights, O(log n) otherwise. */
export class RandomLoadBalancer implements LoadBalancer {
  readonly #sums = new PerHostList<Float64Array | null>();

  /** Balances over `hosts`; `rnd` draws from [0, 1). */
  constructor(
    readonly hosts: readonly Host[],
    readonly o: LbOptions,
    readonly rnd: () => number = Math.random,
  ) {}

  /** A random host. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    if (hs.length === 0) return null;
    const sums = this.#sums.get(hs, prefixSums);
    if (sums === null) return hs[Math.floor(this.rnd() * hs.length)];
    const r = this.rnd() * sums[sums.length - 1];
    let lo = 0;
    let hi = sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r < sums[mid]) hi = mid;
      else lo = mid + 1;
    }
    return hs[lo];
  }
}
