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
import { CounterImpl, GaugeImpl, TextReadoutImpl, writerOf } from "./metrics.ts";
import { HistogramImpl } from "./histogram.ts";
import { CounterArena, type CounterWriter } from "./counter_slots.ts";
import { RECENT_LOOKUPS_CAPACITY, RecentLookups } from "./recent_lookups.ts";
import { NameTrie, type TrieBlock } from "./name_trie.ts";
import { newSharedLabels, PrometheusIndex } from "./prometheus_index.ts";
import { DEFAULT_BUCKETS } from "./histogram_settings.ts";
import { LeafTable, LeafTemplate } from "./leaf_table.ts";
import { SteppedSort } from "./stepped_sort.ts";

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

/**
 * Which pending index work {@linkcode Store.settle} does: the name order (`false`), the name
 * order and the Prometheus families (`true`), or the Prometheus families only (`"only"`).
 */
export type Settles = boolean | "only";

/** Index work between two event-loop turns, in milliseconds (see `Store.settleFor`). */
export const SETTLE_SLICE_MS = 8;

function byHeadName(a: StatHead, b: StatHead): number {
  return a.head < b.head ? -1 : a.head > b.head ? 1 : 0;
}

function join(prefix: string, name: string): string {
  return prefix === "" ? name : name === "" ? prefix : `${prefix}.${name}`;
}

/**
 * The stats whose names share one head: everything up to and including the last dot
 * (`cluster.web.`), or `""` for names without a dot. Stats are found by the rest of the name.
 */
export class StatHead {
  /** Counters by leaf. */
  counters: LeafTable<CounterImpl> | undefined = undefined;
  /** Gauges by leaf. */
  gauges: LeafTable<GaugeImpl> | undefined = undefined;
  /** Histograms by leaf. */
  histograms: LeafTable<HistogramImpl> | undefined = undefined;
  /** Text readouts by leaf. */
  texts: LeafTable<TextReadoutImpl> | undefined = undefined;

  /** The stats under `head`. */
  constructor(readonly head: string) {}
}

