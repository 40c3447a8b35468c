/**
 * The stats store: the root {@linkcode Scope} that creates and owns every stat, records
 * by-name lookups for `/stats/recentlookups`, flushes histograms, resets counters and keeps the
 * sorted views the admin renderers stream from.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * const store = new Store();
 * store.scope("cluster").scope("web").counter("upstream_rq_total").inc();
 * assert.equal(store.counter("cluster.web.upstream_rq_total").value(), 1);
 * ```
 * @module
 */
import type { HistogramUnit, Scope } from "./types.ts";
import { CounterImpl, GaugeImpl, TextReadoutImpl } from "./metrics.ts";
import { HistogramImpl } from "./histogram.ts";
import { CounterArena } from "./counter_slots.ts";
import { RECENT_LOOKUPS_CAPACITY, RecentLookups } from "./recent_lookups.ts";
import { NameTrie } from "./name_trie.ts";
import { PrometheusIndex } from "./prometheus_index.ts";
import { DEFAULT_BUCKETS } from "./histogram_settings.ts";

/** Options of a {@linkcode Store}. */
export interface StoreOptions {
  /** Upper bounds for `histogram_buckets` and Prometheus output (default: Envoy's 19 bounds). */
  histogramBuckets?: readonly number[];
  /** Worker regions in the shared counter storage (default 1). */
  workers?: number;
  /** Names kept by recent-lookup collection (default 100). */
  recentLookupsCapacity?: number;
}

/** A counter or a gauge (they are listed together, sorted by name). */
export type NumericStat = CounterImpl | GaugeImpl;

/** Any stat of the store. */
export type AnyStat = CounterImpl | GaugeImpl | HistogramImpl | TextReadoutImpl;

function join(prefix: string, name: string): string {
  return prefix === "" ? name : name === "" ? prefix : `${prefix}.${name}`;
}

/**
 * The root of all stats.
 *
 * @example
 * ```ts
 * import { Store } from "./store.ts";
 * const store = new Store({ histogramBuckets: [1, 10, 100] });
 * store.histogram("h").record(5);
 * store.flush();
 * store.resetCounters();
 * ```
 */
export class Store implements Scope {
  /** The root has no prefix. */
  readonly prefix = "";
  /** Histogram bucket upper bounds, ascending. */
  readonly bucketBounds: readonly number[];
  /** Recent-lookup tracking. */
  readonly recentLookups: RecentLookups;
  /** Shared counter storage. */
  readonly arena: CounterArena;
  #counters = new Map<string, CounterImpl>();
  #gauges = new Map<string, GaugeImpl>();
  #histograms = new Map<string, HistogramImpl>();
  #texts = new Map<string, TextReadoutImpl>();
  #numericSorted = new NameTrie<NumericStat>();
  #histSorted = new NameTrie<HistogramImpl>();
  #textSorted = new NameTrie<TextReadoutImpl>();
  #flushHooks: Array<() => void> = [];
  /** Prometheus families per type. */
  readonly prometheus = {
    counters: new PrometheusIndex<CounterImpl>(),
    gauges: new PrometheusIndex<GaugeImpl>(),
    texts: new PrometheusIndex<TextReadoutImpl>(),
    histograms: new PrometheusIndex<HistogramImpl>(),
  };

  /** Creates an empty store. */
  constructor(options: StoreOptions = {}) {
    const bounds = options.histogramBuckets ?? DEFAULT_BUCKETS;
    if (bounds.some((b, i) => !(b > 0) || !Number.isFinite(b) || (i > 0 && b <= bounds[i - 1]))) {
      throw new RangeError(`histogram bucket bounds must be positive and ascending: ${bounds}`);
    }
    this.bucketBounds = [...bounds];
    this.arena = new CounterArena(options.workers ?? 1);
    this.recentLookups = new RecentLookups(
      options.recentLookupsCapacity ?? RECENT_LOOKUPS_CAPACITY,
    );
  }

