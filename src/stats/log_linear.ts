/**
 * Log-linear bucketed counts with two significant decimal digits (the circllhist layout real
 * Envoy uses): a value `v > 0` falls in the bin `[m·10^e, (m+1)·10^e)` with `m` in 10..99, and 0
 * has a bin of its own. Recording is a handful of arithmetic operations and a binary search over
 * the bins in use; it allocates only when a bin is used the first time.
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

/** Two sorted `key, count` pair arrays merged into a new one (equal keys add up). */
function mergeBins(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) out.push(a[i], a[i + 1]), i += 2;
    else if (b[j] < a[i]) out.push(b[j], b[j + 1]), j += 2;
    else out.push(a[i], a[i + 1] + b[j + 1]), i += 2, j += 2;
  }
  for (; i < a.length; i += 2) out.push(a[i], a[i + 1]);
  for (; j < b.length; j += 2) out.push(b[j], b[j + 1]);
  return out;
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

/** Bins per decade: mantissas 10..99. */
const DECADE_BINS = 90;

/** The bins of counts with none outside the zero bin. */
const NO_BINS: readonly number[] = [];

/**
 * `bins` (`key, count` pairs, ascending keys; null when empty) with `n` added to the bin `key`,
 * inserted in order when it is new. (A function, not a private method: a class with private
 * methods gives each of its instances one more slot.)
 */
function bump(bins: number[] | null, key: number, n: number): number[] {
  if (bins === null) return [key, n];
  let lo = 0, hi = bins.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bins[2 * mid] < key) lo = mid + 1;
    else hi = mid;
  }
  const at = 2 * lo;
  if (at < bins.length && bins[at] === key) bins[at + 1] += n;
  else bins.splice(at, 0, key, n);
  return bins;
}

