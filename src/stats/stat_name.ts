/**
 * How a stat holds its name without a string of its own: a head shared by every stat of the same
 * scope (the name up to and including its last dot, e.g. `cluster.web.`) and a leaf shared by
 * every stat with the same last segment (e.g. `upstream_rq_total`). The full name is built only
 * when asked for; {@linkcode compareStatNames} orders stats by full name without building it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamedStat } from "./stat_name.ts";
 * class Demo extends NamedStat {}
 * const s = new Demo("upstream_rq_total", "cluster.web.");
 * assert.equal(s.name, "cluster.web.upstream_rq_total");
 * ```
 * @module
 */

import { appended } from "./small_list.ts";

/**
 * Where a stat's name and per-kind state live: the stats of one scope and kind share one block
 * (a `LeafTable`), each at its own index, so a stat object is only a block and an index.
 */
export interface StatBlock {
  /** The shared head of the names (`""` or a prefix ending in a dot). */
  readonly head: string;
  /** The leaf of the stat at `index`. */
  leafAt(index: number): string;
  /** Prometheus label text per index, once the Prometheus index grouped the stat. */
  labels: Array<string | undefined> | null;
  /**
   * For a cluster's scope: the label text its stats carry unless listed in `labelPairs`
   * (`index, text` pairs, or `~index, own` pairs for `own` followed by this label); `labels` is
   * then not used.
   */
  promCluster?: string | undefined;
  /** See `promCluster`. */
  labelPairs?: Array<number | string> | null;
  /** Position of `head` among the heads of the store in name order; -1 when not known. */
  rank?: number;
  /** What the Prometheus index keeps about a cluster's scope (see `prometheus_index.ts`). */
  promRest?: unknown;
}

/** The block of a stat made on its own (not by a store): one leaf. */
class SoloBlock implements StatBlock {
  labels: Array<string | undefined> | null = null;
  constructor(readonly head: string, readonly leaf: string) {}
  leafAt(): string {
    return this.leaf;
  }
}

/**
 * A stat's name as head and leaf.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NamedStat } from "./stat_name.ts";
 * class Demo extends NamedStat {}
 * const s = new Demo("server.live");
 * assert.equal(s.nameHead, "");
 * assert.equal(s.name, "server.live");
 * ```
 */
export abstract class NamedStat {
  /** The block holding this stat's name and state. */
  readonly block: StatBlock;
  /** This stat's index in `block`. */
  readonly index: number;

  /**
   * A stat named `head + leaf` (with `head` omitted: named `leaf`), or, with `block`, the stat at
   * `index` of `block` (then `leaf` and `head` are not used).
   */
  constructor(leaf: string, head = "", block?: StatBlock, index = 0) {
    this.block = block ?? new SoloBlock(head, leaf);
    this.index = block === undefined ? 0 : index;
  }

  /** The shared head of the name (`""` when the whole name is the leaf). */
  get nameHead(): string {
    return this.block.head;
  }

  /** The rest of the name. */
  get nameLeaf(): string {
    return this.block.leafAt(this.index);
  }

  /** The Prometheus label text, set by the Prometheus index when it first groups this stat. */
  get promLabels(): string | undefined {
    const b = this.block;
    const cluster = b.promCluster;
    if (cluster === undefined) return b.labels?.[this.index];
    const k = labelPairOf(b, this.index);
    if (k < 0) return cluster;
    const pairs = b.labelPairs!;
    return pairs[k] === this.index ? pairs[k + 1] as string : `${pairs[k + 1]},${cluster}`;
  }

  set promLabels(text: string | undefined) {
    const b = this.block;
    if (b.promCluster !== undefined) {
      if (text === b.promCluster) return;
      setPair(b, this.index, this.index, text!);
      return;
    }
    const labels = b.labels ??= [];
    // Filled in order, so the array stays a packed one.
    while (labels.length < this.index) labels.push(undefined);
    labels[this.index] = text;
  }

