/**
 * One upstream host: its facts for `/clusters`, its statistics, its health flags, its active
 * request count (for load balancing) and a success-rate window.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Host } from "./host.ts";
 * const h = new Host({
 *   address: "127.0.0.1", port: 8080, hostname: "", weight: 1, priority: 0,
 *   region: "", zone: "", sub_zone: "", metadata: {},
 * });
 * assert.equal(h.successRate(), -1); // not enough requests yet
 * ```
 * @module
 */
import type { EffectiveHost } from "../config/effective_cluster.ts";
import type { HealthFlags, HostStats, HostView } from "./types.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { newHostStats } from "./host_stats.ts";
import { fieldRow } from "../config/nested_schema.ts";
import { parseDuration } from "../config/values.ts";
import { bumpHealthEpoch } from "./priority_load.ts";

const outlierDefault = (field: string) => fieldRow("cluster.OutlierDetection", field).default;
const interval = parseDuration(outlierDefault("interval"));
if (!interval.ok) throw new Error(`cluster.OutlierDetection.interval default: ${interval.error}`);

/** Success-rate interval: the outlier detection `interval` default of the spec table (10 s). */
export const SUCCESS_RATE_INTERVAL_MS: number = interval.value;
/**
 * Requests needed in an interval before a success rate is reported: the table's
 * `success_rate_request_volume` default (100).
 */
export const SUCCESS_RATE_MIN_VOLUME: number = Number(
  outlierDefault("success_rate_request_volume"),
);

/**
 * `address:port`, with an IPv6 address in brackets, as `/clusters` and access logs print it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostPort } from "./host.ts";
 * assert.equal(hostPort("::1", 80), "[::1]:80");
 * ```
 */
