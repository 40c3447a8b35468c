/**
 * Histogram output settings: the quantiles the specification prints, read from the
 * `admin.stats_shapes` table, and the default bucket bounds of real Envoy
 * (`HistogramSettingsImpl::defaultBuckets`; the specification does not list them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TEXT_QUANTILES } from "./histogram_settings.ts";
 * assert.equal(TEXT_QUANTILES.length, 8);
 * ```
 * @module
 */
import { row, STATS_SHAPES } from "../../spec/mod.ts";

/** Quantiles (percent) of the text form, from `admin.stats_shapes.text-quantiles` (`P99.9` -> 99.9). */
export const TEXT_QUANTILES: readonly number[] = row(
  STATS_SHAPES,
  "admin.stats_shapes.text-quantiles",
).values.map((v) => Number(String(v).replace(/^P/, "")));

/** `supported_quantiles` of the JSON form (percent), from `admin.stats_shapes.json-supported-quantiles`. */
export const JSON_QUANTILES: readonly number[] = row(
  STATS_SHAPES,
  "admin.stats_shapes.json-supported-quantiles",
).values.map(Number);

/** Default histogram bucket upper bounds (19 values, 0.5 to 3600000). */
export const DEFAULT_BUCKETS: readonly number[] = [
  0.5,
  1,
  5,
  10,
  25,
  50,
  100,
  250,
  500,
  1000,
  2500,
  5000,
  10000,
  30000,
  60000,
  300000,
  600000,
  1800000,
  3600000,
];
