/**
 * Smooth weighted round robin: with equal weights consecutive requests alternate; with weights
 * 2:1 the order is a a b, spread evenly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RoundRobinLoadBalancer } from "./round_robin.ts";
 * const lb = new RoundRobinLoadBalancer([], { choiceCount: 2, panicThreshold: 50 });
 * assert.equal(lb.choose(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";

/** Weighted round robin over healthy hosts. */
export class RoundRobinLoadBalancer implements LoadBalancer {
  /** Balances over `hosts`. */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {}

  /** The next host. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    if (hs.length === 0) return null;
    if (hs.length === 1) return hs[0];
    let best: Host | null = null;
    let total = 0;
    for (const h of hs) {
      h.lbCurrent += h.weight;
      total += h.weight;
      if (!best || h.lbCurrent > best.lbCurrent) best = h;
    }
    best!.lbCurrent -= total;
    return best;
  }
}
