/**
 * ROUND_ROBIN as Envoy does it: with equal weights each candidate in turn from a start offset;
 * with unequal weights an earliest-deadline-first schedule, so a host of weight 3 gets three
 * picks for every one of a host of weight 1, spread evenly. The offset (Envoy draws it at random
 * per balancer) also advances the weighted schedule by `seed % hosts` picks when it is built.
 *
 * @example
 * ```ts
 * import { RoundRobinLoadBalancer } from "./round_robin.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * console.log(new RoundRobinLoadBalancer([], defaultLbOptions()).choose()); // null
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";
import { EdfScheduler } from "./edf_scheduler.ts";
import { equalWeights, sameHosts } from "./host_list.ts";

const weightOf = (h: Host) => h.weight;

/** Weighted round robin over the candidate hosts. */
export class RoundRobinLoadBalancer implements LoadBalancer {
  #last: readonly Host[] | null = null;
  #edf: EdfScheduler<Host> | null = null;
  #index: number;

  /** Balances over `hosts`. */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {
    this.#index = o.seed;
  }

  /** The next host. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    if (hs.length === 0) return null;
    if (!sameHosts(this.#last, hs)) {
      this.#last = hs;
      this.#edf = null;
      this.#index = this.o.seed;
      if (!equalWeights(hs)) {
        const edf = new EdfScheduler<Host>();
        for (const h of hs) edf.add(h.weight, h);
        for (let i = 0; i < this.o.seed % hs.length; i++) edf.pickAndAdd(weightOf);
        this.#edf = edf;
      }
    }
    if (this.#edf !== null) return this.#edf.pickAndAdd(weightOf)!;
    return hs[this.#index++ % hs.length];
  }
}
