/**
 * What the outlier detector keeps per host (Envoy's `DetectorHostMonitorImpl`): consecutive
 * 5xx, gateway-failure and local-origin-failure counts, success-rate buckets for external and
 * local-origin results (one filling, one closed at each interval), the ejection count and
 * back-off multiplier, and when the host was last ejected and returned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HostMonitor } from "./host_monitor.ts";
 * const m = new HostMonitor();
 * m.external.record(false);
 * m.external.rotate();
 * assert.deepEqual(m.external.closed(), { rate: 0, volume: 1 });
 * ```
 * @module
 */

/** Requests and successes of one interval, and of the one before. */
export class SuccessRateBuckets {
  #total = 0;
  #ok = 0;
  #closedTotal = 0;
  #closedOk = 0;

  /** Counts one request. */
  record(ok: boolean): void {
    this.#total++;
    if (ok) this.#ok++;
  }

  /** Closes the filling bucket and starts a new one (at each detector interval). */
  rotate(): void {
    this.#closedTotal = this.#total;
    this.#closedOk = this.#ok;
    this.#total = 0;
    this.#ok = 0;
  }

  /** Success rate (0..100) and volume of the last closed interval; null without requests. */
  closed(): { rate: number; volume: number } | null {
    if (this.#closedTotal === 0) return null;
    return { rate: (100 * this.#closedOk) / this.#closedTotal, volume: this.#closedTotal };
  }
}

/** Per-host outlier detection state. */
export class HostMonitor {
  consecutive5xx = 0;
  consecutiveGatewayFailure = 0;
  consecutiveLocalOriginFailure = 0;
  readonly external = new SuccessRateBuckets();
  readonly local = new SuccessRateBuckets();
  /** How many times the host was ejected. */
  numEjections = 0;
  /** Multiplier of `base_ejection_time` for the current ejection. */
  ejectTimeBackoff = 0;
  /** Random extra ejection time (`max_ejection_time_jitter`). */
  jitterMs = 0;
  lastEjection: number | null = null;
  lastUnejection: number | null = null;
  /** Success rates shown by `/clusters` (-1: not computed in the last interval). */
  successRate = -1;
  localOriginSuccessRate = -1;

  /** Clears the consecutive-failure counters. */
  resetConsecutive(): void {
    this.consecutive5xx = 0;
    this.consecutiveGatewayFailure = 0;
    this.consecutiveLocalOriginFailure = 0;
  }
}
