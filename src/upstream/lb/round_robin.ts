/**
 * ROUND_ROBIN as Envoy does it: with equal weights each candidate in turn from a start offset;
 * with unequal weights an earliest-deadline-first schedule, so a host of weight 3 gets three
 * picks for every one of a host of weight 1, spread evenly. The start offset `seed` (Envoy draws
 * it at random per balancer) also advances the weighted schedule by `seed % hosts` picks.
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

const weightOf = (h: Host) => h.weight;

/** The state of one candidate list: a weighted schedule, or the next index. */
interface RrState {
  edf: EdfScheduler<Host> | null;
  index: number;
}

/** Weighted round robin over the candidate hosts. */
export class RoundRobinLoadBalancer implements LoadBalancer {
  readonly #states = new PerHostList<RrState>();

  /** Balances over `hosts`. */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {}

  #build = (hs: readonly Host[]): RrState => {
    if (equalWeights(hs)) return { edf: null, index: this.o.seed };
    const edf = new EdfScheduler<Host>();
    for (const h of hs) edf.add(h.weight, h);
    for (let i = 0; i < this.o.seed % hs.length; i++) edf.pickAndAdd(weightOf);
    return { edf, index: 0 };
  };

  /** The next host. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    if (hs.length === 0) return null;
    const st = this.#states.get(hs, this.#build);
    if (st.edf !== null) return st.edf.pickAndAdd(weightOf)!;
    return hs[st.index++ % hs.length];
  }
}
