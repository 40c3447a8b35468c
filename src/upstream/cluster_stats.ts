/**
 * The `cluster.<stat_name>.*` statistics, resolved once per cluster so the request path does no
 * name lookups (except the first time a response code is seen).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { ClusterStats } from "./cluster_stats.ts";
 * const s = new ClusterStats(new Store().scope("cluster").scope("demo"));
 * s.responseCode(200);
 * assert.equal(s.rq_completed.value(), 1);
 * ```
 * @module
 */
import type { Counter, Gauge, Histogram, Scope } from "../stats/types.ts";

/** Pre-resolved cluster statistics. */
export class ClusterStats {
  readonly cx_total: Counter;
  readonly cx_active: Gauge;
  readonly cx_connect_fail: Counter;
  readonly cx_connect_timeout: Counter;
  readonly cx_http1_total: Counter;
  readonly cx_http2_total: Counter;
  readonly cx_max_requests: Counter;
  readonly cx_idle_timeout: Counter;
  readonly cx_max_duration_reached: Counter;
  readonly cx_overflow: Counter;
  readonly cx_none_healthy: Counter;
  readonly cx_protocol_error: Counter;
  readonly cx_destroy: Counter;
  readonly cx_destroy_local: Counter;
  readonly cx_destroy_remote: Counter;
  readonly cx_destroy_with_active_rq: Counter;
  readonly cx_destroy_local_with_active_rq: Counter;
  readonly cx_destroy_remote_with_active_rq: Counter;
  readonly cx_rx_bytes_total: Counter;
  readonly cx_tx_bytes_total: Counter;
  readonly rq_total: Counter;
  readonly rq_active: Gauge;
  readonly rq_pending_total: Counter;
  readonly rq_pending_active: Gauge;
  readonly rq_pending_overflow: Counter;
  readonly rq_completed: Counter;
  readonly rq_timeout: Counter;
  readonly rq_cancelled: Counter;
  readonly rq_rx_reset: Counter;
  readonly rq_tx_reset: Counter;
  readonly rq_max_duration_reached: Counter;
  readonly rq_time: Histogram;
  readonly cx_connect_ms: Histogram;
  readonly cx_length_ms: Histogram;
  readonly membership_total: Gauge;
  readonly membership_healthy: Gauge;
  readonly membership_degraded: Gauge;
  readonly membership_excluded: Gauge;
  readonly lb_healthy_panic: Counter;
  #codes = new Map<number, [Counter, Counter]>();

  /** Resolves every stat under `s` (`cluster.<stat_name>`). */
  constructor(readonly s: Scope) {
    const c = (n: string) => s.counter(n);
    const g = (n: string) => s.gauge(n);
    this.cx_total = c("upstream_cx_total");
    this.cx_active = g("upstream_cx_active");
    this.cx_connect_fail = c("upstream_cx_connect_fail");
    this.cx_connect_timeout = c("upstream_cx_connect_timeout");
    this.cx_http1_total = c("upstream_cx_http1_total");
    this.cx_http2_total = c("upstream_cx_http2_total");
    this.cx_max_requests = c("upstream_cx_max_requests");
    this.cx_idle_timeout = c("upstream_cx_idle_timeout");
    this.cx_max_duration_reached = c("upstream_cx_max_duration_reached");
    this.cx_overflow = c("upstream_cx_overflow");
    this.cx_none_healthy = c("upstream_cx_none_healthy");
    this.cx_protocol_error = c("upstream_cx_protocol_error");
    this.cx_destroy = c("upstream_cx_destroy");
    this.cx_destroy_local = c("upstream_cx_destroy_local");
    this.cx_destroy_remote = c("upstream_cx_destroy_remote");
    this.cx_destroy_with_active_rq = c("upstream_cx_destroy_with_active_rq");
    this.cx_destroy_local_with_active_rq = c("upstream_cx_destroy_local_with_active_rq");
    this.cx_destroy_remote_with_active_rq = c("upstream_cx_destroy_remote_with_active_rq");
    this.cx_rx_bytes_total = c("upstream_cx_rx_bytes_total");
    this.cx_tx_bytes_total = c("upstream_cx_tx_bytes_total");
    this.rq_total = c("upstream_rq_total");
    this.rq_active = g("upstream_rq_active");
    this.rq_pending_total = c("upstream_rq_pending_total");
    this.rq_pending_active = g("upstream_rq_pending_active");
    this.rq_pending_overflow = c("upstream_rq_pending_overflow");
    this.rq_completed = c("upstream_rq_completed");
    this.rq_timeout = c("upstream_rq_timeout");
    this.rq_cancelled = c("upstream_rq_cancelled");
    this.rq_rx_reset = c("upstream_rq_rx_reset");
    this.rq_tx_reset = c("upstream_rq_tx_reset");
    this.rq_max_duration_reached = c("upstream_rq_max_duration_reached");
    this.rq_time = s.histogram("upstream_rq_time", "milliseconds");
    this.cx_connect_ms = s.histogram("upstream_cx_connect_ms", "milliseconds");
    this.cx_length_ms = s.histogram("upstream_cx_length_ms", "milliseconds");
    this.membership_total = g("membership_total");
    this.membership_healthy = g("membership_healthy");
    this.membership_degraded = g("membership_degraded");
    this.membership_excluded = g("membership_excluded");
    this.lb_healthy_panic = c("lb_healthy_panic");
    for (
      const n of [
        "upstream_rq_retry",
        "upstream_rq_retry_overflow",
        "upstream_rq_per_try_timeout",
        "upstream_rq_per_try_idle_timeout",
        "upstream_internal_redirect_succeeded_total",
        "upstream_internal_redirect_failed_total",
        "upstream_rq_retry_success",
        "upstream_rq_retry_limit_exceeded",
        "upstream_rq_retry_backoff_exponential",
        "upstream_rq_retry_backoff_ratelimited",
        "retry_or_shadow_abandoned",
      ]
    ) {
      c(n);
    }
  }

  /** Counts a response code from upstream (or a local reply): `upstream_rq_<code>`, `_<N>xx`, completed. */
  responseCode(code: number): void {
    let pair = this.#codes.get(code);
    if (!pair) {
      pair = [
        this.s.counter(`upstream_rq_${code}`),
        this.s.counter(`upstream_rq_${Math.floor(code / 100)}xx`),
      ];
      this.#codes.set(code, pair);
    }
    pair[0].inc();
    pair[1].inc();
    this.rq_completed.inc();
  }
}
