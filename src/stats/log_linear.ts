/**
 * Log-linear bucketed counts with two significant decimal digits (the circllhist layout real
 * Envoy uses): a value `v > 0` falls in the bin `[m·10^e, (m+1)·10^e)` with `m` in 10..99, and 0
 * has a bin of its own. Recording is a handful of arithmetic operations and allocates only the
 * first time a decade is used.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LogLinearCounts } from "./log_linear.ts";
 * const h = new LogLinearCounts();
 * h.record(200);
 * assert.deepEqual(h.quantiles([0, 0.5, 1]), [200, 200, 200]);
 * ```
 * @module
 */

const MIN_EXP = -20;
const MAX_EXP = 308;
const POW10: number[] = [];
for (let k = 0; k <= MAX_EXP - MIN_EXP + 2; k++) POW10.push(Number(`1e${k}`));

function mantissa(v: number, e: number): number {
  return Math.floor(e >= 0 ? v / POW10[e] : v * POW10[-e]);
}

function edge(m: number, e: number): number {
  return e >= 0 ? m * POW10[e] : m / POW10[-e];
}

/** {@linkcode LogLinearCounts} as plain data (see `snapshot()`). */
export interface LogLinearSnapshot {
  zero: number;
  /** Non-empty decades: index and the 90 bins. */
  decades: Array<[number, Float64Array]>;
  count: number;
  sum: number;
  min: number;
  max: number;
}

/**
 * Bucketed counts of recorded values, plus the exact count, sum, minimum and maximum.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LogLinearCounts } from "./log_linear.ts";
 * const c = new LogLinearCounts();
 * for (const v of [1, 2, 3]) c.record(v);
 * assert.deepEqual(c.cumulativeCounts([2.5, 10]), [2, 3]);
 * ```
 */
export class LogLinearCounts {
  #zero = 0;
  #decades: (Float64Array | undefined)[] = [];
  /** Number of values recorded. */
  count = 0;
  /** Sum of the values recorded. */
  sum = 0;
  /** Smallest value recorded (`NaN` when empty). */
  min = Number.NaN;
  /** Largest value recorded (`NaN` when empty). */
  max = Number.NaN;

  /**
   * Records one value. Negative and `NaN` values count as 0; values above the largest finite
   * double count as that double, so nothing is lost or crashes.
   */
  record(value: number): void {
    let v = value;
    if (!(v >= 0)) v = 0;
    else if (v > Number.MAX_VALUE) v = Number.MAX_VALUE;
    this.count++;
    this.sum += v;
    if (!(v >= this.min)) this.min = v;
    if (!(v <= this.max)) this.max = v;
    if (v < 1e-19) {
      this.#zero++;
      return;
    }
    let e = Math.floor(Math.log10(v)) - 1;
    let m = mantissa(v, e);
    if (m >= 100) m = mantissa(v, ++e);
    else if (m < 10) m = mantissa(v, --e);
    const i = e - MIN_EXP;
    let d = this.#decades[i];
    if (d === undefined) this.#decades[i] = d = new Float64Array(90);
    d[m - 10]++;
  }

  /** Adds every bin of `other` into this one. */
  addFrom(other: LogLinearCounts): void {
    if (other.count === 0) return;
    this.#zero += other.#zero;
    const od = other.#decades;
    for (let i = 0; i < od.length; i++) {
      const src = od[i];
      if (src === undefined) continue;
      let dst = this.#decades[i];
      if (dst === undefined) this.#decades[i] = dst = new Float64Array(90);
      for (let k = 0; k < 90; k++) dst[k] += src[k];
    }
    this.count += other.count;
    this.sum += other.sum;
    if (!(other.min >= this.min)) this.min = other.min;
    if (!(other.max <= this.max)) this.max = other.max;
  }

  /**
   * The counts as plain data that survives `postMessage` (workers send their intervals to the
   * main thread this way); {@linkcode LogLinearCounts.fromSnapshot} rebuilds them.
   */
  snapshot(): LogLinearSnapshot {
    const decades: Array<[number, Float64Array]> = [];
    this.#decades.forEach((d, i) => {
      if (d !== undefined) decades.push([i, d.slice()]);
    });
    const { count, sum, min, max } = this;
    return { zero: this.#zero, decades, count, sum, min, max };
  }

  /** Counts rebuilt from a {@linkcode LogLinearCounts.snapshot}. */
  static fromSnapshot(s: LogLinearSnapshot): LogLinearCounts {
    const c = new LogLinearCounts();
    c.#zero = s.zero;
    for (const [i, d] of s.decades) c.#decades[i] = Float64Array.from(d);
    c.count = s.count;
    c.sum = s.sum;
    c.min = s.min;
    c.max = s.max;
    return c;
  }

  /** Empties the counts; decade arrays already allocated are kept for reuse. */
  clear(): void {
    if (this.count === 0) return;
    this.#zero = 0;
    for (const d of this.#decades) d?.fill(0);
    this.count = 0;
    this.sum = 0;
    this.min = Number.NaN;
    this.max = Number.NaN;
  }

  /** Calls `fn(lower, upper, count)` for every non-empty bin, in ascending order. */
  forEachBin(fn: (lower: number, upper: number, count: number) => void): void {
    if (this.#zero > 0) fn(0, 0, this.#zero);
    const ds = this.#decades;
    for (let i = 0; i < ds.length; i++) {
      const d = ds[i];
      if (d === undefined) continue;
      const e = i + MIN_EXP;
      for (let k = 0; k < 90; k++) if (d[k] > 0) fn(edge(k + 10, e), edge(k + 11, e), d[k]);
    }
  }

  /**
   * Quantiles for ascending fractions `qs` (0..1), interpolated linearly inside bins and
   * clamped to `[min, max]`, so they are monotone; all `NaN` when nothing was recorded.
   */
  quantiles(qs: readonly number[]): number[] {
    const out = qs.map(() => Number.NaN);
    if (this.count === 0) return out;
    const targets = qs.map((q) => q * this.count);
    let i = 0;
    while (i < qs.length && qs[i] <= 0) out[i++] = this.min;
    let below = 0;
    this.forEachBin((lower, upper, count) => {
      const upto = below + count;
      while (i < qs.length && targets[i] <= upto) {
        const v = lower + ((targets[i] - below) / count) * (upper - lower);
        out[i++] = Math.min(this.max, Math.max(this.min, v));
      }
      below = upto;
    });
    while (i < qs.length) out[i++] = this.max;
    for (let k = qs.length - 1; k >= 0 && qs[k] >= 1; k--) out[k] = this.max;
    return out;
  }

  /**
   * For each ascending bound, the number of values in bins lying entirely at or below it (for
   * bounds on bin edges, such as the default ones: the values below the bound).
   */
  cumulativeCounts(bounds: readonly number[]): number[] {
    const out = new Array<number>(bounds.length).fill(0);
    let j = 0;
    this.forEachBin((_lower, upper, count) => {
      while (j < bounds.length && bounds[j] < upper) j++;
      if (j < bounds.length) out[j] += count;
    });
    for (let k = 1; k < out.length; k++) out[k] += out[k - 1];
    return out;
  }
}
