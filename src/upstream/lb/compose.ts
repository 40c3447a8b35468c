/**
 * Builds a cluster's balancer from its settings: the `lb_policy` balancer, under locality
 * weighting when `common_lb_config.locality_weighted_lb_config` is set (RING_HASH and MAGLEV
 * weigh localities in their ring or table instead), under subset balancing
 * when `lb_subset_config` is set (its subsets weigh localities only with `locality_weight_aware`,
 * scaled by their share of each locality with `scale_locality_weight`); without locality
 * weighting, ROUND_ROBIN, LEAST_REQUEST and RANDOM route zone-aware when there is a local cluster.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildLoadBalancer } from "./compose.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * const lb = buildLoadBalancer([], "ROUND_ROBIN", defaultLbOptions(), {});
 * assert.equal(lb.choose({}), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { followDeliveredEpoch } from "../priority_load.ts";
import { createLoadBalancer, type LbOptions, type LoadBalancer } from "./load_balancer.ts";
import { hostsPerLocality, LocalityWeightedLoadBalancer } from "./locality_weighted.ts";
import { type SubsetConfig, SubsetLoadBalancer, type SubsetStats } from "./subset.ts";
import { ZoneAwareLoadBalancer, type ZoneAwareOptions } from "./zone_aware.ts";

/** The settings around the policy. */
export interface LbComposition {
  /** `locality_weighted_lb_config` is set. */
  localityWeighted?: boolean;
  subset?: { config: SubsetConfig; stats: SubsetStats | null } | null;
  /** Zone-aware routing against the local cluster (ROUND_ROBIN, LEAST_REQUEST, RANDOM). */
  zoneAware?: ZoneAwareOptions | null;
}

/** The balancer of `policy` over `hosts` with the settings of `c`. */
export function buildLoadBalancer(
  hosts: readonly Host[],
  policy: string,
  o: LbOptions,
  c: LbComposition,
): LoadBalancer {
  if (o.epoch) followDeliveredEpoch(hosts, o.epoch);
  const hashing = policy === "RING_HASH" || policy === "MAGLEV";
  const po = hashing && c.localityWeighted ? { ...o, localityWeighted: true } : o;
  const policyLb = (hs: readonly Host[]) => createLoadBalancer(policy, hs, po);
  const za = !hashing && !c.localityWeighted ? c.zoneAware : null;
  const plain = za
    ? (hs: readonly Host[]) => new ZoneAwareLoadBalancer(hs, o, policyLb, za)
    : policyLb;
  const lw = c.localityWeighted && !hashing;
  const sub = c.subset;
  if (!sub) return lw ? new LocalityWeightedLoadBalancer(hosts, o, policyLb) : plain(hosts);
  const scaleBy = sub.config.scaleLocalityWeight ? hostsPerLocality(hosts) : undefined;
  const child = lw && sub.config.localityWeightAware
    ? (hs: readonly Host[]) => new LocalityWeightedLoadBalancer(hs, o, policyLb, scaleBy)
    : plain;
  return new SubsetLoadBalancer(hosts, sub.config, child, sub.stats);
}
