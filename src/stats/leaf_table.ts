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

  /** A template of `size` slots over `index` (the empty template by default). */
  constructor(
    readonly index: Map<string, number> = new Map(),
    readonly size: number = 0,
  ) {}

  /** The slot of `leaf`, or -1. */
  indexOf(leaf: string): number {
    const i = this.index.get(leaf);
    return i !== undefined && i < this.size ? i : -1;
  }

  /** This template plus `leaf` in the next slot; null when this one branched too often. */
  with(leaf: string): LeafTemplate | null {
    let t = this.#next?.get(leaf);
    if (t !== undefined) return t;
    const next = this.#next ??= new Map();
    let index = this.index;
    if (index.size !== this.size) {
      // Another extension already owns the shared map's tail: branch with a copy.
      if (next.size >= MAX_BRANCHES) return null;
      index = new Map();
      for (const [k, i] of this.index) if (i < this.size) index.set(k, i);
    }
    index.set(leaf, this.size);
    t = new LeafTemplate(index, this.size + 1);
    next.set(leaf, t);
    return t;
  }
}

/**
 * Items of one scope by leaf.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * const t = new LeafTable<number>(new LeafTemplate());
 * t.add("x", 1);
 * assert.deepEqual([...t.values()], [1]);
 * ```
 */
export class LeafTable<T> {
  #template: LeafTemplate | null;
  #items: T[] = [];
  #own: Map<string, T> | null = null;

  /** An empty table whose template chain starts at `root`. */
  constructor(root: LeafTemplate) {
    this.#template = root;
  }

  /** The item of `leaf`, if any. */
  get(leaf: string): T | undefined {
    if (this.#own !== null) return this.#own.get(leaf);
    const i = this.#template!.indexOf(leaf);
    return i < 0 ? undefined : this.#items[i];
  }

  /** Adds `item` for `leaf`, which the table does not hold yet. */
  add(leaf: string, item: T): void {
    if (this.#own === null) {
      const t = this.#template!;
      const next = t.with(leaf);
      if (next !== null) {
        this.#template = next;
        this.#items.push(item);
        return;
      }
      const own = new Map<string, T>();
      for (const [k, i] of t.index) if (i < t.size) own.set(k, this.#items[i]);
      this.#own = own;
      this.#template = null;
      this.#items = [];
    }
    this.#own.set(leaf, item);
  }

  /** The items in insertion order. */
  values(): Iterable<T> {
    return this.#own !== null ? this.#own.values() : this.#items;
  }
}
