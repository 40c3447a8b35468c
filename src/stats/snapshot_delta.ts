/**
 * What a histogram recorded between two views of its cumulative counts: the later
 * {@linkcode LogLinearSnapshot} minus the earlier one, bin by bin. A process hands its
 * histograms to another one this way (hot restart): the difference of cumulative views does not
 * depend on when anything else flushed the histogram, so every value is handed over exactly once
 * however the flushes fall.
 *
 * The minimum and maximum of the difference are those of the later view (the exact extremes of
 * the values in between are not kept); merged into a histogram that already holds the earlier
 * values, the result is the same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LogLinearCounts } from "./log_linear.ts";
 * import { snapshotDelta } from "./snapshot_delta.ts";
 * const h = new LogLinearCounts();
 * h.record(5);
 * const before = h.snapshot();
 * h.record(7);
 * h.record(700);
 * const d = snapshotDelta(h.snapshot(), before);
 * assert.equal(d.count, 2);
 * assert.equal(d.sum, 707);
 * assert.deepEqual(LogLinearCounts.fromSnapshot(d).cumulativeCounts([6, 10, 1000]), [0, 1, 2]);
 * ```
 * @module
 */
import type { LogLinearSnapshot } from "./log_linear.ts";

/** `later` minus `earlier` (`earlier` null: all of `later`); both views of one histogram. */
export function snapshotDelta(
  later: LogLinearSnapshot,
  earlier: LogLinearSnapshot | null,
): LogLinearSnapshot {
  if (earlier === null || earlier.count === 0) return later;
  const before = new Map(earlier.decades);
  const decades: Array<[number, Float64Array]> = [];
  for (const [i, bins] of later.decades) {
    const old = before.get(i);
    const d = new Float64Array(bins.length);
    let any = false;
    for (let k = 0; k < bins.length; k++) {
      d[k] = Math.max(0, bins[k] - (old?.[k] ?? 0));
      if (d[k] > 0) any = true;
    }
    if (any) decades.push([i, d]);
  }
  const count = Math.max(0, later.count - earlier.count);
  return {
    zero: Math.max(0, later.zero - earlier.zero),
    decades,
    count,
    sum: count === 0 ? 0 : later.sum - earlier.sum,
    min: count === 0 ? Number.NaN : later.min,
    max: count === 0 ? Number.NaN : later.max,
  };
}