  /**
   * For a stat of a cluster's scope (`block.promCluster` set): its label text is `own` followed
   * by the cluster's label. Only `own` (shared by the stats of every cluster with this leaf) is
   * kept; the text is joined when asked for.
   */
  setOwnLabels(own: string): void {
    if (own === "") this.promLabels = this.block.promCluster;
    else setPair(this.block, this.index, ~this.index, own);
  }

  /** The full name. */
  get name(): string {
    const head = this.block.head, leaf = this.block.leafAt(this.index);
    return head === "" ? leaf : head + leaf;
  }
}

/**
 * Where the label pair of the stat at `index` of a cluster's block `b` (`b.promCluster` set) is in
 * `b.labelPairs`, or -1 when the stat carries the cluster's label alone. At the position found,
 * `index` means the text that follows is the stat's whole label text, `~index` that it comes
 * before the cluster's label (see {@linkcode NamedStat.promLabels}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * import { labelPairOf } from "./stat_name.ts";
 * const t = new LeafTable<string>(new LeafTemplate(), "cluster.web.");
 * t.promCluster = 'proxy_cluster_name="web"';
 * t.labelPairs = [~1, 'proxy_response_code="200"'];
 * assert.equal(labelPairOf(t, 0), -1);
 * assert.equal(labelPairOf(t, 1), 0);
 * ```
 */
export function labelPairOf(b: StatBlock, index: number): number {
  const pairs = b.labelPairs;
  if (pairs == null) return -1;
  for (let k = 0; k < pairs.length; k += 2) {
    if (pairs[k] === index || pairs[k] === ~index) return k;
  }
  return -1;
}

/**
 * Records `key, text` in `b`'s label pairs, replacing the entry of the stat at index `i` if
 * there is one. (A function, not a private method: a class with private methods gives each of
 * its instances one more slot, and a store has a million stats.)
 */
function setPair(b: StatBlock, i: number, key: number, text: string): void {
  const k = labelPairOf(b, i);
  if (k >= 0) {
    b.labelPairs![k] = key;
    b.labelPairs![k + 1] = text;
    return;
  }
  b.labelPairs = appended(appended(b.labelPairs ?? [], key), text);
}

/**
 * Compares `h1 + l1` with `h2 + l2` in code-unit order without concatenating.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareNameParts } from "./stat_name.ts";
 * assert.equal(compareNameParts("a.", "b", "a.b", "x"), -1); // "a.b" < "a.bx"
 * assert.equal(compareNameParts("a-", "z", "a.", "b"), -1);
 * ```
 */
export function compareNameParts(h1: string, l1: string, h2: string, l2: string): number {
  if (h1 === h2) return l1 < l2 ? -1 : l1 > l2 ? 1 : 0;
  const n1 = h1.length + l1.length, n2 = h2.length + l2.length;
  const short = Math.min(h1.length, h2.length);
  if (!(h1.length <= h2.length ? h2.startsWith(h1) : h1.startsWith(h2))) return h1 < h2 ? -1 : 1;
  // One head is a prefix of the other: compare the rest code unit by code unit.
  for (let i = short; i < n1 && i < n2; i++) {
    const c1 = i < h1.length ? h1.charCodeAt(i) : l1.charCodeAt(i - h1.length);
    const c2 = i < h2.length ? h2.charCodeAt(i) : l2.charCodeAt(i - h2.length);
    if (c1 !== c2) return c1 < c2 ? -1 : 1;
  }
  return n1 < n2 ? -1 : n1 > n2 ? 1 : 0;
}

/**
 * Compares two stats by full name in code-unit order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareStatNames, NamedStat } from "./stat_name.ts";
 * class Demo extends NamedStat {}
 * assert.equal(compareStatNames(new Demo("b", "x."), new Demo("a.c")), 1);
 * ```
 */
export function compareStatNames(a: NamedStat, b: NamedStat): number {
  return compareNameParts(a.nameHead, a.nameLeaf, b.nameHead, b.nameLeaf);
}
