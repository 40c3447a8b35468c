/**
 * Locality-weighted balancing (`common_lb_config.locality_weighted_lb_config`), as Envoy's
 * `HostSetImpl::chooseHealthyLocality`: after the priority level is drawn, a locality of it is
 * picked by an EDF schedule over effective weights, `load_balancing_weight` of the locality ×
 * min(1, 1.4 × its available hosts / its hosts) (a locality without a weight gets nothing), then
 * the cluster's `lb_policy` balances over that locality's available hosts. In panic, and when no
 * locality has an effective weight, localities are not looked at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { effectiveLocalityWeight } from "./locality_weighted.ts";
 * assert.equal(effectiveLocalityWeight(10, 1, 2), 7); // half available: 1.4 × 0.5 = 70%
 * assert.equal(effectiveLocalityWeight(10, 4, 4), 10);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { followDeliveredEpoch, OVERPROVISIONING_FACTOR } from "../priority_load.ts";
import { EdfScheduler } from "./edf_scheduler.ts";
import { PerHostList } from "./host_list.ts";
import {
  candidateHosts,
  type LbContext,
  type LbOptions,
  type LoadBalancer,
} from "./load_balancer.ts";

/** The number of hosts per locality (for `scale_locality_weight`). */
export function hostsPerLocality(hosts: readonly Host[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const h of hosts) out.set(localityKey(h), (out.get(localityKey(h)) ?? 0) + 1);
  return out;
}

/** `region/zone/sub_zone` of a host. */
export function localityKey(h: Host): string {
  return `${h.region}/${h.zone}/${h.sub_zone}`;
}

/** Envoy's effective locality weight: `weight × min(1, factor × available / total)`. */
export function effectiveLocalityWeight(weight: number, available: number, total: number): number {
  if (total === 0) return 0;
  return weight * Math.min(1, (OVERPROVISIONING_FACTOR / 100) * available / total);
}

interface Locality {
  weight: number;
  lb: LoadBalancer;
}

interface State {
  edf: EdfScheduler<Locality> | null;
}

/** Balances over the localities of the drawn priority, by locality weight. */
export class LocalityWeightedLoadBalancer implements LoadBalancer {
  readonly #states = new PerHostList<State>();
  readonly #all: LoadBalancer;

  /**
   * `child` builds the `lb_policy` balancer of a host list. With `scaleBy` (a subset's balancer
   * under `scale_locality_weight`: the cluster's host count per locality), each locality weight
   * is scaled by the share of the locality's hosts that are in `hosts`.
   */
  constructor(
    readonly hosts: readonly Host[],
    readonly o: LbOptions,
    readonly child: (hosts: readonly Host[]) => LoadBalancer,
    readonly scaleBy?: ReadonlyMap<string, number>,
  ) {
    if (o.epoch) followDeliveredEpoch(hosts, o.epoch);
    this.#all = child(hosts);
  }

  #build = (cands: readonly Host[]): State => {
    // Panic (some candidate is not available): localities are not looked at.
    if (cands.some((h) => !h.healthy() || h.excluded())) return { edf: null };
    const priority = cands[0].priority;
    const totals = new Map<string, number>();
    for (const h of this.hosts) {
      if (h.priority !== priority || h.excluded()) continue;
      const k = localityKey(h);
      totals.set(k, (totals.get(k) ?? 0) + 1);
    }
    const groups = new Map<string, Host[]>();
    for (const h of cands) {
      const k = localityKey(h);
      const g = groups.get(k);
      if (g) g.push(h);
      else groups.set(k, [h]);
    }
    const edf = new EdfScheduler<Locality>();
    for (const [k, g] of groups) {
      const total = totals.get(k) ?? 0;
      const scale = this.scaleBy ? total / (this.scaleBy.get(k) ?? total) : 1;
      const weight = effectiveLocalityWeight(g[0].localityWeight * scale, g.length, total);
      if (weight > 0) edf.add(weight, { weight, lb: this.child(g) });
    }
    return { edf: edf.size > 0 ? edf : null };
  };

  /** A host of a locality drawn by weight. */
  choose(ctx: LbContext): Host | null {
    const cands = candidateHosts(this.hosts, this.o.panicThreshold);
    if (cands.length === 0) return null;
    const st = this.#states.get(cands, this.#build);
    if (st.edf === null) return this.#all.choose(ctx);
    return st.edf.pickAndAdd((l) => l.weight)!.lb.choose(ctx);
  }
}
