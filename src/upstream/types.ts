/**
 * What the rest of the server (the admin interface above all) may see of the upstream side: hosts,
 * clusters and the cluster manager, as read-only views. `cluster_manager.ts`, `cluster.ts` and
 * `host.ts` implement them; tests build small fakes.
 *
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { Thresholds } from "../config/effective_cluster.ts";
import type { Counter, Gauge } from "../stats/types.ts";
import type { ADMIN_RESOURCES } from "../../spec/mod.ts";

/** A row of `admin.resources` that names a per-host statistic of `GET /clusters`. */
export type HostStatRow = Extract<
  (typeof ADMIN_RESOURCES)[number],
  { id: `admin.resources.host-stat.${string}` }
>;

/** The ID of each of the 13 per-host statistic rows. */
export type HostStatId = HostStatRow["id"];

/** Names of the per-host statistics whose row has type `Counter`. */
export type HostCounterName = Extract<HostStatRow, { type: "Counter" }>["name"];

/** Names of the per-host statistics whose row has type `Gauge`. */
export type HostGaugeName = Extract<HostStatRow, { type: "Gauge" }>["name"];

/** The per-host statistics that are counters and gauges, one per row of those types (the other
 * rows are host facts). */
export type HostStats =
  & { [K in HostCounterName]: Counter }
  & { [K in HostGaugeName]: Gauge };

/** Health flags of a host; all false means `healthy`. */
export interface HealthFlags {
  failed_active_hc: boolean;
  failed_eds_health: boolean;
  failed_outlier_check: boolean;
}

/** What `/clusters` shows of one host. */
export interface HostView {
  address: string;
  port: number;
  hostname: string;
  stats: HostStats;
  health: HealthFlags;
  weight: number;
  region: string;
  zone: string;
  sub_zone: string;
  canary: boolean;
  priority: number;
  /** 0..100, or -1 when the request volume in the interval is too low. */
  successRate(): number;
  /** The outlier detector's local-origin success rate, or -1 (absent: -1). */
  localOriginSuccessRate?(): number;
  /** Envoy's `DEGRADED_ACTIVE_HC` mark (absent: false). */
  degraded?(): boolean;
  /** Envoy's `EXCLUDED_VIA_IMMEDIATE_HC_FAIL` mark (absent: false). */
  excluded?(): boolean;
  /** Envoy's `DEGRADED_EDS_HEALTH`: discovery reported `DEGRADED` (absent: false). */
  degradedEdsHealth?: boolean;
}

/** Success-rate figures of outlier detection's last interval (-1: not computed). */
export interface OutlierFigures {
  successRateAverage: number;
  successRateEjectionThreshold: number;
  localOriginSuccessRateAverage: number;
  localOriginSuccessRateEjectionThreshold: number;
}

/** What the admin interface sees of one cluster. */
export interface ClusterView {
  name: string;
  /** `alt_stat_name` or `name`, with `:` turned into `_`. */
  statName: string;
  addedViaApi: boolean;
  /** The cluster as configured (proto3 JSON, as loaded). */
  config: JsonObject;
  thresholds: readonly Thresholds[];
  hosts(): readonly HostView[];
  /** Outlier detection figures; null (or absent) when detection is off. */
  outlierFigures?(): OutlierFigures | null;
  /**
   * For a cluster from CDS: the `version_info` of the update that added or last changed it and
   * when (RFC 3339), for `/config_dump` `dynamic_active_clusters`. Absent or null: static.
   */
  apiUpdate?: { version_info: string; last_updated: string } | null;
}

/** One ClusterLoadAssignment accepted from EDS, as `/config_dump?include_eds` shows it. */
export interface EndpointConfigView {
  version_info: string;
  /** The assignment with its `@type` (v3 type URL). */
  endpoint_config: JsonObject;
  /** RFC 3339 time of the update. */
  last_updated: string;
}

/** The cluster manager, as the admin interface sees it. */
export interface ClusterManagerView {
  /** The version of the last CDS update; `null` when CDS is not set up. */
  versionInfo(): string | null;
  clusters(): readonly ClusterView[];
  /** EDS assignments for `dynamic_endpoint_configs` (absent: none). */
  dynamicEndpointConfigs?(): readonly EndpointConfigView[];
  /** CDS clusters warming, not serving yet, for `dynamic_warming_clusters` (absent: none). */
  warmingClusters?(): readonly ClusterView[];
}