/**
 * Bucketed counts of recorded values, plus the exact count, sum, minimum and maximum. Only the
 * bins in use are stored, as one array of `key, count` pairs sorted by key (key: decade index
 * times 90 plus mantissa minus 10), so a histogram that saw a few values costs a few words, not
 * 90 doubles per decade.
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
  /** `key, count` pairs, ascending keys; null while no bin is used. */
  #bins: number[] | null = null;
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
    this.#bins = bump(this.#bins, (e - MIN_EXP) * DECADE_BINS + m - 10, 1);
  }

  /**
   * Adds every bin of `other` into this one. With `closed` (`other` is never changed again, and
   * this one is only ever added to, as a histogram's cumulative counts are), an empty one takes
   * `other`'s bins without a copy: adding makes a new list, nothing changes a taken one.
   */
  addFrom(other: LogLinearCounts, closed = false): void {
    if (other.count === 0) return;
    this.#zero += other.#zero;
    const a = this.#bins, b = other.#bins;
    if (b !== null) this.#bins = a === null ? (closed ? b : b.slice()) : mergeBins(a, b);
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
    const bins = this.#bins ?? [];
    for (let j = 0; j < bins.length; j += 2) {
      const i = Math.floor(bins[j] / DECADE_BINS);
      let last = decades[decades.length - 1];
      if (last === undefined || last[0] !== i) decades.push(last = [i, new Float64Array(90)]);
      last[1][bins[j] - i * DECADE_BINS] = bins[j + 1];
    }
    const { count, sum, min, max } = this;
    return { zero: this.#zero, decades, count, sum, min, max };
  }

  /** Counts rebuilt from a {@linkcode LogLinearCounts.snapshot}. */
  static fromSnapshot(s: LogLinearSnapshot): LogLinearCounts {
    const c = new LogLinearCounts();
    c.#zero = s.zero;
    for (const [i, d] of s.decades) {
      for (let k = 0; k < DECADE_BINS; k++) {
        if (d[k] > 0) c.#bins = bump(c.#bins, i * DECADE_BINS + k, d[k]);
      }
    }
    c.count = s.count;
    c.sum = s.sum;
    c.min = s.min;
    c.max = s.max;
    return c;
  }

  /** Empties the counts. */
  clear(): void {
    if (this.count === 0) return;
    this.#zero = 0;
    this.#bins = null;
    this.count = 0;
    this.sum = 0;
    this.min = Number.NaN;
    this.max = Number.NaN;
  }

  /** Calls `fn(lower, upper, count)` for every non-empty bin, in ascending order. */
  forEachBin(fn: (lower: number, upper: number, count: number) => void): void {
    if (this.#zero > 0) fn(0, 0, this.#zero);
    const bins = this.#bins;
    if (bins === null) return;
    for (let j = 0; j < bins.length; j += 2) {
      const i = Math.floor(bins[j] / DECADE_BINS);
      const m = bins[j] - i * DECADE_BINS + 10;
      const e = i + MIN_EXP;
      fn(edge(m, e), edge(m + 1, e), bins[j + 1]);
    }
  }

  /**
   * Quantiles for ascending fractions `qs` (0..1), interpolated linearly inside bins and
   * clamped to `[min, max]`, so they are monotone; all `NaN` when nothing was recorded.
   */
  quantiles(qs: readonly number[]): number[] {
    const out = qs.map(() => Number.NaN);
    if (this.count === 0) return out;
    const n = qs.length, total = this.count, min = this.min, max = this.max;
    let i = 0;
    while (i < n && qs[i] <= 0) out[i++] = min;
    // The bins in ascending order (as forEachBin gives them, the zero bin first), walked
    // without a callback: a JSON render asks this of every histogram twice.
    const zero = this.#zero;
    const bins = this.#bins ?? NO_BINS;
    let below = 0;
    for (let j = zero > 0 ? -2 : 0; j < bins.length && i < n; j += 2) {
      let lower = 0, upper = 0, count = zero;
      if (j >= 0) {
        const d = Math.floor(bins[j] / DECADE_BINS);
        const m = bins[j] - d * DECADE_BINS + 10;
        lower = edge(m, d + MIN_EXP);
        upper = edge(m + 1, d + MIN_EXP);
        count = bins[j + 1];
      }
      const upto = below + count;
      while (i < n && qs[i] * total <= upto) {
        const v = lower + ((qs[i] * total - below) / count) * (upper - lower);
        out[i++] = Math.min(max, Math.max(min, v));
      }
      below = upto;
    }
    while (i < n) out[i++] = max;
    for (let k = qs.length - 1; k >= 0 && qs[k] >= 1; k--) out[k] = this.max;
    return out;
  }

  /**
   * For each ascending bound, the number of values in bins lying entirely at or below it (for
   * bounds on bin edges, such as the default ones: the values below the bound).
   */
  cumulativeCounts(bounds: readonly number[]): number[] {
    return Array.from(this.cumulativeInto(bounds, new Float64Array(bounds.length)));
  }

  /**
   * {@linkcode LogLinearCounts.cumulativeCounts} written into `out` (at least `bounds.length`
   * long), without allocating: a renderer reuses one array for every histogram. Returns `out`.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { LogLinearCounts } from "./log_linear.ts";
   * const c = new LogLinearCounts();
   * c.record(0);
   * c.record(7);
   * assert.deepEqual([...c.cumulativeInto([1, 10], new Float64Array(2))], [1, 2]);
   * ```
   */
  cumulativeInto(bounds: readonly number[], out: Float64Array): Float64Array {
    const n = bounds.length;
    out.fill(0, 0, n);
    if (n === 0 || this.count === 0) return out;
    let j = 0;
    if (this.#zero > 0) {
      while (j < n && bounds[j] < 0) j++;
      if (j < n) out[j] += this.#zero;
    }
    const bins = this.#bins;
    if (bins !== null) {
      for (let b = 0; b < bins.length && j < n; b += 2) {
        const i = Math.floor(bins[b] / DECADE_BINS);
        const upper = edge(bins[b] - i * DECADE_BINS + 11, i + MIN_EXP);
        while (j < n && bounds[j] < upper) j++;
        if (j < n) out[j] += bins[b + 1];
      }
    }
    for (let k = 1; k < n; k++) out[k] += out[k - 1];
    return out;
  }
}
