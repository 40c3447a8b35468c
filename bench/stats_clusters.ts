/**
 * The stats of Envoy's cluster stat set for the stats benchmarks: 74 counters, 12 gauges,
 * 10 circuit breaker gauges and 3 histograms per cluster.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../src/stats/store.ts";
 * import { buildClusters } from "./stats_clusters.ts";
 * assert.equal(buildClusters(new Store(), 2).size, 198);
 * ```
 * @module
 */
import type { Store } from "../src/stats/store.ts";

/** Counter leaves of one cluster. */
export const COUNTERS = [
  "assignment_stale",
  "assignment_timeout_received",
  "bind_errors",
  "lb_healthy_panic",
  "lb_local_cluster_not_ok",
  "lb_recalculate_zone_structures",
  "lb_subsets_created",
  "lb_subsets_fallback",
  "lb_subsets_fallback_panic",
  "lb_subsets_removed",
  "lb_subsets_selected",
  "lb_zone_cluster_too_small",
  "lb_zone_no_capacity_left",
  "lb_zone_number_differs",
  "lb_zone_routing_all_directly",
  "lb_zone_routing_cross_zone",
  "lb_zone_routing_sampled",
  "membership_change",
  "original_dst_host_invalid",
  "retry_or_shadow_abandoned",
  "update_attempt",
  "update_empty",
  "update_failure",
  "update_no_rebuild",
  "update_success",
  "upstream_cx_close_notify",
  "upstream_cx_connect_attempts_exceeded",
  "upstream_cx_connect_fail",
  "upstream_cx_connect_timeout",
  "upstream_cx_destroy",
  "upstream_cx_destroy_local",
  "upstream_cx_destroy_local_with_active_rq",
  "upstream_cx_destroy_remote",
  "upstream_cx_destroy_remote_with_active_rq",
  "upstream_cx_destroy_with_active_rq",
  "upstream_cx_http1_total",
  "upstream_cx_http2_total",
  "upstream_cx_idle_timeout",
  "upstream_cx_max_requests",
  "upstream_cx_none_healthy",
  "upstream_cx_overflow",
  "upstream_cx_pool_overflow",
  "upstream_cx_protocol_error",
  "upstream_cx_rx_bytes_total",
  "upstream_cx_total",
  "upstream_cx_tx_bytes_total",
  "upstream_flow_control_backed_up_total",
  "upstream_flow_control_drained_total",
  "upstream_flow_control_paused_reading_total",
  "upstream_flow_control_resumed_reading_total",
  "upstream_internal_redirect_failed_total",
  "upstream_internal_redirect_succeeded_total",
  "upstream_rq_cancelled",
  "upstream_rq_completed",
  "upstream_rq_maintenance_mode",
  "upstream_rq_max_duration_reached",
  "upstream_rq_pending_failure_eject",
  "upstream_rq_pending_overflow",
  "upstream_rq_pending_total",
  "upstream_rq_per_try_timeout",
  "upstream_rq_retry",
  "upstream_rq_retry_backoff_exponential",
  "upstream_rq_retry_backoff_ratelimited",
  "upstream_rq_retry_limit_exceeded",
  "upstream_rq_retry_overflow",
  "upstream_rq_retry_success",
  "upstream_rq_rx_reset",
  "upstream_rq_timeout",
  "upstream_rq_total",
  "upstream_rq_tx_reset",
  "upstream_rq_200",
  "upstream_rq_2xx",
  "upstream_rq_503",
  "upstream_rq_5xx",
];
/** Gauge leaves of one cluster. */
export const GAUGES = [
  "lb_subsets_active",
  "max_host_weight",
  "membership_degraded",
  "membership_excluded",
  "membership_healthy",
  "membership_total",
  "upstream_cx_active",
  "upstream_cx_rx_bytes_buffered",
  "upstream_cx_tx_bytes_buffered",
  "upstream_rq_active",
  "upstream_rq_pending_active",
  "version",
];
/** Circuit breaker gauge leaves, per priority. */
export const CB = ["cx_open", "cx_pool_open", "rq_open", "rq_pending_open", "rq_retry_open"];
/** Histogram leaves of one cluster. */
export const HISTOGRAMS = ["upstream_cx_connect_ms", "upstream_cx_length_ms", "upstream_rq_time"];

/** Fills `store` with `clusters` clusters' stats: counters and gauges set, histograms recorded. */
export function buildClusters(store: Store, clusters: number): Store {
  for (let c = 0; c < clusters; c++) {
    const s = store.scope("cluster").scope(`service_${c}`);
    for (const [i, n] of COUNTERS.entries()) s.counter(n).inc((c + i) % 7);
    for (const [i, n] of GAUGES.entries()) s.gauge(n).set((c * i) % 11);
    for (const p of ["default", "high"]) {
      for (const n of CB) s.scope("circuit_breakers").scope(p).gauge(n);
    }
    for (const n of HISTOGRAMS) {
      const h = s.histogram(n, "milliseconds");
      for (let k = 0; k < 5; k++) h.record((c * 31 + k * 17) % 5000);
    }
  }
  store.flush();
  return store;
}
