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
import { STATS_SHAPES } from "../../spec/admin/stats_shapes.ts";

function rowValues(id: string): readonly (string | number)[] {
  const row = STATS_SHAPES.find((r) => r.id === id) as
    | { values?: readonly (string | number)[] }
    | undefined;
  if (row?.values === undefined) throw new Error(`spec row ${id} has no values`);
  return row.values;
}

/** Quantiles (percent) of the text form, from `admin.stats_shapes.text-quantiles` (`P99.9` → 99.9). */
export const TEXT_QUANTILES: readonly number[] = rowValues("admin.stats_shapes.text-quantiles")
  .map((v) => Number(String(v).replace(/^P/, "")));

/** `supported_quantiles` of the JSON form (percent), from `admin.stats_shapes.json-supported-quantiles`. */
export const JSON_QUANTILES: readonly number[] = rowValues(
  "admin.stats_shapes.json-supported-quantiles",
).map(Number);

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
