/**
 * Table `admin.stats_shapes`: the shapes of `GET /stats` output (text quantiles, JSON counters,
 * gauges and histograms, buckets) and the rules of its filters, with machine-readable quantile
 * lists the stats renderers read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATS_SHAPES } from "./stats_shapes.ts";
 * const text = STATS_SHAPES.find((r) => r.id === "admin.stats_shapes.text-quantiles");
 * assert.deepEqual(text?.values, ["P0", "P25", "P50", "P75", "P90", "P99", "P99.9", "P100"]);
 * ```
 * @module
 */
import type { Rule } from "../rule.ts";

/** A rule about the shape of stats output. */
export interface StatsShapeRow extends Rule {
  /** The output format the rule is about. */
  format: "text" | "json" | "prometheus" | "any";
  /** Machine-readable list the rule fixes (quantile labels or numbers), when it fixes one. */
  values?: readonly (string | number)[];
}

/** Rows of the `admin.stats_shapes` table. */
export const STATS_SHAPES = [
  {
    id: "admin.stats_shapes.text-quantiles",
    level: "MUST",
    statement:
      "The text form of a histogram lists the quantiles P0, P25, P50, P75, P90, P99, P99.9 and P100, in that order.",
    cite: {
      section: "Stats output shapes",
      quote: "Text form of a histogram: quantiles P0, P25, P50, P75, P90, P99, P99.9, P100",
    },
    envoy: "Real Envoy also prints P95 and P99.5 (ten quantiles).",
    check: "black-box",
    format: "text",
    values: ["P0", "P25", "P50", "P75", "P90", "P99", "P99.9", "P100"],
  },
  {
    id: "admin.stats_shapes.text-interval-cumulative",
    level: "MUST",
    statement: "Each text quantile prints as `P<q>(<interval>,<cumulative>)`.",
    cite: { section: "Stats output shapes", quote: "each as `(interval,cumulative)`" },
    envoy:
      "Real Envoy prints `nan` for an interval value with no samples, and `name: P0(i,c) P25(i,c) ...` joined by single spaces.",
    check: "black-box",
    format: "text",
  },
  {
    id: "admin.stats_shapes.interval-since-flush",
    level: "MUST",
    statement: "The interval value summarizes the period since the last stats flush.",
    cite: {
      section: "Stats output shapes",
      quote: "`interval` summarizes the period since the last flush",
    },
    check: "internal",
    format: "any",
  },
  {
    id: "admin.stats_shapes.cumulative-since-start",
    level: "MUST",
    statement: "The cumulative value summarizes everything since the process started.",
    cite: {
      section: "Stats output shapes",
      quote: "`cumulative` summarizes since process start",
    },
    check: "black-box",
    format: "any",
  },
  {
    id: "admin.stats_shapes.text-no-recorded-values",
    level: "MUST",
    statement: "A histogram that was never updated prints a no-recorded-values note in text form.",
    cite: {
      section: "Stats output shapes",
      quote: "A histogram never updated prints a no-recorded-values note.",
    },
    envoy: "Real Envoy prints `<name>: No recorded values`.",
    check: "black-box",
    format: "text",
  },
  {
    id: "admin.stats_shapes.json-name-value",
    level: "MUST",
    statement: "In JSON form, counters and gauges are objects with a name and a value.",
    cite: {
      section: "Stats output shapes",
      quote: "counters and gauges are (name,value) pairs",
    },
    envoy:
      'Real Envoy answers `{"stats":[{"name":...,"value":...},...]}` with text readouts first, then counters and gauges sorted by name, then one histograms element; no match gives `{"stats":[]}`.',
    check: "black-box",
    format: "json",
  },
  {
    id: "admin.stats_shapes.json-supported-quantiles",
    level: "MUST",
    statement:
      "The JSON `histograms` element has `supported_quantiles` [0, 25, 50, 75, 90, 95, 99, 99.9, 100].",
    cite: {
      section: "Stats output shapes",
      quote: "`supported_quantiles` (array of numbers: 0, 25, 50, 75, 90, 95, 99, 99.9, 100)",
    },
    envoy: "Real Envoy also lists 99.5 (ten quantiles); its documentation example shows nine.",
    check: "black-box",
    format: "json",
    values: [0, 25, 50, 75, 90, 95, 99, 99.9, 100],
  },
  {
    id: "admin.stats_shapes.json-computed-quantiles",
    level: "MUST",
    statement:
      "The JSON `histograms` element has `computed_quantiles`, one `{name, values}` per histogram, with one `{interval, cumulative}` per supported quantile.",
    cite: {
      section: "Stats output shapes",
      quote:
        "`computed_quantiles` (array of objects with `name` string and `values` array of `{interval, cumulative}` numbers, one per supported quantile)",
    },
    check: "black-box",
    format: "json",
  },
  {
    id: "admin.stats_shapes.json-interval-null",
    level: "MUST",
    statement:
      "When a histogram was not updated in the interval, `interval` is null for all its quantiles in JSON.",
    cite: {
      section: "Stats output shapes",
      quote:
        "When a histogram was not updated in the interval, `interval` is null for all quantiles.",
    },
    check: "black-box",
    format: "json",
  },
  {
    id: "admin.stats_shapes.json-buckets",
    level: "MUST",
    statement:
      "With `histogram_buckets`, JSON `histograms` is an array of `{name, buckets}` whose buckets are `{upper_bound, interval, cumulative}` numbers.",
    cite: {
      section: "Stats output shapes",
      quote:
        "`histograms` is an array of `{name, buckets}` where each bucket is `{upper_bound, interval, cumulative}` (numbers)",
    },
    check: "black-box",
    format: "json",
  },
  {
    id: "admin.stats_shapes.text-buckets-cumulative",
    level: "MUST",
    statement:
      "With `histogram_buckets=cumulative`, each bucket prints as `B<upper_bound>(interval,cumulative)` and counts every value below its bound.",
    cite: {
      section: "Endpoints",
      quote:
        "Histograms as cumulative buckets with upper bounds, each as `B<upper_bound>(interval,cumulative)`; every bucket includes all values below its bound.",
    },
    envoy:
      "Real Envoy's default bounds are 0.5, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 300000, 600000, 1800000, 3600000, printed with `{:g}` (`B1.8e+06`).",
    check: "black-box",
    format: "text",
  },
  {
    id: "admin.stats_shapes.text-buckets-disjoint",
    level: "MUST",
    statement:
      "With `histogram_buckets=disjoint`, a bucket counts only the values above the next smaller bound.",
    cite: {
      section: "Endpoints",
      quote: "Same format, but a bucket excludes values of buckets with smaller bounds.",
    },
    check: "black-box",
    format: "text",
  },
  {
    id: "admin.stats_shapes.usedonly",
    level: "MUST",
    statement:
      "A stat is used once a counter was incremented, a gauge changed or a histogram recorded a value.",
    cite: {
      section: "Endpoints",
      quote:
        "Only stats updated at least once (counters incremented, gauges changed, histograms added to).",
    },
    check: "black-box",
    format: "any",
  },
  {
    id: "admin.stats_shapes.filter-partial-match",
    level: "MUST",
    statement:
      "The stats filter matches any part of the name unless anchored with `^` and `$`, and combines with usedonly.",
    cite: {
      section: "Endpoints",
      quote:
        "Stats whose names match, partial match by default; anchors `^` and `$` give full match; combinable with usedonly.",
    },
    check: "black-box",
    format: "any",
  },
  {
    id: "admin.stats_shapes.filter-linear-engine",
    level: "MUST",
    statement: "The stats filter's default regular expression engine runs in linear time.",
    cite: {
      section: "Endpoints",
      quote: "The default engine is a linear-time regular expression engine",
    },
    envoy:
      "Real Envoy uses RE2 (since \u2248v1.25) and answers 400 `Invalid re2 regex` to an invalid filter; older versions used std::regex.",
    check: "black-box",
    format: "any",
  },
  {
    id: "admin.stats_shapes.filter-runtime-switch",
    level: "MUST",
    statement:
      "Setting runtime key `proxy.reloadable_features.admin_stats_filter_use_re2` to false switches the stats filter to the standard ECMAScript engine.",
    cite: {
      section: "Endpoints",
      quote:
        "POST /runtime_modify?proxy.reloadable_features.admin_stats_filter_use_re2=false switches to the standard-library engine with ECMAScript syntax.",
    },
    envoy: "Real Envoy's key is `envoy.reloadable_features.admin_stats_filter_use_re2`.",
    check: "black-box",
    format: "any",
  },
  {
    id: "admin.stats_shapes.flush-interval",
    level: "MUST",
    statement:
      "Stats flush every `stats_flush_interval` (default 5 seconds), or on each admin query when `stats_flush_on_admin` is set.",
    cite: {
      section: "Endpoints",
      quote:
        "Stats flush on a timer of `stats_flush_interval` (default 5 seconds), or on each query when `stats_flush_on_admin` is set.",
    },
    check: "internal",
    format: "any",
  },
  {
    id: "admin.stats_shapes.prometheus-format",
    level: "MUST",
    statement: "Prometheus output follows the text exposition format version 0.0.4.",
    cite: {
      section: "Endpoints",
      quote: "Stats in the metrics-server text exposition format version 0.0.4.",
    },
    envoy:
      "Real Envoy prefixes names with `envoy_`, replaces other characters than `[a-zA-Z0-9_]` with `_` and prints `{}` for untagged metrics.",
    check: "black-box",
    format: "prometheus",
  },
  {
    id: "admin.stats_shapes.prometheus-text-readouts",
    level: "MUST",
    statement:
      "With `text_readouts`, each text readout is a gauge of value 0 with a `text_value` label holding the readout.",
    cite: {
      section: "Endpoints",
      quote:
        "Includes text readouts as gauges of value 0 with an extra label `text_value` holding the readout value.",
    },
    check: "black-box",
    format: "prometheus",
  },
] as const satisfies readonly StatsShapeRow[];
