/**
 * LEAST_REQUEST as Envoy does it. With equal weights: `choice_count` hosts drawn at random (with
 * replacement), and the one with the fewest active requests wins (power of N choices; ties keep
 * the earlier draw). With unequal weights: an earliest-deadline-first schedule in which a host's
 * weight is `weight / (active + 1) ^ active_request_bias`, taken when the host is (re)scheduled;
 * bias 0 makes it weighted round robin (Envoy reads a runtime bias when the host set changes;
 * a negative one counts as 1.0). Hosts in slow start make the schedule weighted as well, their
 * weight scaled by {@linkcode slowStartWeight}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeastRequestLoadBalancer } from "./least_request.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * assert.equal(new LeastRequestLoadBalancer([], defaultLbOptions()).choose(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { candidateHosts, type LbOptions, type LoadBalancer } from "./load_balancer.ts";
import { EdfScheduler } from "./edf_scheduler.ts";
import { equalWeights, PerHostList } from "./host_list.ts";
import { anyInSlowStart, slowStartWeight } from "./slow_start.ts";

/** Least-request balancing over the candidate hosts. */
export class LeastRequestLoadBalancer implements LoadBalancer {
  /** The weighted schedule of each candidate list (null: equal weights). */
  readonly #schedules = new PerHostList<EdfScheduler<Host> | null>();
  #bias: number;
  readonly #weight = (h: Host): number => {
    const bias = this.#bias;
    const w = bias === 0
      ? h.weight
      : bias === 1
      ? h.weight / (h.active + 1)
      : h.weight / Math.pow(h.active + 1, bias);
    const ss = this.o.slowStart;
    return ss && ss.windowMs > 0 ? slowStartWeight(h, w, ss) : w;
  };

  /** Balances over `hosts`; `rnd` draws from [0, 1). */
  constructor(
    readonly hosts: readonly Host[],
    readonly o: LbOptions,
    readonly rnd: () => number = Math.random,
  ) {
    this.#bias = o.activeRequestBias;
  }

  /** The least loaded of `choiceCount` random picks, or the next of the weighted schedule. */
  choose(): Host | null {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold);
    if (hs.length === 0) return null;
    const edf = this.#schedules.get(hs, (list) => {
      if (this.o.activeRequestBiasNow) this.#bias = this.o.activeRequestBiasNow();
      if (equalWeights(list) && !anyInSlowStart(list, this.o.slowStart)) return null;
      const s = new EdfScheduler<Host>();
      for (const h of list) s.add(this.#weight(h), h);
      return s;
    });
    if (edf !== null) return edf.pickAndAdd(this.#weight)!;
    let best: Host | null = null;
    for (let i = 0; i < this.o.choiceCount; i++) {
      const h = hs[Math.floor(this.rnd() * hs.length)];
      if (best === null || h.active < best.active) best = h;
    }
    return best;
  }
}