  /** The stat named `name` in `stats`, made, sorted and indexed on first use. */
  #lookup<T extends AnyStat>(
    stats: Map<string, T>,
    name: string,
    make: () => T,
    sorted: { add(stat: NoInfer<T>): void },
    prometheus: PrometheusIndex<T>,
  ): T {
    this.recentLookups.lookup(name);
    let s = stats.get(name);
    if (s === undefined) {
      stats.set(name, s = make());
      sorted.add(s);
      prometheus.add(s);
    }
    return s;
  }

  /** The counter named `name`, created on first use. */
  counter(name: string): CounterImpl {
    const make = () => new CounterImpl(name, this.arena);
    return this.#lookup(this.#counters, name, make, this.#numericSorted, this.prometheus.counters);
  }

  /** The gauge named `name`, created on first use. */
  gauge(name: string): GaugeImpl {
    const make = () => new GaugeImpl(name);
    return this.#lookup(this.#gauges, name, make, this.#numericSorted, this.prometheus.gauges);
  }

  /** The histogram named `name`, created on first use with `unit`. */
  histogram(name: string, unit: HistogramUnit = "unspecified"): HistogramImpl {
    const make = () => new HistogramImpl(name, unit);
    return this.#lookup(this.#histograms, name, make, this.#histSorted, this.prometheus.histograms);
  }

  /** The text readout named `name`, created on first use. */
  textReadout(name: string): TextReadoutImpl {
    const make = () => new TextReadoutImpl(name);
    return this.#lookup(this.#texts, name, make, this.#textSorted, this.prometheus.texts);
  }

  /** A child scope: its stats are named `<name>.<stat>`. */
  scope(name: string): Scope {
    return new ChildScope(this, name);
  }

  /** Counters and gauges, sorted by name together (a snapshot). */
  sortedNumeric(): readonly NumericStat[] {
    return this.#numericSorted.sorted();
  }

  /** Histograms sorted by name (a snapshot). */
  sortedHistograms(): readonly HistogramImpl[] {
    return this.#histSorted.sorted();
  }

  /** Text readouts sorted by name (a snapshot). */
  sortedTextReadouts(): readonly TextReadoutImpl[] {
    return this.#textSorted.sorted();
  }

  /**
   * Does at most about `budget` items of pending index work (sorting new stats; with
   * `prometheus`, also tag extraction); true when all of it is done. A render that calls this
   * between event-loop turns first never blocks for long after many stats were created.
   */
  settle(budget: number, prometheus = false): boolean {
    const steps: Array<() => boolean> = [
      () => (this.#textSorted.sorted(), true),
      () => (this.#numericSorted.sorted(), true),
      () => (this.#histSorted.sorted(), true),
    ];
    if (prometheus) {
      const p = this.prometheus;
      steps.push(
        () => p.texts.settle(budget),
        () => p.counters.settle(budget),
        () => p.gauges.settle(budget),
        () => p.histograms.settle(budget),
      );
    }
    for (const step of steps) if (!step()) return false;
    return true;
  }

  /**
   * Finishes all pending index work in slices of `budget`, with an event-loop turn between
   * slices. The server can start it after loading the configuration so that the first `/stats`
   * (or, with `prometheus`, the first Prometheus scrape) does not pay for it.
   */
  async settleInBackground(prometheus = false, budget = 50_000): Promise<void> {
    while (!this.settle(budget, prometheus)) await new Promise((r) => setTimeout(r, 0));
  }

  /** Number of stats of every type. */
  get size(): number {
    return this.#counters.size + this.#gauges.size + this.#histograms.size + this.#texts.size;
  }

  /** Registers a function that runs at the start of every {@linkcode Store.flush}. */
  onFlush(hook: () => void): () => void {
    this.#flushHooks.push(hook);
    return () => {
      this.#flushHooks = this.#flushHooks.filter((h) => h !== hook);
    };
  }

  /**
   * Runs the flush hooks, then closes every histogram's interval. A hook that throws does not
   * stop the flush: the error is reported on stderr and the other hooks still run.
   */
  flush(): void {
    for (const hook of this.#flushHooks) {
      try {
        hook();
      } catch (e) {
        console.error(`stats flush hook failed: ${e instanceof Error ? e.message : e}`);
      }
    }
    for (const h of this.#histograms.values()) h.flush();
  }

  /** Sets every counter to 0 (`/reset_counters`); gauges, histograms and readouts stay. */
  resetCounters(): void {
    for (const c of this.#counters.values()) c.reset();
  }
}

class ChildScope implements Scope {
  constructor(readonly root: Store, readonly prefix: string) {}
  counter(name: string) {
    return this.root.counter(join(this.prefix, name));
  }
  gauge(name: string) {
    return this.root.gauge(join(this.prefix, name));
  }
  histogram(name: string, unit?: HistogramUnit) {
    return this.root.histogram(join(this.prefix, name), unit);
  }
  textReadout(name: string) {
    return this.root.textReadout(join(this.prefix, name));
  }
  scope(name: string): Scope {
    return new ChildScope(this.root, join(this.prefix, name));
  }
}
