/**
 * Table `limits`: the eighteen rows of the specification's Limits table, each with a
 * machine-readable value (default and bounds in the unit named by `unit`), and a row for the
 * admin limits the specification says it does not show. Durations are in milliseconds unless the
 * item is an option counted in seconds; sizes in bytes or entries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LIMITS } from "./limits.ts";
 * const drain = LIMITS.find((r) => r.item === "--drain-time-s");
 * assert.equal(drain?.value.default, 600);
 * ```
 * @module
 */
import type { LimitRow } from "./rule.ts";

/** The configuration field or command-line option a limit belongs to (its row elsewhere). */
export type LimitRef = { message: string; field: string } | { option: `--${string}` };

/**
 * A limit row. `parts` holds each value of a row that names several (`100% / 6`); `sentinel` a
 * value outside the bounds that has a meaning of its own (`-1`: too little data); `ref` the field
 * or option whose row in `cluster.*` or `cli.options` must agree with the value.
 */
export interface LimitTableRow extends LimitRow {
  parts?: Readonly<Record<string, LimitRow["value"] & { ref?: LimitRef }>>;
  sentinel?: number;
  ref?: LimitRef;
}

/** 8M entries, the ring hash bound (8 × 2^20). */
const EIGHT_M = 8388608;

/** Rows of the `limits` table. */
export const LIMITS = [
  {
    id: "limits.host-weight",
    level: "MUST",
    statement: "A host's load-balancing weight is between 1 and 100.",
    cite: { section: "Limits", quote: "Host weight | 1 to 100" },
    check: "command",
    item: "Host weight",
    value: { min: 1, max: 100 },
    ref: { message: "endpoint.LbEndpoint", field: "load_balancing_weight" },
  },
  {
    id: "limits.success-rate",
    level: "MUST",
    statement:
      "A host's success_rate is between 0 and 100, or -1 when the request volume is insufficient.",
    cite: {
      section: "Limits",
      quote: "success_rate | 0 to 100, or -1 when volume is insufficient",
    },
    check: "black-box",
    item: "success_rate",
    value: { min: 0, max: 100, unit: "percent" },
    sentinel: -1,
  },
  {
    id: "limits.ring-hash-minimum-ring-size",
    level: "MUST",
    statement: "Ring hash minimum_ring_size defaults to 1024 entries and is at most 8M entries.",
    cite: {
      section: "Limits",
      quote: "Ring hash minimum_ring_size | default 1024 entries, at most 8M entries",
    },
    check: "command",
    item: "Ring hash minimum_ring_size",
    value: { default: 1024, max: EIGHT_M, unit: "entries" },
    ref: { message: "Cluster.RingHashLbConfig", field: "minimum_ring_size" },
  },
  {
    id: "limits.ring-hash-maximum-ring-size",
    level: "MUST",
    statement: "Ring hash maximum_ring_size defaults to 8M entries and is at most 8M entries.",
    cite: {
      section: "Limits",
      quote: "Ring hash maximum_ring_size | default 8M entries, at most 8M entries",
    },
    check: "command",
    item: "Ring hash maximum_ring_size",
    value: { default: EIGHT_M, max: EIGHT_M, unit: "entries" },
    ref: { message: "Cluster.RingHashLbConfig", field: "maximum_ring_size" },
  },
  {
    id: "limits.per-connection-buffer-limit-bytes",
    level: "MUST",
    statement: "per_connection_buffer_limit_bytes defaults to 1 MiB.",
    cite: { section: "Limits", quote: "per_connection_buffer_limit_bytes | default 1MiB" },
    check: "internal",
    item: "per_connection_buffer_limit_bytes",
    value: { default: 1048576, unit: "bytes" },
    ref: { message: "Cluster", field: "per_connection_buffer_limit_bytes" },
  },
  {
    id: "limits.max-requests-per-connection",
    level: "MUST",
    statement:
      "max_requests_per_connection has no limit by default, and the value 1 disables keep-alive.",
    cite: {
      section: "Limits",
      quote: "max_requests_per_connection | default no limit; 1 disables keep-alive",
    },
    check: "internal",
    item: "max_requests_per_connection",
    value: { default: null, min: 1, unit: "requests" },
    ref: { message: "Cluster", field: "max_requests_per_connection" },
  },
  {
    id: "limits.dns-refresh-rate",
    level: "MUST",
    statement: "dns_refresh_rate defaults to 5000 ms.",
    cite: { section: "Limits", quote: "dns_refresh_rate | default 5000ms" },
    check: "internal",
    item: "dns_refresh_rate",
    value: { default: 5000, unit: "ms" },
    ref: { message: "Cluster", field: "dns_refresh_rate" },
  },
  {
    id: "limits.cleanup-interval",
    level: "MUST",
    statement: "cleanup_interval of an ORIGINAL_DST cluster defaults to 5000 ms.",
    cite: { section: "Limits", quote: "cleanup_interval (ORIGINAL_DST) | default 5000ms" },
    check: "internal",
    item: "cleanup_interval (ORIGINAL_DST)",
    value: { default: 5000, unit: "ms" },
    ref: { message: "Cluster", field: "cleanup_interval" },
  },
  {
    id: "limits.update-merge-window",
    level: "MUST",
    statement: "update_merge_window defaults to 1000 ms, and 0 disables merging.",
    cite: { section: "Limits", quote: "update_merge_window | default 1000ms; 0 disables" },
    check: "internal",
    item: "update_merge_window",
    value: { default: 1000, min: 0, unit: "ms" },
    ref: { message: "Cluster.CommonLbConfig", field: "update_merge_window" },
  },
  {
    id: "limits.healthy-panic-threshold",
    level: "MUST",
    statement: "healthy_panic_threshold defaults to 50% and is truncated to the nearest 1%.",
    cite: { section: "Limits", quote: "healthy_panic_threshold | default 50%, truncated to 1%" },
    check: "internal",
    item: "healthy_panic_threshold",
    value: { default: 50, min: 0, max: 100, unit: "percent" },
    ref: { message: "Cluster.CommonLbConfig", field: "healthy_panic_threshold" },
  },
  {
    id: "limits.zone-aware",
    level: "MUST",
    statement: "Zone-aware routing_enabled defaults to 100% and min_cluster_size to 6.",
    cite: {
      section: "Limits",
      quote: "Zone-aware routing_enabled / min_cluster_size | default 100% / 6",
    },
    check: "internal",
    item: "Zone-aware routing_enabled / min_cluster_size",
    value: { default: 100, min: 0, max: 100, unit: "percent" },
    parts: {
      routing_enabled: {
        default: 100,
        min: 0,
        max: 100,
        unit: "percent",
        ref: { message: "Cluster.CommonLbConfig.ZoneAwareLbConfig", field: "routing_enabled" },
      },
      min_cluster_size: {
        default: 6,
        unit: "hosts",
        ref: { message: "Cluster.CommonLbConfig.ZoneAwareLbConfig", field: "min_cluster_size" },
      },
    },
  },
  {
    id: "limits.least-request-choice-count",
    level: "MUST",
    statement: "LeastRequest choice_count defaults to 2.",
    cite: { section: "Limits", quote: "LeastRequest choice_count | default 2" },
    check: "internal",
    item: "LeastRequest choice_count",
    value: { default: 2, unit: "hosts" },
    ref: { message: "Cluster.LeastRequestLbConfig", field: "choice_count" },
  },
  {
    id: "limits.drain-time-s",
    level: "MUST",
    statement: "--drain-time-s defaults to 600 seconds.",
    cite: { section: "Limits", quote: "--drain-time-s | default 600" },
    check: "black-box",
    item: "--drain-time-s",
    value: { default: 600, unit: "s" },
    ref: { option: "--drain-time-s" },
  },
  {
    id: "limits.parent-shutdown-time-s",
    level: "MUST",
    statement: "--parent-shutdown-time-s defaults to 900 seconds.",
    cite: { section: "Limits", quote: "--parent-shutdown-time-s | default 900" },
    check: "black-box",
    item: "--parent-shutdown-time-s",
    value: { default: 900, unit: "s" },
    ref: { option: "--parent-shutdown-time-s" },
  },
  {
    id: "limits.file-flush-interval-msec",
    level: "MUST",
    statement: "--file-flush-interval-msec defaults to 10 seconds (10000 ms).",
    cite: { section: "Limits", quote: "--file-flush-interval-msec | default 10 seconds" },
    check: "black-box",
    item: "--file-flush-interval-msec",
    value: { default: 10000, unit: "ms" },
    ref: { option: "--file-flush-interval-msec" },
  },
  {
    id: "limits.stats-flush-interval",
    level: "MUST",
    statement: "stats_flush_interval defaults to 5 seconds.",
    cite: { section: "Limits", quote: "stats_flush_interval | default 5 seconds" },
    check: "internal",
    item: "stats_flush_interval",
    value: { default: 5000, unit: "ms" },
  },
  {
    id: "limits.socket-mode",
    level: "MUST",
    statement: "--socket-mode defaults to octal 600.",
    cite: { section: "Limits", quote: "--socket-mode | default 600" },
    check: "internal",
    item: "--socket-mode",
    value: { default: "600", unit: "octal" },
    ref: { option: "--socket-mode" },
  },
  {
    id: "limits.recent-lookup-overhead",
    level: "MAY",
    statement: "Recent-lookup collection costs about 40 to 100 nanoseconds per lookup.",
    cite: {
      section: "Limits",
      quote: "Recent-lookup collection overhead | about 40 to 100 nanoseconds per lookup",
    },
    check: "internal",
    item: "Recent-lookup collection overhead",
    value: { min: 40, max: 100, unit: "ns" },
  },
  {
    id: "limits.admin-limits-not-shown",
    level: "MAY",
    statement:
      "Rate limits and request size limits of the admin interface are not specified; this implementation refuses form bodies above 1 MiB.",
    cite: {
      section: "Limits",
      quote: "Rate limits and request size limits of the administration interface: not shown.",
    },
    check: "internal",
    item: "Admin rate and request size limits",
    value: { default: null },
  },
] as const satisfies readonly LimitTableRow[];
