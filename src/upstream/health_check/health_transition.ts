/**
 * How one host's `/failed_active_hc` flag follows check results, as Envoy's health checker
 * decides it: a host starts failed; its first passing check makes it healthy at once; after that
 * it takes `healthy_threshold` consecutive passes to turn healthy and `unhealthy_threshold`
 * consecutive failures to turn unhealthy. A non-retriable failure that is not a network failure
 * (an unexpected HTTP status, a failed service-name check, the immediate-failure header) fails a
 * healthy host at once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HealthTransitions } from "./health_transition.ts";
 * const s = new HealthTransitions({ healthyThreshold: 2, unhealthyThreshold: 3 });
 * s.success(); // first check: healthy at once
 * s.failure("NETWORK", false);
 * assert.equal(s.failed, false); // 1 of 3 failures
 * ```
 * @module
 */
import type { FailureType } from "./checker.ts";

/** Envoy's `HealthTransition`. */
export type Transition = "Unchanged" | "Changed" | "ChangePending";

/** Thresholds of one health check. */
export interface Thresholds {
  healthyThreshold: number;
  unhealthyThreshold: number;
}

/** The counters of one host's checks. */
export class HealthTransitions {
  /** Mirrors the host's `failed_active_hc` flag. */
  failed = true;
  /** No check has completed yet. */
  first = true;
  numHealthy = 0;
  numUnhealthy = 0;

  /** Counts against `t`. */
  constructor(readonly t: Thresholds) {}

  /** A passing check. */
  success(): Transition {
    this.numUnhealthy = 0;
    let change: Transition = "Unchanged";
    if (this.failed) {
      if (this.first || ++this.numHealthy >= this.t.healthyThreshold) {
        this.failed = false;
        this.numHealthy = 0;
        change = "Changed";
      } else change = "ChangePending";
    }
    this.first = false;
    return change;
  }

  /** A failing check. */
  failure(type: FailureType, retriable: boolean): Transition {
    this.numHealthy = 0;
    let change: Transition = "Unchanged";
    if (!this.failed) {
      const network = type === "NETWORK" || type === "NETWORK_TIMEOUT";
      if ((!retriable && !network) || ++this.numUnhealthy >= this.t.unhealthyThreshold) {
        this.failed = true;
        this.numUnhealthy = 0;
        change = "Changed";
      } else change = "ChangePending";
    }
    this.first = false;
    return change;
  }
}
