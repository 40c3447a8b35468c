/**
 * ROUND_ROBIN as Envoy does it: with equal weights each candidate in turn from a start offset;
 * with unequal weights an earliest-deadline-first schedule, so a host of weight 3 gets three
 * picks for every one of a host of weight 1, spread evenly. The start offset `seed` (Envoy draws
 * it at random per balancer) also advances the weighted schedule by `seed % hosts` picks. While a
 * host is in slow start the schedule is weighted too, with its weight scaled down
 * ({@linkcode slowStartWeight}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RoundRobinLoadBalancer } from "./round_robin.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * assert.equal(new RoundRobinLoadBalancer([], defaultLbOptions()).choose(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";
import { EdfScheduler } from "./edf_scheduler.ts";
import { equalWeights, PerHostList } from "./host_list.ts";
import { anyInSlowStart, slowStartWeight } from "./slow_start.ts";

/** The state of one candidate list: a weighted schedule, or the next index. */
interface RrState {
  edf: EdfScheduler<Host> | null;
  index: number;
}

/** Weighted round robin over the candidate hosts. */
export class RoundRobinLoadBalancer implements LoadBalancer {
  readonly #states = new PerHostList<RrState>();
  readonly #weight: (h: Host) => number;

  /** Balances over `hosts`. */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {
    const ss = o.slowStart;
    this.#weight = ss && ss.windowMs > 0
      ? (h) => slowStartWeight(h, h.weight, ss)
      : (h) => h.weight;
  }

  #build = (hs: readonly Host[]): RrState => {
    if (equalWeights(hs) && !anyInSlowStart(hs, this.o.slowStart)) {
      return { edf: null, index: this.o.seed };
    }
    const edf = new EdfScheduler<Host>();
    for (const h of hs) edf.add(this.#weight(h), h);
    for (let i = 0; i < this.o.seed % hs.length; i++) edf.pickAndAdd(this.#weight);
    return { edf, index: 0 };
  };

  /** The next host. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    if (hs.length === 0) return null;
    const st = this.#states.get(hs, this.#build);
    if (st.edf !== null) return st.edf.pickAndAdd(this.#weight)!;
    return hs[st.index++ % hs.length];
  }
}
