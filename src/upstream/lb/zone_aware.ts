/**
 * Zone-aware routing, as Envoy's `ZoneAwareLoadBalancerBase`: with a local cluster
 * (`cluster_manager.local_cluster_name`, the proxies of this service) and the proxy's own
 * locality (`node.locality`, its zone from `--service-zone`), requests prefer upstream hosts in
 * the proxy's locality as far as that locality's share of upstream hosts allows, and send the
 * rest to the other localities in proportion to their residual capacity. Percentages are
 * Envoy's: healthy hosts per locality in units of 1/10000. No zone routing (and the cluster's
 * `lb_policy` over all candidates) when the upstream has fewer healthy hosts than
 * `min_cluster_size` (`lb_zone_cluster_too_small`), fewer than two localities, no healthy host
 * in the local locality, a priority other than 0, panic, a local cluster in panic
 * (`lb_local_cluster_not_ok`), or for the share of requests above `routing_enabled`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localityRouting } from "./zone_aware.ts";
 * // Upstream: 50% of healthy hosts in the local zone; local cluster: 25% in it. All direct.
 * assert.deepEqual(localityRouting([5000, 5000], [2500, 7500]).kind, "direct");
 * // Upstream 10% local, local cluster 20%: half the requests stay, the rest cross by capacity.
 * const r = localityRouting([1000, 4500, 4500], [2000, 4000, 4000]);
 * assert.deepEqual(r, { kind: "residual", localPercentToRoute: 5000, residual: [0, 500, 1000] });
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import type { Counter } from "../../stats/types.ts";
import { computePriorityLoad, followDeliveredEpoch, healthEpoch } from "../priority_load.ts";
import { PerHostList } from "./host_list.ts";
import {
  candidateHosts,
  type LbContext,
  type LbOptions,
  type LoadBalancer,
} from "./load_balancer.ts";
import { localityKey } from "./locality_weighted.ts";

/** How requests are spread over localities (index 0: the local one). */
export type LocalityRouting =
  | { kind: "direct" }
  | { kind: "residual"; localPercentToRoute: number; residual: number[] };

/**
 * Envoy's `regenerateLocalityRoutingStructures` from the upstream and local percentages (units of
 * 1/10000) of each upstream locality, the local one first.
 */
export function localityRouting(
  upstream: readonly number[],
  local: readonly number[],
): LocalityRouting {
  if (upstream[0] >= local[0]) return { kind: "direct" };
  const residual = new Array<number>(upstream.length).fill(0);
  for (let i = 1; i < upstream.length; i++) {
    residual[i] = residual[i - 1] + (upstream[i] > local[i] ? upstream[i] - local[i] : 0);
  }
  return {
    kind: "residual",
    localPercentToRoute: Math.floor(upstream[0] * 10000 / local[0]),
    residual,
  };
}

/** The `lb_zone_*` and `lb_local_cluster_not_ok` counters. */
export interface ZoneStats {
  clusterTooSmall: Counter;
  allDirectly: Counter;
  sampled: Counter;
  crossZone: Counter;
  noCapacityLeft: Counter;
  localClusterNotOk: Counter;
}

/** What zone-aware routing needs besides the upstream hosts. */
export interface ZoneAwareOptions {
  /** The hosts of the local cluster (null while it does not exist). */
  localHosts: () => readonly Host[] | null;
  /** The proxy's own locality. */
  local: { region: string; zone: string; sub_zone: string };
  /** `routing_enabled` in percent (runtime `upstream.zone_routing.enabled` overrides it). */
  routingEnabled: () => number;
  /** `min_cluster_size` (runtime `upstream.zone_routing.min_cluster_size` overrides it). */
  minClusterSize: () => number;
  stats?: ZoneStats;
  /** Draws a uniform 64-bit-like integer (tests fix it); default `Math.random`. */
  random?: () => number;
}

interface State {
  epoch: number;
  localHosts: readonly Host[] | null;
  /** Null: no zone routing. */
  localities: LoadBalancer[] | null;
  routing: LocalityRouting | null;
}

/** Prefers the hosts of the proxy's own locality, as far as capacity allows. */
export class ZoneAwareLoadBalancer implements LoadBalancer {
  readonly #states = new PerHostList<{ s: State | null }>();
  readonly #all: LoadBalancer;
  readonly #localKey: string;
  readonly #rnd: () => number;