type Kinds = {
  counters: CounterImpl;
  gauges: GaugeImpl;
  histograms: HistogramImpl;
  texts: TextReadoutImpl;
};

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
  #heads = new Map<string, StatHead>();
  /** This thread's writer of the counter storage. */
  #writer: CounterWriter;
  /** One string per distinct leaf, shared by every stat with that leaf. */
  #leaves = new Map<string, string>();
  #templates: { [K in keyof Kinds]: LeafTemplate } = {
    counters: new LeafTemplate(),
    gauges: new LeafTemplate(),
    histograms: new LeafTemplate(),
    texts: new LeafTemplate(),
  };
  #histogramList: HistogramImpl[] = [];
  #size = 0;
  #numericSorted = new NameTrie<NumericStat>();
  #histSorted = new NameTrie<HistogramImpl>();
  #textSorted = new NameTrie<TextReadoutImpl>();
  #flushHooks: Array<() => void> = [];
  /** Label texts the Prometheus indexes share. */
  #labels = newSharedLabels();
  /** Heads were added since blocks were last ranked. */
  #unranked = false;
  /** A ranking under way (see {@linkcode Store.settle}): the heads and their sort. */
  #ranking: { heads: StatHead[]; sort: SteppedSort } | null = null;
  /** Sets every block's rank (see {@linkcode Store.rankHeads}). */
  #ranker = () => this.rankHeads();
  /** Prometheus families per type. */
  readonly prometheus = {
    counters: new PrometheusIndex<CounterImpl>(this.#ranker, this.#labels),
    gauges: new PrometheusIndex<GaugeImpl>(this.#ranker, this.#labels),
    texts: new PrometheusIndex<TextReadoutImpl>(this.#ranker, this.#labels),
    histograms: new PrometheusIndex<HistogramImpl>(this.#ranker, this.#labels),
  };

  /** Creates an empty store. */
  constructor(options: StoreOptions = {}) {
    const bounds = options.histogramBuckets ?? DEFAULT_BUCKETS;
    if (bounds.some((b, i) => !(b > 0) || !Number.isFinite(b) || (i > 0 && b <= bounds[i - 1]))) {
      throw new RangeError(`histogram bucket bounds must be positive and ascending: ${bounds}`);
    }
    this.bucketBounds = [...bounds];
    this.arena = new CounterArena(options.workers ?? 1);
    this.#writer = writerOf(this.arena, 0);
    this.recentLookups = new RecentLookups(
      options.recentLookupsCapacity ?? RECENT_LOOKUPS_CAPACITY,
    );
  }

  /** The head object of names starting with `head` (`""` or a prefix ending in a dot). */
  head(head: string): StatHead {
    let h = this.#heads.get(head);
    if (h === undefined) {
      this.#heads.set(head, h = new StatHead(head));
      this.#unranked = true;
    }
    return h;
  }

  /**
   * Gives every block the position of its head among all heads in code-unit order (one sort of
   * the heads, redone only after heads were added), which the Prometheus index sorts new
   * members by before it compares their names.
   */
  rankHeads(): void {
    if (!this.#unranked) return;
    this.#ranking = null;
    const heads = [...this.#heads.values()];
    this.#setRanks(heads, heads.map((_, i) => i).sort((a, b) => byHeadName(heads[a], heads[b])));
  }

  /**
   * Does about `budget` moves of ranking the heads ({@linkcode Store.rankHeads} in steps, so
   * that sorting the 30,000 heads of 10,000 clusters is not one long stretch); true when done.
   * A sort under way is begun again when heads were added since.
   */
  #rankStep(budget: number): boolean {
    if (!this.#unranked) return true;
    let r = this.#ranking;
    if (r === null || r.heads.length !== this.#heads.size) {
      const heads = [...this.#heads.values()];
      r = this.#ranking = { heads, sort: new SteppedSort(heads.map((h) => h.head)) };
    }
    if (!r.sort.step(budget)) return false;
    this.#ranking = null;
    this.#setRanks(r.heads, r.sort.perm);
    return true;
  }

  /** Gives the blocks of `heads[order[r]]` rank `r`. */
  #setRanks(heads: readonly StatHead[], order: ArrayLike<number>): void {
    this.#unranked = false;
    for (let r = 0; r < order.length; r++) {
      const h = heads[order[r]];
      if (h.counters !== undefined) h.counters.rank = r;
      if (h.gauges !== undefined) h.gauges.rank = r;
      if (h.histograms !== undefined) h.histograms.rank = r;
      if (h.texts !== undefined) h.texts.rank = r;
    }
  }

  /** The head object and leaf of a full name. */
  #split(name: string): [StatHead, string] {
    const dot = name.lastIndexOf(".");
    return dot < 0
      ? [this.head(""), name]
      : [this.head(name.slice(0, dot + 1)), name.slice(dot + 1)];
  }

  /** The stat `leaf` of kind `kind` under `h`, made, sorted and indexed on first use. */
  #at<K extends keyof Kinds>(
    h: StatHead,
    kind: K,
    leaf: string,
    make: (table: LeafTable<Kinds[K]>, index: number) => Kinds[K],
    sorted: { addToBlock(block: TrieBlock<Kinds[K]>): void },
    prometheus: PrometheusIndex<Kinds[K]>,
  ): Kinds[K] {
    const r = this.recentLookups;
    // The full name is built only while names are collected; otherwise only the total counts.
    r.lookup(r.enabled ? h.head + leaf : "");
    let table = h[kind] as LeafTable<Kinds[K]> | undefined;
    if (table === undefined) {
      table = new LeafTable<Kinds[K]>(this.#templates[kind], h.head);
      this.#unranked = true;
      if (kind === "counters") table.writer = this.#writer;
      (h as unknown as Record<K, LeafTable<Kinds[K]>>)[kind] = table;
    }
    let s = table.get(leaf);
    if (s === undefined) {
      let shared = this.#leaves.get(leaf);
      if (shared === undefined) this.#leaves.set(leaf, shared = leaf);
      const index = table.size;
      table.add(shared, s = make(table, index));
      this.#size++;
      sorted.addToBlock(table);
      prometheus.add(s);
    }
    return s;
  }

  /** The counter `h.head + leaf` (`leaf` without dots), created on first use. */
  counterAt(h: StatHead, leaf: string): CounterImpl {
    const make = (t: LeafTable<CounterImpl>, i: number) =>
      new CounterImpl("", this.arena, 0, "", t, i);
    return this.#at(h, "counters", leaf, make, this.#numericSorted, this.prometheus.counters);
  }

  /** The gauge `h.head + leaf` (`leaf` without dots), created on first use. */
  gaugeAt(h: StatHead, leaf: string): GaugeImpl {
    const make = (t: LeafTable<GaugeImpl>, i: number) => new GaugeImpl("", "", t, i);
    return this.#at(h, "gauges", leaf, make, this.#numericSorted, this.prometheus.gauges);
  }

  /** The histogram `h.head + leaf` (`leaf` without dots), created on first use with `unit`. */
  histogramAt(h: StatHead, leaf: string, unit: HistogramUnit = "unspecified"): HistogramImpl {
    const make = (t: LeafTable<HistogramImpl>, i: number) => {
      const made = new HistogramImpl("", unit, "", t, i);
      this.#histogramList.push(made);
      return made;
    };
    return this.#at(h, "histograms", leaf, make, this.#histSorted, this.prometheus.histograms);
  }

  /** The text readout `h.head + leaf` (`leaf` without dots), created on first use. */
  textReadoutAt(h: StatHead, leaf: string): TextReadoutImpl {
    const make = (t: LeafTable<TextReadoutImpl>, i: number) => new TextReadoutImpl("", "", t, i);
    return this.#at(h, "texts", leaf, make, this.#textSorted, this.prometheus.texts);
  }

  /** The counter named `name`, created on first use. */
  counter(name: string): CounterImpl {
    const [h, leaf] = this.#split(name);
    return this.counterAt(h, leaf);
  }

  /** The gauge named `name`, created on first use. */
  gauge(name: string): GaugeImpl {
    const [h, leaf] = this.#split(name);
    return this.gaugeAt(h, leaf);
  }

  /** The histogram named `name`, created on first use with `unit`. */
  histogram(name: string, unit: HistogramUnit = "unspecified"): HistogramImpl {
    const [h, leaf] = this.#split(name);
    return this.histogramAt(h, leaf, unit);
  }

  /** The text readout named `name`, created on first use. */
  textReadout(name: string): TextReadoutImpl {
    const [h, leaf] = this.#split(name);
    return this.textReadoutAt(h, leaf);
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
   * Does at most about `budget` items of pending index work (sorting new stats by name and, with
   * `flatten`, listing them in that order for a render; with `prometheus`, also sorting the
   * Prometheus families' new members; with `"only"`, only that); true when all of it is done. A
   * render that calls this between event-loop turns first never blocks for long after many stats
   * were created.
   */
  settle(budget: number, prometheus: Settles = false, flatten = true): boolean {
    const steps: Array<() => boolean> = prometheus === "only" ? [] : [
      () => this.#textSorted.settle(budget, flatten),
      () => this.#numericSorted.settle(budget, flatten),
      () => this.#histSorted.settle(budget, flatten),
    ];
    if (prometheus !== false) {
      const p = this.prometheus;
      steps.push(
        // Ranking the heads is done in steps of its own before the sorting it speeds up, so
        // that neither is one long stretch between two event-loop turns.
        () => {
          if (!this.#unranked || !Object.values(p).some((ix) => ix.pending)) return true;
          // Done, it still ends its step when the budget is smaller than the heads (the last
          // merge and giving each block its rank are about that many items).
          return this.#rankStep(budget) && this.#heads.size < budget;
        },
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
   * Does pending index work in steps of `step` items until all of it is done or about `ms`
   * milliseconds passed; true when all of it is done. Callers return to the event loop between
   * calls: a turn costs a few milliseconds of timer delay, so one turn per small step would
   * leave the process mostly idle while the work waits.
   */
  settleFor(ms: number, prometheus: Settles = false, step = 2_000, flatten = true): boolean {
    const start = performance.now();
    do {
      if (this.settle(step, prometheus, flatten)) return true;
    } while (performance.now() - start < ms);
    return false;
  }

  /**
   * Finishes the sorting in steps of `budget` items, returning to the event loop after about
   * {@linkcode SETTLE_SLICE_MS} of them. The server starts it after loading the configuration
   * so that the first `/stats` (or, with `prometheus`, the first Prometheus scrape) does not pay
   * for it. The name-ordered lists a render walks are made by the render (in slices too) and
   * not kept once no render holds them: an idle store holds no list of all its stats.
   */
  async settleInBackground(prometheus: Settles = false, budget = 2_000): Promise<void> {
    while (!this.settleFor(SETTLE_SLICE_MS, prometheus, budget, false)) {
      await new Promise((r) => setTimeout(r, 0));
    }
  }

  /** Number of stats of every type. */
  get size(): number {
    return this.#size;
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
    for (const h of this.#histogramList) h.flush();
  }

  /** Sets every counter to 0 (`/reset_counters`); gauges, histograms and readouts stay. */
  resetCounters(): void {
    for (const h of this.#heads.values()) {
      if (h.counters !== undefined) { for (const c of h.counters.values()) c.reset(); }
    }
  }
}

/** A name is a plain leaf when it is not empty and has no dot. */
function isLeaf(name: string): boolean {
  return name !== "" && !name.includes(".");
}

class ChildScope implements Scope {
  #head: StatHead | undefined = undefined;
  constructor(readonly root: Store, readonly prefix: string) {}
  /** The head of `<prefix>.<leaf>` names, found once. */
  get #h(): StatHead {
    return this.#head ??= this.root.head(this.prefix === "" ? "" : `${this.prefix}.`);
  }
  counter(name: string) {
    if (isLeaf(name)) return this.root.counterAt(this.#h, name);
    return this.root.counter(join(this.prefix, name));
  }
  gauge(name: string) {
    if (isLeaf(name)) return this.root.gaugeAt(this.#h, name);
    return this.root.gauge(join(this.prefix, name));
  }
  histogram(name: string, unit?: HistogramUnit) {
    if (isLeaf(name)) return this.root.histogramAt(this.#h, name, unit);
    return this.root.histogram(join(this.prefix, name), unit);
  }
  textReadout(name: string) {
    if (isLeaf(name)) return this.root.textReadoutAt(this.#h, name);
    return this.root.textReadout(join(this.prefix, name));
  }
  scope(name: string): Scope {
    return new ChildScope(this.root, join(this.prefix, name));
  }
}
