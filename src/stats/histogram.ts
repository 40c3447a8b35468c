/**
 * A histogram with three views: values recorded since the last flush (`active`), the values of
 * the last completed flush interval (`interval`) and everything flushed since start
 * (`cumulative`). `flush()` closes the interval, as Envoy's histogram merge does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * const h = new HistogramImpl("cluster.web.upstream_rq_time", "milliseconds");
 * h.record(12);
 * h.flush();
 * assert.equal(h.interval.count, 1);
 * ```
 * @module
 */
import type { Histogram, HistogramUnit } from "./types.ts";
import { LogLinearCounts } from "./log_linear.ts";
import { NamedStat, type StatBlock } from "./stat_name.ts";

/** The interval of histograms without values in it; never written. */
const EMPTY = new LogLinearCounts();

/**
 * The stats engine's histogram. A histogram without values since the last flush holds no counts
 * for them, and one whose last interval was empty shares one empty interval.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HistogramImpl } from "./histogram.ts";
 * const h = new HistogramImpl("h");
 * h.record(5);
 * h.flush();
 * assert.equal(h.cumulative.count, 1);
 * ```
 */
export class HistogramImpl extends NamedStat implements Histogram {
  /** Values since the last flush; null while there are none. */
  #active: LogLinearCounts | null = null;
  /** The last completed interval; the shared empty counts when it had no values. */
  #interval: LogLinearCounts = EMPTY;
  /** Everything flushed since start; only ever added to (it may share a closed interval's bins). */
  readonly cumulative: LogLinearCounts = new LogLinearCounts();

  /**
   * Creates a histogram named `head + name` whose values are in `unit`; with `block`, the
   * histogram at `index` of `block`.
   */
  constructor(
    name: string,
    readonly unit: HistogramUnit = "unspecified",
    head = "",
    block?: StatBlock,
    index = 0,
  ) {
    super(name, head, block, index);
  }

  /** Recorded into at least once since start. */
  get used(): boolean {
    return this.#active !== null || this.cumulative.count > 0;
  }

  /** The last completed flush interval. */
  get interval(): LogLinearCounts {
    return this.#interval;
  }

  /** Records one value (see {@linkcode LogLinearCounts.record} for odd values). */
  record(v: number): void {
    (this.#active ??= new LogLinearCounts()).record(v);
  }

  /** Adds values recorded elsewhere (another worker's interval) as if recorded here. */
  merge(counts: LogLinearCounts): void {
    if (counts.count === 0) return;
    (this.#active ??= new LogLinearCounts()).addFrom(counts);
  }

  /** Closes the interval: values since the last flush become the interval and join cumulative. */
  flush(): void {
    const done = this.#active;
    this.#active = null;
    this.#interval = done ?? EMPTY;
    // The closed interval is only read from now on, and cumulative is only added to.
    if (done !== null) this.cumulative.addFrom(done, true);
  }

  /** True when nothing was flushed yet: the text form prints `No recorded values`. */
  get empty(): boolean {
    return this.cumulative.count === 0;
  }
}
