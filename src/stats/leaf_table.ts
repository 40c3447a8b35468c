/**
 * Stats of one scope found by their last name segment, with the leaf-to-slot map shared between
 * scopes: every cluster creates the same stats in the same order, so 10,000 clusters share one
 * {@linkcode LeafTemplate} chain and each keeps only an array of its stats (the way V8 shares
 * hidden classes between objects built alike). A scope whose stats diverge from every template
 * after many branches gets a map of its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * const root = new LeafTemplate();
 * const a = new LeafTable<string>(root), b = new LeafTable<string>(root);
 * a.add("rq_total", "a.rq_total");
 * b.add("rq_total", "b.rq_total");
 * assert.equal(a.get("rq_total"), "a.rq_total");
 * assert.equal(b.get("rq_total"), "b.rq_total");
 * assert.equal(a.get("cx_total"), undefined);
 * ```
 * @module
 */
import type { StatBlock } from "./stat_name.ts";
import type { CounterWriter } from "./counter_slots.ts";
import { appended, EMPTY } from "./small_list.ts";

/** Branches a template may grow before a diverging table falls back to a map of its own. */
const MAX_BRANCHES = 8;

/**
 * Which leaf sits in which slot, for every table that added the same leaves in the same order.
 * Templates extended one after another share one map: an entry belongs to a template when its
 * slot is below the template's size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTemplate } from "./leaf_table.ts";
 * const t = new LeafTemplate().with("a")!.with("b")!;
 * assert.equal(t.indexOf("b"), 1);
 * assert.equal(t.indexOf("c"), -1);
 * ```
 */
export class LeafTemplate {
  #next: Map<string, LeafTemplate> | null = null;
  #leafOrder: number[] | null = null;

  /**
   * A template of `size` slots over `index` and `leaves` (the leaf of each slot, shared the same
   * way as `index`); the empty template by default.
   */
  constructor(
    readonly index: Map<string, number> = new Map(),
    readonly size: number = 0,
    readonly leaves: string[] = [],
  ) {}

  /** The slot of `leaf`, or -1. */
  indexOf(leaf: string): number {
    const i = this.index.get(leaf);
    return i !== undefined && i < this.size ? i : -1;
  }

  /** The slots in code-unit order of their leaves, made once per template. */
  leafOrder(): readonly number[] {
    return this.#leafOrder ??= leafOrderOf(this.leaves, this.size);
  }

  /** This template plus `leaf` in the next slot; null when this one branched too often. */
  with(leaf: string): LeafTemplate | null {
    let t = this.#next?.get(leaf);
    if (t !== undefined) return t;
    const next = this.#next ??= new Map();
    let index = this.index, leaves = this.leaves;
    if (index.size !== this.size) {
      // Another extension already owns the shared map's tail: branch with a copy.
      if (next.size >= MAX_BRANCHES) return null;
      index = new Map();
      for (const [k, i] of this.index) if (i < this.size) index.set(k, i);
      leaves = leaves.slice(0, this.size);
    }
    index.set(leaf, this.size);
    leaves.push(leaf);
    t = new LeafTemplate(index, this.size + 1, leaves);
    next.set(leaf, t);
    return t;
  }
}

/**
 * Items of one scope by leaf, each at an index (its insertion position) that never changes. The
 * table is also the block its stats keep their name and per-kind values in (see
 * `stat_name.ts`): `head` is the scope's name head; `labels` and `writer` are filled by the
 * Prometheus index and the store.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * const t = new LeafTable<number>(new LeafTemplate(), "cluster.web.");
 * t.add("x", 1);
 * assert.deepEqual([...t.values()], [1]);
 * assert.equal(t.leafAt(0), "x");
 * ```
 */
export class LeafTable<T> implements StatBlock {
  #template: LeafTemplate | null;
  #items: T[] = EMPTY as never[];
  /** Index by leaf and leaf by index, once the table left the templates. */
  #own: { index: Map<string, number>; leaves: string[]; order: number[] | null } | null = null;
  /** The leaf of each index: the template's shared list, or the own one. */
  #leafList: readonly string[];
  /** Prometheus label text per index (see `NamedStat.promLabels`). */
  labels: Array<string | undefined> | null = null;
  /** The label text of a cluster's stats (see `StatBlock.promCluster`). */
  promCluster: string | undefined = undefined;
  /** Stats of a cluster's scope with labels of their own: `index, text` pairs. */
  labelPairs: Array<number | string> | null = null;
  /** Position of `head` among the store's heads in name order; -1 when not known. */
  rank = -1;
  /** What the Prometheus index keeps about this scope (see `StatBlock.promRest`). */
  promRest: unknown = undefined;
  /** The counter storage of this thread, for a table of counters. */
  writer: CounterWriter | null = null;

  /** An empty table whose template chain starts at `root`, holding stats named `head<leaf>`. */
  constructor(root: LeafTemplate, readonly head: string = "") {
    this.#template = root;
    this.#leafList = root.leaves;
  }

  /** Number of items; the next item added gets this index. */
  get size(): number {
    return this.#items.length;
  }

  /** The item of `leaf`, if any. */
  get(leaf: string): T | undefined {
    const i = this.indexOf(leaf);
    return i < 0 ? undefined : this.#items[i];
  }

  /** The index of `leaf`, or -1. */
  indexOf(leaf: string): number {
    return this.#own !== null ? this.#own.index.get(leaf) ?? -1 : this.#template!.indexOf(leaf);
  }

  /** The leaf of the item at `index`. */
  leafAt(index: number): string {
    return this.#leafList[index];
  }

  /** The item at `index`. */
  at(index: number): T {
    return this.#items[index];
  }

  /**
   * The indexes in code-unit order of their leaves: the template's (shared by every table built
   * alike), or the table's own.
   */
  leafOrder(): readonly number[] {
    const own = this.#own;
    if (own === null) return this.#template!.leafOrder();
    if (own.order === null || own.order.length !== this.#items.length) {
      own.order = leafOrderOf(own.leaves, this.#items.length);
    }
    return own.order;
  }

  /** Adds `item` for `leaf`, which the table does not hold yet, at index `size`. */
  add(leaf: string, item: T): void {
    if (this.#own === null) {
      const t = this.#template!;
      const next = t.with(leaf);
      if (next !== null) {
        this.#template = next;
        this.#leafList = next.leaves;
        this.#items = appended(this.#items, item);
        return;
      }
      const index = new Map<string, number>();
      for (const [k, i] of t.index) if (i < t.size) index.set(k, i);
      this.#own = { index, leaves: t.leaves.slice(0, t.size), order: null };
      this.#leafList = this.#own.leaves;
      this.#template = null;
    }
    this.#own.index.set(leaf, this.#items.length);
    this.#own.leaves.push(leaf);
    this.#items = appended(this.#items, item);
  }

  /** The items in insertion order. */
  values(): Iterable<T> {
    return this.#items;
  }
}

/** The indexes `0 .. size - 1` of `leaves` in code-unit order of the leaves. */
function leafOrderOf(leaves: readonly string[], size: number): number[] {
  const order = Array.from({ length: size }, (_, i) => i);
  return order.sort((a, b) => (leaves[a] < leaves[b] ? -1 : leaves[a] > leaves[b] ? 1 : a - b));
}