export function hostPort(address: string, port: number): string {
  return address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`;
}

/** An upstream host. */
export class Host implements HostView {
  readonly address: string;
  readonly port: number;
  hostname!: string;
  weight!: number;
  region!: string;
  zone!: string;
  sub_zone!: string;
  canary!: boolean;
  priority!: number;
  metadata!: JsonObject;
  /** The `load_balancing_weight` of the host's locality; 0 when unset. */
  localityWeight!: number;
  readonly stats: HostStats = newHostStats();
  readonly health: HealthFlags;
  /** `address:port` (IPv6 in brackets), as `/clusters` prints it. */
  readonly key: string;
  /** Requests in flight (least-request balancing reads it). */
  active = 0;
  /**
   * Envoy's `last_hc_pass_time` (`performance.now()` milliseconds): when the host joined an
   * initialized cluster or last passed active health checking after failing; slow start counts
   * from it. Null: never (the host does not slow-start).
   */
  lastHcPassTime: number | null = null;
  /** Scratch value of the smooth weighted round-robin balancer. */
  lbCurrent = 0;
  /** Envoy's `DEGRADED_ACTIVE_HC`: the last check answered with `x-envoy-degraded`. */
  degradedActiveHc = false;
  /** Envoy's `DEGRADED_EDS_HEALTH`: discovery reported the host as `DEGRADED`. */
  degradedEdsHealth = false;
  /** Envoy's `EXCLUDED_VIA_IMMEDIATE_HC_FAIL`: out of load balancing until a check passes. */
  excludedViaImmediateHcFail = false;
  #pending = false;
  /** Open TCP proxy connections to this host (`close_connections_on_host_health_failure`). */
  readonly tcpConnections: Set<{ close(): void }> = new Set();
  /** Called after any health flag or mark changes (the cluster's update merge window). */
  onChange: (() => void) | null = null;
  /** Success rate figures from the outlier detector, when the cluster has one. */
  outlierRates: { external: number; local: number } | null = null;
  #windowStart = performance.now();
  #windowOk = 0;
  #windowTotal = 0;
  #lastRate = -1;

  /** Creates a host from its effective configuration. */
  constructor(h: EffectiveHost) {
    this.address = h.address;
    this.port = h.port;
    this.health = {
      failed_active_hc: false,
      failed_eds_health: false,
      failed_outlier_check: false,
    };
    this.update(h);
    this.key = hostPort(h.address, h.port);
  }

  /**
   * Takes the facts of `h` (same address and port) from a new discovery update: weight,
   * priority, locality, metadata, hostname and the EDS health status. Statistics stay.
   */
  update(h: EffectiveHost): void {
    this.hostname = h.hostname;
    this.weight = h.weight;
    this.region = h.region;
    this.zone = h.zone;
    this.sub_zone = h.sub_zone;
    this.priority = h.priority;
    this.metadata = h.metadata;
    this.localityWeight = h.localityWeight ?? 0;
    // `metadata` holds the `proxy.lb` / `envoy.lb` namespace (or, from older callers, both).
    const canary = h.metadata?.canary ??
      (h.metadata?.["envoy.lb"] as JsonObject | undefined)?.canary ??
      (h.metadata?.["proxy.lb"] as JsonObject | undefined)?.canary;
    this.canary = canary === true;
    const degraded = h.health_status === "DEGRADED";
    if (degraded !== this.degradedEdsHealth) {
      this.degradedEdsHealth = degraded;
      bumpHealthEpoch();
      this.onChange?.();
    }
    this.setFlag(
      "failed_eds_health",
      ["UNHEALTHY", "DRAINING", "TIMEOUT"].includes(h.health_status ?? ""),
    );
  }

  /**
   * Sets or clears one health flag; load balancing sees the change when the cluster delivers it
   * (at once, or at the end of its `update_merge_window`).
   */
  setFlag(flag: keyof HealthFlags, on: boolean): void {
    if (this.health[flag] === on) return;
    this.health[flag] = on;
    bumpHealthEpoch();
    this.onChange?.();
  }

  /** Sets the degraded and excluded marks of active health checking. */
  setMarks(m: { degraded?: boolean; excluded?: boolean }): void {
    let changed = false;
    if (m.degraded !== undefined && m.degraded !== this.degradedActiveHc) {
      this.degradedActiveHc = m.degraded;
      changed = true;
    }
    if (m.excluded !== undefined && m.excluded !== this.excludedViaImmediateHcFail) {
      this.excludedViaImmediateHcFail = m.excluded;
      changed = true;
    }
    if (changed) {
      bumpHealthEpoch();
      this.onChange?.();
    }
  }

  /** Envoy's `PENDING_ACTIVE_HC`: not checked yet by active health checking. */
  get pendingActiveHc(): boolean {
    return this.#pending;
  }

  /** Sets or clears `PENDING_ACTIVE_HC`. */
  setPending(on: boolean): void {
    if (this.#pending === on) return;
    this.#pending = on;
    bumpHealthEpoch();
    this.onChange?.();
  }

  /** True when the host is left out of load balancing altogether. */
  excluded(): boolean {
    return this.excludedViaImmediateHcFail;
  }

  /**
   * True when the host passes its checks but answers as degraded, or discovery reports it
   * `DEGRADED`.
   */
  degraded(): boolean {
    return this.degradedActiveHc || this.degradedEdsHealth;
  }

  /** True when no health flag is set. */
  healthy(): boolean {
    const f = this.health;
    return !f.failed_active_hc && !f.failed_eds_health && !f.failed_outlier_check;
  }

  #rotate(now: number) {
    if (now - this.#windowStart < SUCCESS_RATE_INTERVAL_MS) return;
    const volume = this.#windowTotal;
    this.#lastRate = volume >= SUCCESS_RATE_MIN_VOLUME ? (100 * this.#windowOk) / volume : -1;
    // A window with no traffic at all also resets the rate.
    if (now - this.#windowStart >= 2 * SUCCESS_RATE_INTERVAL_MS) this.#lastRate = -1;
    this.#windowStart = now;
    this.#windowOk = 0;
    this.#windowTotal = 0;
  }

  /** Records the outcome of one request (`ok`: non-5xx answer) at `now` (performance clock). */
  recordOutcome(ok: boolean, now: number = performance.now()): void {
    this.#rotate(now);
    this.#windowTotal++;
    if (ok) this.#windowOk++;
  }

  /**
   * Success rate of the last completed interval, or -1 when its volume was too low. With outlier
   * detection on, the detector's figure of its last interval.
   */
  successRate(): number {
    if (this.outlierRates) return this.outlierRates.external;
    this.#rotate(performance.now());
    return this.#lastRate;
  }

  /** The local-origin success rate of the outlier detector, or -1. */
  localOriginSuccessRate(): number {
    return this.outlierRates?.local ?? -1;
  }
}