  /** `child` builds the `lb_policy` balancer of a host list. */
  constructor(
    readonly hosts: readonly Host[],
    readonly o: LbOptions,
    readonly child: (hosts: readonly Host[]) => LoadBalancer,
    readonly z: ZoneAwareOptions,
  ) {
    if (o.epoch) followDeliveredEpoch(hosts, o.epoch);
    this.#all = child(hosts);
    const l = z.local;
    this.#localKey = `${l.region}/${l.zone}/${l.sub_zone}`;
    this.#rnd = z.random ?? (() => Math.floor(Math.random() * 2 ** 32));
  }

  #state(cands: readonly Host[]): State {
    const box = this.#states.get(cands, () => ({ s: null }));
    const localHosts = this.z.localHosts();
    if (box.s && box.s.epoch === healthEpoch() && box.s.localHosts === localHosts) return box.s;
    box.s = { epoch: healthEpoch(), localHosts, ...this.#build(cands, localHosts) };
    return box.s;
  }

  #build(cands: readonly Host[], localHosts: readonly Host[] | null) {
    const none = { localities: null, routing: null };
    if (!localHosts || localHosts.length === 0) return none;
    const groups = new Map<string, Host[]>([[this.#localKey, []]]);
    for (const h of cands) {
      const k = localityKey(h);
      const g = groups.get(k);
      if (g) g.push(h);
      else groups.set(k, [h]);
    }
    if (groups.size < 2 || groups.get(this.#localKey)!.length === 0) return none;
    if (cands.length < this.z.minClusterSize()) {
      this.z.stats?.clusterTooSmall.inc();
      return none;
    }
    const localHealthy = new Map<string, number>();
    let localTotal = 0;
    for (const h of localHosts) {
      if (!h.healthy() || h.excluded() || h.priority !== 0) continue;
      localTotal++;
      localHealthy.set(localityKey(h), (localHealthy.get(localityKey(h)) ?? 0) + 1);
    }
    if (localTotal === 0) return none;
    const keys = [...groups.keys()];
    const upstream = keys.map((k) => Math.floor(10000 * groups.get(k)!.length / cands.length));
    const local = keys.map((k) => Math.floor(10000 * (localHealthy.get(k) ?? 0) / localTotal));
    return {
      localities: keys.map((k) => this.child(groups.get(k)!)),
      routing: localityRouting(upstream, local),
    };
  }

  /** A host of the locality zone-aware routing picks, or of all candidates. */
  choose(ctx: LbContext): Host | null {
    const cands = candidateHosts(this.hosts, this.o.panicThreshold);
    if (cands.length === 0) return null;
    if (cands[0].priority !== 0 || cands.some((h) => !h.healthy() || h.excluded())) {
      return this.#all.choose(ctx);
    }
    if (this.#rnd() % 100 >= this.z.routingEnabled()) return this.#all.choose(ctx);
    const localHosts = this.z.localHosts();
    if (localHosts && inPanic(localHosts, this.o.panicThreshold)) {
      this.z.stats?.localClusterNotOk.inc();
      return this.#all.choose(ctx);
    }
    const st = this.#state(cands);
    if (!st.localities || !st.routing) return this.#all.choose(ctx);
    return st.localities[this.#pick(st.routing, st.localities.length)].choose(ctx);
  }

  #pick(r: LocalityRouting, n: number): number {
    const s = this.z.stats;
    if (r.kind === "direct") {
      s?.allDirectly.inc();
      return 0;
    }
    if (this.#rnd() % 10000 < r.localPercentToRoute) {
      s?.sampled.inc();
      return 0;
    }
    s?.crossZone.inc();
    const last = r.residual[n - 1];
    if (last === 0) {
      s?.noCapacityLeft.inc();
      return this.#rnd() % n;
    }
    const threshold = this.#rnd() % last;
    let i = 0;
    // Bucket i holds [residual[i - 1], residual[i]) (the local locality, bucket 0, is empty).
    while (threshold >= r.residual[i]) i++;
    return i;
  }
}

/** True when the priority-0 hosts of `hosts` are in panic (too few healthy). */
function inPanic(hosts: readonly Host[], threshold: number): boolean {
  let total = 0;
  let ok = 0;
  for (const h of hosts) {
    if (h.priority !== 0 || h.excluded()) continue;
    total++;
    if (h.healthy()) ok++;
  }
  return computePriorityLoad([[total, ok, 0]], threshold).panic[0] ?? false;
}
