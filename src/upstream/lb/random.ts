/**
 * RANDOM: a host chosen at random, weighted by host weight.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RandomLoadBalancer } from "./random.ts";
 * assert.equal(new RandomLoadBalancer([], { choiceCount: 2, panicThreshold: 50 }).choose(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";

/** Picks a weighted random host. */
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

/** Random balancing over healthy hosts. */
export class RandomLoadBalancer implements LoadBalancer {
  /** Balances over `hosts`. */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {}

  /** A random host. */
  choose(): Host | null {
    return weightedRandom(candidateHosts(this.hosts, this.o.panicThreshold));
  }
}
