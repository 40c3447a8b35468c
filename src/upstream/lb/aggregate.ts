/**
 * The balancer of the aggregate cluster, as Envoy's `AggregateClusterLoadBalancer`: the priority
 * levels of the listed clusters, in list order (each cluster's levels in its own order), form the
 * aggregate's priority levels; the priority load over them (healthy hosts × overprovisioning
 * factor 1.4, degraded hosts, panic) decides, request by request, which cluster serves, so traffic
 * fails over from the first cluster to the next as the first one's hosts become unhealthy. The
 * chosen cluster then balances the request itself (its policy, connection pools, circuit
 * breakers and statistics). A listed cluster that does not exist (yet) is skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { AggregateBalancer } from "./aggregate.ts";
 * const agg = new AggregateBalancer<{ hosts(): [] }>(["a"], () => undefined, 50);
 * assert.equal(agg.chooseCluster(), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { computePriorityLoad, healthEpoch, type PriorityLoad } from "../priority_load.ts";

/** What the balancer reads of a listed cluster. */
export interface AggregateMember {
  hosts(): readonly Host[];
}

/** The levels and their load, and what they were computed from. */
interface Plan<C> {
  epoch: number;
  members: (C | undefined)[];
  hosts: (readonly Host[] | undefined)[];
  levels: { cluster: C; counts: [number, number, number] }[];
  load: PriorityLoad;
}

/** Chooses the listed cluster that serves a request. */
export class AggregateBalancer<C extends AggregateMember> {
  /** Kept until a host's health changes or a listed cluster or its host set is replaced. */
  #plan: Plan<C> | null = null;

  /**
   * Balances over the clusters named `targets`, found by `lookup`, with the aggregate cluster's
   * `healthy_panic_threshold`; `random` draws from [0, 1).
   */
  constructor(
    readonly targets: readonly string[],
    readonly lookup: (name: string) => C | undefined,
    readonly panicThreshold: number,
    readonly random: () => number = Math.random,
  ) {}

  /** The priority levels: per level, its cluster and `[hosts, healthy, degraded]` counts. */
  levels(): { cluster: C; counts: [number, number, number] }[] {
    const out: { cluster: C; counts: [number, number, number] }[] = [];
    for (const name of this.targets) {
      const c = this.lookup(name);
      if (!c) continue;
      const per: [number, number, number][] = [];
      for (const h of c.hosts()) {
        if (h.excluded()) continue;
        const p = Math.max(0, h.priority | 0);
        while (per.length <= p) per.push([0, 0, 0]);
        per[p][0]++;
        if (h.healthy()) per[p][h.degraded() ? 2 : 1]++;
      }
      for (const counts of per) if (counts[0] > 0) out.push({ cluster: c, counts });
    }
    return out;
  }

  /** The plan now: the cached one while nothing it was computed from changed. */
  #current(): Plan<C> {
    const epoch = healthEpoch();
    const members = this.targets.map((n) => this.lookup(n));
    const hosts = members.map((c) => c?.hosts());
    const p = this.#plan;
    if (
      p && p.epoch === epoch &&
      members.every((m, i) => m === p.members[i] && hosts[i] === p.hosts[i])
    ) return p;
    const levels = this.levels();
    const load = computePriorityLoad(levels.map((l) => l.counts), this.panicThreshold);
    return this.#plan = { epoch, members, hosts, levels, load };
  }

  /** The cluster of the priority level the load draws, or null when no listed cluster has hosts. */
  chooseCluster(): C | null {
    const { levels, load } = this.#current();
    if (levels.length === 0) return null;
    const x = this.random() * 100;
    let acc = 0;
    for (let p = 0; p < levels.length; p++) {
      acc += load.healthy[p] + load.degraded[p];
      if (x < acc) return levels[p].cluster;
    }
    const total = load.healthy.reduce((a, b) => a + b, 0) +
      load.degraded.reduce((a, b) => a + b, 0);
    return total > 0 ? levels[levels.length - 1].cluster : null;
  }
}
