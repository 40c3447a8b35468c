/**
 * The contract between the running server and the admin interface: what an admin handler may
 * read and change. `src/server/server.ts` builds the real one; tests build small fakes.
 *
 * @module
 */
import type { Options } from "../cli/options.ts";
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import type { Counter, Gauge } from "../stats/types.ts";
import type { Store } from "../stats/store.ts";
import type { Feature } from "../../spec/rule.ts";

/** Server states (`envoy.admin.v3.ServerInfo.State` numbers: LIVE 0, DRAINING 1, PRE_INITIALIZING 2, INITIALIZING 3). */
export type ServerState = "LIVE" | "DRAINING" | "PRE_INITIALIZING" | "INITIALIZING";

/** The 8 per-host statistics that are counters and gauges (the other 5 are host facts). */
export interface HostStats {
  cx_total: Counter;
  cx_active: Gauge;
  cx_connect_fail: Counter;
  rq_total: Counter;
  rq_timeout: Counter;
  rq_success: Counter;
  rq_error: Counter;
  rq_active: Gauge;
}

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
}

/** Circuit-breaker thresholds of one priority. */
export interface Thresholds {
  priority: "DEFAULT" | "HIGH";
  max_connections: number;
  max_pending_requests: number;
  max_requests: number;
  max_retries: number;
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
}

/** `traffic_direction` of a listener. */
export type TrafficDirection = "UNSPECIFIED" | "INBOUND" | "OUTBOUND";

/** What the admin interface sees of one listener. */
export interface ListenerView {
  name: string;
  /** The bound address; with port 0 in the configuration, the port the OS chose. */
  address: string;
  port: number;
  direction: TrafficDirection;
  config: JsonObject;
  stopped: boolean;
}

/** The listener manager, as the admin interface sees it. */
export interface ListenerManagerView {
  listeners(): readonly ListenerView[];
  /** Stops listeners (all, or only INBOUND ones); with `graceful`, after the drain period. */
  drain(opts: { inboundOnly: boolean; graceful: boolean }): Promise<void>;
  /** Directions whose listeners were stopped: no listener of these may be added or changed. */
  stoppedDirections(): ReadonlySet<TrafficDirection | "ALL">;
  /** Reopens every access log file (`/reopen_logs`, SIGUSR1). */
  reopenAccessLogs(): void;
}

/** Runtime layers (`/runtime`, `/runtime_modify`). */
export interface RuntimeView {
  layerNames(): readonly string[];
  /** Every key with one value per layer (`""` = none) and the final value. */
  entries(): Map<string, { layer_values: string[]; final_value: string }>;
  get(key: string): string | undefined;
  /** Sets keys in the admin layer; an empty value deletes an admin override. */
  modify(pairs: ReadonlyArray<[string, string]>): void;
  hasAdminLayer(): boolean;
}

/** Loggers (`/logging`). */
export interface LoggingView {
  /** Logger name → level, in registry order. */
  loggers(): ReadonlyArray<[string, string]>;
  setAll(level: string): void;
  set(name: string, level: string): void;
  isLevel(level: string): boolean;
  reopen(): Promise<void>;
}

/** The init managers, as `/init_dump` sees them (`src/server/init_manager.ts` builds them). */
export interface InitView {
  /**
   * One `{name, target_names}` per init manager of `component` (every manager without one),
   * listing its unready targets; empty once start-up has finished.
   */
  dump(component?: string): ReadonlyArray<{ name: string; target_names: readonly string[] }>;
}

/** Everything an admin handler can reach. */
export interface ServerContext {
  options: Options;
  bootstrap: Bootstrap;
  /** The stats store (root scope). */
  stats: Store;
  state(): ServerState;
  /** `/healthcheck/fail` sets it; the HTTP health check filter fails every check while set. */
  healthCheckFailed: boolean;
  /** Optional features present in this process. */
  features: ReadonlySet<Feature>;
  startedAt: number;
  /** Start of the first epoch (hot restart); equals `startedAt` in epoch 0. */
  firstEpochStartedAt: number;
  clusters: ClusterManagerView;
  listeners: ListenerManagerView;
  runtime: RuntimeView;
  logging: LoggingView;
  /** The version string of `--version` and `/server_info`. */
  version: string;
  hotRestartVersion: string;
  /** Reopens the server log and every access log (`/reopen_logs`, SIGUSR1). */
  reopenLogs(): Promise<void>;
  /** Begins a clean shutdown; resolves when every listener is closed. */
  shutdown(): Promise<void>;
  /** The init managers (`/init_dump`); absent: nothing is waited for. */
  init?: InitView;
}
