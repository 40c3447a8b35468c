/**
 * The text and JSON pieces of one histogram: quantile summaries and bucket lists, over the
 * interval and cumulative views.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * import { quantileSummary } from "./histogram_format.ts";
 * const h = new HistogramImpl("h");
 * h.record(200);
 * h.flush();
 * assert.equal(quantileSummary(h).startsWith("P0(200,200) P25(200,200)"), true);
 * ```
 * @module
 */
import type { HistogramImpl } from "./histogram.ts";
import type { BucketMode } from "./render_options.ts";
import { JSON_QUANTILES, TEXT_QUANTILES } from "./histogram_settings.ts";
import { formatG, formatShortest } from "./format_number.ts";

/** What a never-flushed histogram prints instead of values. */
export const NO_RECORDED_VALUES = "No recorded values";

const TEXT_FRACTIONS = TEXT_QUANTILES.map((q) => q / 100);
const TEXT_LABELS = TEXT_QUANTILES.map((q) => `P${formatG(q)}(`);
const JSON_FRACTIONS = JSON_QUANTILES.map((q) => q / 100);

/**
 * `P0(i,c) P25(i,c) ...` or `No recorded values`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * import { quantileSummary } from "./histogram_format.ts";
 * assert.equal(quantileSummary(new HistogramImpl("h")), "No recorded values");
 * ```
 */
export function quantileSummary(h: HistogramImpl): string {
  if (h.empty) return NO_RECORDED_VALUES;
  const iv = h.interval.quantiles(TEXT_FRACTIONS);
  const cv = h.cumulative.quantiles(TEXT_FRACTIONS);
  let out = "";
  for (let k = 0; k < TEXT_LABELS.length; k++) {
    if (k > 0) out += " ";
    out += `${TEXT_LABELS[k]}${formatShortest(iv[k])},${formatShortest(cv[k])})`;
  }
  return out;
}

/**
 * Per-bound counts `[interval[], cumulative[]]`, cumulative or disjoint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * import { bucketCounts } from "./histogram_format.ts";
 * const h = new HistogramImpl("h");
 * h.record(3);
 * h.flush();
 * assert.deepEqual(bucketCounts(h, [1, 10], "cumulative"), [[0, 1], [0, 1]]);
 * ```
 */
export function bucketCounts(
  h: HistogramImpl,
  bounds: readonly number[],
  mode: BucketMode,
): [number[], number[]] {
  const iv = h.interval.cumulativeCounts(bounds);
  const cv = h.cumulative.cumulativeCounts(bounds);
  if (mode === "disjoint") {
    for (let k = bounds.length - 1; k > 0; k--) {
      iv[k] -= iv[k - 1];
      cv[k] -= cv[k - 1];
    }
  }
  return [iv, cv];
}

/**
 * `B0.5(i,c) B1(i,c) ...` or `No recorded values`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * import { bucketSummary } from "./histogram_format.ts";
 * const h = new HistogramImpl("h");
 * h.record(3);
 * h.flush();
 * assert.equal(bucketSummary(h, [1, 10], "disjoint"), "B1(0,0) B10(1,1)");
 * ```
 */
export function bucketSummary(h: HistogramImpl, bounds: readonly number[], mode: BucketMode) {
  if (h.empty) return NO_RECORDED_VALUES;
  const [iv, cv] = bucketCounts(h, bounds, mode);
  let out = "";
  for (let k = 0; k < bounds.length; k++) {
    if (k > 0) out += " ";
    out += `B${formatG(bounds[k])}(${iv[k]},${cv[k]})`;
  }
  return out;
}

/** A number as JSON writes it (`String(v)` for a finite number), `null` otherwise. */
function jsonNumber(v: number): string {
  return Number.isFinite(v) ? "" + v : "null";
}

/**
 * `{"name":...,"values":[{"interval":...,"cumulative":...},...]}` (NaN as `null`). `quotedName` is the
 * name as a JSON string, for a caller that has it already (the JSON render quotes names by part).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * import { jsonQuantiles } from "./histogram_format.ts";
 * assert.equal(
 *   jsonQuantiles(new HistogramImpl("h")).startsWith('{"name":"h","values":[{"interval":null'),
 *   true,
 * );
 * ```
 */
export function jsonQuantiles(h: HistogramImpl, quotedName = JSON.stringify(h.name)): string {
  const iv = h.interval.quantiles(JSON_FRACTIONS);
  const cv = h.cumulative.quantiles(JSON_FRACTIONS);
  let out = '{"name":' + quotedName + ',"values":[';
  for (let k = 0; k < iv.length; k++) {
    out += (k === 0 ? '{"interval":' : ',{"interval":') + jsonNumber(iv[k]) + ',"cumulative":' +
      jsonNumber(cv[k]) + "}";
  }
  return out + "]}";
}

/**
 * `{"name":...,"buckets":[{"upper_bound":...,"interval":...,"cumulative":...},...]}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * import { jsonBuckets } from "./histogram_format.ts";
 * assert.equal(
 *   jsonBuckets(new HistogramImpl("h"), [1], "cumulative"),
 *   '{"name":"h","buckets":[{"upper_bound":1,"interval":0,"cumulative":0}]}',
 * );
 * ```
 */
export function jsonBuckets(h: HistogramImpl, bounds: readonly number[], mode: BucketMode): string {
  const [iv, cv] = bucketCounts(h, bounds, mode);
  const buckets = bounds.map((b, k) =>
    `{"upper_bound":${jsonNumber(b)},"interval":${iv[k]},"cumulative":${cv[k]}}`
  );
  return `{"name":${JSON.stringify(h.name)},"buckets":[${buckets.join(",")}]}`;
}
