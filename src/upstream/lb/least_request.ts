/**
 * LEAST_REQUEST: of `choice_count` hosts drawn at random, the one with the fewest active requests
 * (Envoy's power-of-N-choices for equal weights).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeastRequestLoadBalancer } from "./least_request.ts";
 * const lb = new LeastRequestLoadBalancer([], { choiceCount: 2, panicThreshold: 50 });
 * assert.equal(lb.choose(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";
import { weightedRandom } from "./random.ts";

/** Least-request balancing over healthy hosts. */
export class LeastRequestLoadBalancer implements LoadBalancer {
  /** Balances over `hosts`. */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {}

  /** The least loaded of `choiceCount` random picks. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    let best: Host | null = null;
    for (let i = 0; i < Math.max(1, this.o.choiceCount); i++) {
      const h = weightedRandom(hs);
      if (h && (!best || h.active < best.active)) best = h;
    }
    return best;
  }
}
