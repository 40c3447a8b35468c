/**
 * What the balancers read of a cluster's raw configuration beyond the effective cluster:
 * whether locality weighting is on, and the zone-aware routing settings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLocalityWeighted } from "./lb_support.ts";
 * assert.equal(isLocalityWeighted({ common_lb_config: { locality_weighted_lb_config: {} } }), true);
 * assert.equal(isLocalityWeighted({}), false);
 * ```
 * @module
 */
import type { JsonObject } from "../../config/bootstrap_types.ts";
import { valueOf } from "../../config/defaults.ts";
import type { Scope } from "../../stats/types.ts";
import type { Host } from "../host.ts";
import type { ZoneAwareOptions } from "./zone_aware.ts";

/** True when `common_lb_config.locality_weighted_lb_config` is set. */
export function isLocalityWeighted(config: JsonObject): boolean {
  const c = config.common_lb_config;
  if (c === null || typeof c !== "object" || Array.isArray(c)) return false;
  const lw = c.locality_weighted_lb_config;
  return lw !== undefined && lw !== null;
}

/** The local cluster and locality zone-aware routing compares against. */
export interface ZoneContext {
  /** The hosts of the cluster named by `cluster_manager.local_cluster_name`, when it exists. */
  localHosts: () => readonly Host[] | null;
  /** `node.locality` (its zone from `--service-zone`). */
  local: { region: string; zone: string; sub_zone: string };
}

const ZONE = "Cluster.CommonLbConfig.ZoneAwareLbConfig";

/**
 * The zone-aware routing settings of a cluster: `common_lb_config.zone_aware_lb_config` (or its
 * defaults: 100%, 6 hosts), each overridable at run time by Envoy's keys
 * `upstream.zone_routing.enabled` and `upstream.zone_routing.min_cluster_size`.
 */
export function zoneAwareOptions(
  config: JsonObject,
  zone: ZoneContext,
  scope: Scope,
  runtime?: { get(key: string): string | undefined },
): ZoneAwareOptions {
  const c = config.common_lb_config;
  const z = c && typeof c === "object" && !Array.isArray(c) ? c.zone_aware_lb_config : undefined;
  const zo = (z && typeof z === "object" && !Array.isArray(z) ? z : {}) as JsonObject;
  const enabled = valueOf(ZONE, zo, "routing_enabled") as number;
  const minSize = valueOf(ZONE, zo, "min_cluster_size") as number;
  const over = (key: string, dflt: number) => () => {
    const v = runtime?.get(key);
    const n = v === undefined ? NaN : Number(v);
    return Number.isFinite(n) && n >= 0 ? n : dflt;
  };
  return {
    localHosts: zone.localHosts,
    local: zone.local,
    routingEnabled: over("upstream.zone_routing.enabled", enabled),
    minClusterSize: over("upstream.zone_routing.min_cluster_size", minSize),
    stats: {
      clusterTooSmall: scope.counter("lb_zone_cluster_too_small"),
      allDirectly: scope.counter("lb_zone_routing_all_directly"),
      sampled: scope.counter("lb_zone_routing_sampled"),
      crossZone: scope.counter("lb_zone_routing_cross_zone"),
      noCapacityLeft: scope.counter("lb_zone_no_capacity_left"),
      localClusterNotOk: scope.counter("lb_local_cluster_not_ok"),
    },
  };
}
