/**
 * The values of `outlier_detection` at the moment they are used: each one is the runtime value of
 * its Envoy key when the runtime has one (`outlier_detection.consecutive_5xx`,
 * `outlier_detection.interval_ms`, ...), else the configured value (defaults applied), so
 * `/runtime_modify` changes detection without a restart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OutlierConfig } from "./outlier_config.ts";
 * const c = new OutlierConfig({ consecutive_5xx: 3 }, { get: (k) => k === "outlier_detection.consecutive_5xx" ? "7" : undefined });
 * assert.equal(c.get("consecutive_5xx"), 7);
 * ```
 * @module
 */
import type { JsonObject } from "../../config/bootstrap_types.ts";
import { withDefaults } from "../../config/defaults.ts";
import { parseBool, parseDuration, parseUInt32 } from "../../config/values.ts";

/** The numeric settings of outlier detection (durations in milliseconds). */
export type OutlierSetting =
  | "consecutive_5xx"
  | "consecutive_gateway_failure"
  | "consecutive_local_origin_failure"
  | "interval"
  | "base_ejection_time"
  | "max_ejection_time"
  | "max_ejection_time_jitter"
  | "max_ejection_percent"
  | "enforcing_consecutive_5xx"
  | "enforcing_consecutive_gateway_failure"
  | "enforcing_consecutive_local_origin_failure"
  | "enforcing_success_rate"
  | "enforcing_local_origin_success_rate"
  | "enforcing_failure_percentage"
  | "enforcing_failure_percentage_local_origin"
  | "success_rate_minimum_hosts"
  | "success_rate_request_volume"
  | "success_rate_stdev_factor"
  | "failure_percentage_threshold"
  | "failure_percentage_minimum_hosts"
  | "failure_percentage_request_volume";

/**
 * Envoy's runtime key of each setting (`null`: not overridable at run time) and whether the
 * configured value is a Duration.
 */
export const OUTLIER_RUNTIME_KEYS: Readonly<
  Record<OutlierSetting, { key: string | null; duration?: true }>
> = {
  consecutive_5xx: { key: "outlier_detection.consecutive_5xx" },
  consecutive_gateway_failure: { key: "outlier_detection.consecutive_gateway_failure" },
  consecutive_local_origin_failure: { key: "outlier_detection.consecutive_local_origin_failure" },
  interval: { key: "outlier_detection.interval_ms", duration: true },
  base_ejection_time: { key: "outlier_detection.base_ejection_time_ms", duration: true },
  max_ejection_time: { key: "outlier_detection.max_ejection_time_ms", duration: true },
  max_ejection_time_jitter: { key: null, duration: true },
  max_ejection_percent: { key: "outlier_detection.max_ejection_percent" },
  enforcing_consecutive_5xx: { key: "outlier_detection.enforcing_consecutive_5xx" },
  enforcing_consecutive_gateway_failure: {
    key: "outlier_detection.enforcing_consecutive_gateway_failure",
  },
  enforcing_consecutive_local_origin_failure: {
    key: "outlier_detection.enforcing_consecutive_local_origin_failure",
  },
  enforcing_success_rate: { key: "outlier_detection.enforcing_success_rate" },
  enforcing_local_origin_success_rate: {
    key: "outlier_detection.enforcing_local_origin_success_rate",
  },
  enforcing_failure_percentage: { key: "outlier_detection.enforcing_failure_percentage" },
  enforcing_failure_percentage_local_origin: {
    key: "outlier_detection.enforcing_failure_percentage_local_origin",
  },
  success_rate_minimum_hosts: { key: "outlier_detection.success_rate_minimum_hosts" },
  success_rate_request_volume: { key: "outlier_detection.success_rate_request_volume" },
  success_rate_stdev_factor: { key: "outlier_detection.success_rate_stdev_factor" },
  failure_percentage_threshold: { key: "outlier_detection.failure_percentage_threshold" },
  failure_percentage_minimum_hosts: { key: "outlier_detection.failure_percentage_minimum_hosts" },
  failure_percentage_request_volume: {
    key: "outlier_detection.failure_percentage_request_volume",
  },
};

/** Envoy's default `max_ejection_time` (300 s). */
export const DEFAULT_MAX_EJECTION_TIME_MS = 300_000;

/** A runtime lookup. */
export interface RuntimeLookup {
  get(key: string): string | undefined;
}

/** Outlier detection settings with runtime overrides. */
export class OutlierConfig {
  readonly #values: Record<OutlierSetting, number>;
  /** `split_external_local_origin_errors`. */
  readonly splitExternalLocalOriginErrors: boolean;
  /** `successful_active_health_check_uneject_host` (default true). */
  readonly successfulActiveHealthCheckUnejectHost: boolean;

  /** Reads a validated `outlier_detection` object; `runtime` may override values. */
  constructor(od: JsonObject, readonly runtime: RuntimeLookup | null = null) {
    const o = withDefaults("cluster.OutlierDetection", od);
    const values = {} as Record<OutlierSetting, number>;
    for (
      const [k, spec] of Object.entries(OUTLIER_RUNTIME_KEYS) as [
        OutlierSetting,
        { duration?: true },
      ][]
    ) {
      const v = o[k];
      const p = spec.duration ? parseDuration(v) : parseUInt32(v);
      values[k] = p.ok ? p.value : 0;
    }
    const base = values.base_ejection_time;
    // Unset max_ejection_time: 300 s or base_ejection_time, whichever is larger.
    if (o.max_ejection_time === undefined || o.max_ejection_time === null) {
      values.max_ejection_time = Math.max(DEFAULT_MAX_EJECTION_TIME_MS, base);
    }
    this.#values = values;
    const split = parseBool(o.split_external_local_origin_errors);
    this.splitExternalLocalOriginErrors = split.ok && split.value;
    const un = parseBool(o.successful_active_health_check_uneject_host);
    this.successfulActiveHealthCheckUnejectHost = un.ok ? un.value : true;
  }

  /** The value of `s` now: the runtime's (a non-negative integer) or the configured one. */
  get(s: OutlierSetting): number {
    const key = OUTLIER_RUNTIME_KEYS[s].key;
    if (key && this.runtime) {
      const raw = this.runtime.get(key);
      if (raw !== undefined && /^\d+$/.test(raw.trim())) return Number(raw.trim());
    }
    return this.#values[s];
  }
}
