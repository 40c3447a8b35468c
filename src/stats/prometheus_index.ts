/**
 * The grouping the Prometheus renderer needs: stats of one type grouped into metric families
 * (the sanitized, prefixed tag-extracted name), families sorted by name, members sorted by stat
 * name, each member's label text kept on the stat itself (`promLabels`, one string shared by
 * every stat with the same labels; a cluster's stats share its label through their block). Each
 * stat is grouped when it is created, so a first scrape only sorts the families' new members:
 * by the rank of their scope's head among all heads (counting, no comparisons), then by full
 * name (which then finds them nearly in order).
 *
 * A store's cluster stats are not listed one by one: the blocks (see `leaf_table.ts`) of the
 * scopes `cluster.<name>.<rest>` of one `rest` form a {@linkcode ClusterBlocks} group sorted by
 * head, and a family lists the group once per leaf; its members are the stats of that leaf in
 * each block of the group, in head order, which is their name order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GaugeImpl } from "./metrics.ts";
 * import { PrometheusIndex } from "./prometheus_index.ts";
 * const ix = new PrometheusIndex<GaugeImpl>();
 * ix.add(new GaugeImpl("cluster.a.upstream_cx_active"));
 * assert.equal(ix.families()[0].name, "proxy_cluster_upstream_cx_active");
 * ```
 * @module
 */
import { mergeSorted, SortedIndex } from "./sorted_index.ts";
import { extractTags } from "./tag_extraction.ts";
import { CLUSTER_NAME_TAG, clusterOfHead, leafTags } from "./cluster_tags.ts";
import { escapeLabelValue, prometheusName, sanitizePrometheus } from "./naming.ts";
import { compareStatNames, type NamedStat, type StatBlock } from "./stat_name.ts";

/**
 * A metric family: every stat with the same Prometheus name. Each member's `promLabels` holds
 * its label pairs without braces, e.g. `proxy_cluster_name="web"` (`""` when untagged).
 */
export interface Family<T extends NamedStat> {
  /** The Prometheus metric name. */
  name: string;
  /** The tag-extracted stat name (for `# HELP`). */
  extractedName: string;
  /** The stats, sorted by full name. */
  members: FamilyMembers<T>;
}

/** A block whose stats can be found by leaf (a store's `LeafTable`). */
export interface KeyedBlock<T> extends StatBlock {
  /** Number of stats, at indexes `0 .. size - 1`. */
  readonly size: number;
  /** The index of the stat of `leaf`, or -1. */
  indexOf(leaf: string): number;
  /** The stat at `index`. */
  at(index: number): T;
}

function keyed<T>(block: StatBlock): block is KeyedBlock<T> {
  return typeof (block as Partial<KeyedBlock<T>>).indexOf === "function";
}

function byHead(a: StatBlock, b: StatBlock): number {
  return a.head < b.head ? -1 : a.head > b.head ? 1 : 0;
}

/**
 * The blocks of one kind of stats under `cluster.<name>.<rest>` for one `rest`, sorted by head.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * import { ClusterBlocks } from "./prometheus_index.ts";
 * const g = new ClusterBlocks<string>();
 * for (const c of ["b", "a"]) g.add(new LeafTable<string>(new LeafTemplate(), `cluster.${c}.`));
 * assert.deepEqual(g.sorted().map((b) => b.head), ["cluster.a.", "cluster.b."]);
 * ```
 */
export class ClusterBlocks<T> {
  #sorted: KeyedBlock<T>[] = [];
  #pending: KeyedBlock<T>[] = [];
  /** The leaves families list from this group, in the order they were first seen. */
  readonly leaves: string[] = [];

  /** An empty group; `ranker`, when given, brings every block's `rank` up to date. */
  constructor(readonly ranker?: () => void) {}

  /** Adds a block, once. */
  add(block: KeyedBlock<T>): void {
    this.#pending.push(block);
  }

  /** Number of blocks not sorted yet. */
  get pending(): number {
    return this.#pending.length;
  }

  /** The blocks in head order (a snapshot: later additions build a new array). */
  sorted(): readonly KeyedBlock<T>[] {
    const p = this.#pending;
    if (p.length > 0) {
      this.#pending = [];
      if (p.length >= 64 && this.ranker !== undefined) {
        this.ranker();
        byRank(p, (b) => b.rank);
      }
      p.sort(byHead);
      const s = this.#sorted;
      this.#sorted = s.length === 0 ? p : mergeBlocks(s, p);
    }
    return this.#sorted;
  }
}

function mergeBlocks<B extends StatBlock>(a: readonly B[], b: readonly B[]): B[] {
  const out = new Array<B>(a.length + b.length);
  let i = 0, j = 0, k = 0;
  while (i < a.length && j < b.length) out[k++] = byHead(b[j], a[i]) < 0 ? b[j++] : a[i++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/**
 * The members of a family: stats listed one by one, and groups of cluster blocks each
 * contributing its stats of one leaf.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GaugeImpl } from "./metrics.ts";
 * import { FamilyMembers } from "./prometheus_index.ts";
 * const m = new FamilyMembers<GaugeImpl>();
 * m.add(new GaugeImpl("b"));
 * m.add(new GaugeImpl("a"));
 * assert.deepEqual(m.sorted().map((g) => g.name), ["a", "b"]);
 * ```
 */
export class FamilyMembers<T extends NamedStat> {
  /** The stats listed one by one. */
  readonly listed: SortedIndex<T>;
  /** The groups, each with the leaves it contributes in code-unit order. */
  #parts = new Map<ClusterBlocks<T>, string[]>();

  /** No members; `arrange` sorts new listed stats (see {@linkcode SortedIndex}). */
  constructor(arrange?: (items: T[]) => void) {
    this.listed = new SortedIndex<T>(compareStatNames, arrange);
  }

  /** Lists one stat. */
  add(stat: T): void {
    this.listed.add(stat);
  }

  /** Adds the stats of `leaf` in every block of `group`, now and later. */
  addGroup(group: ClusterBlocks<T>, leaf: string): void {
    const leaves = this.#parts.get(group);
    if (leaves === undefined) this.#parts.set(group, [leaf]);
    else {
      leaves.push(leaf);
      leaves.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
  }

  /** Number of members (counted: a group's blocks are looked up). */
  get size(): number {
    let n = this.listed.size;
    for (const [group, leaves] of this.#parts) n += this.#groupPart(group, leaves).length;
    return n;
  }

  /** About how much sorting is pending: stats listed, plus blocks of the groups. */
  get pending(): number {
    let n = this.listed.size;
    for (const group of this.#parts.keys()) n += group.pending;
    return n;
  }

  /** Sorts what is pending. */
  settle(): void {
    this.listed.settle(Infinity);
    for (const group of this.#parts.keys()) group.sorted();
  }

  /** The members in name order (a snapshot). */
  sorted(): readonly T[] {
    let out = this.listed.sorted();
    for (const [group, leaves] of this.#parts) {
      const part = this.#groupPart(group, leaves);
      out = out.length === 0 ? part : mergeSorted(out, part, compareStatNames);
    }
    return out;
  }

  /** The stats of `leaves` in the blocks of `group`, listed (see {@linkcode GroupPart}). */
  #groupPart(group: ClusterBlocks<T>, leaves: readonly string[]): T[] {
    const part = new GroupPart(group.sorted(), leaves);
    const out: T[] = [];
    for (const b of part.blocks) {
      for (let l = 0; l < leaves.length; l++) {
        const stat = part.member(b, l);
        if (stat !== undefined) out.push(stat);
      }
    }
    return out;
  }

  /**
   * The members as one group's part, when that is all they are (the usual case of a cluster
   * family: no stat listed one by one, one group), so a render can visit them block by block
   * as {@linkcode FamilyMembers.sorted} would list them, without the list; undefined otherwise.
   */
  soleGroup(): GroupPart<T> | undefined {
    if (this.listed.size !== 0 || this.#parts.size !== 1) return undefined;
    for (const [group, leaves] of this.#parts) {
      return new GroupPart(group.sorted(), leaves, group);
    }
    return undefined;
  }
}

/**
 * The stats of `leaves` in `blocks` (one group, head order): block by block, each block's in
 * leaf order, which is name order. Blocks built alike hold a leaf at the same index, so the index
 * found in one block is tried first in the next.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LeafTable, LeafTemplate } from "./leaf_table.ts";
 * import { GroupPart } from "./prometheus_index.ts";
 * const t = new LeafTable<string>(new LeafTemplate(), "cluster.a.");
 * t.add("x", "stat x");
 * const part = new GroupPart([t], ["w", "x"]);
 * assert.equal(part.member(t, 0), undefined);
 * assert.equal(part.member(t, 1), "stat x");
 * ```
 */
export class GroupPart<T> {
  #guess: Int32Array;

  /** A part of `blocks` (sorted by head) and `leaves` (sorted), of `group` when given. */
  constructor(
    readonly blocks: readonly KeyedBlock<T>[],
    readonly leaves: readonly string[],
    readonly group?: ClusterBlocks<T>,
  ) {
    this.#guess = new Int32Array(leaves.length).fill(-1);
  }

  /** The stat of leaf number `l` in block `b`, if `b` has one. */
  member(b: KeyedBlock<T>, l: number): T | undefined {
    const leaf = this.leaves[l];
    let at = this.#guess[l];
    if (at < 0 || at >= b.size || b.leafAt(at) !== leaf) this.#guess[l] = at = b.indexOf(leaf);
    return at >= 0 ? b.at(at) : undefined;
  }
}

/**
 * Renders tag pairs as Prometheus label text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { labelText } from "./prometheus_index.ts";
 * assert.equal(labelText([["proxy.cluster_name", "web"]]), 'proxy_cluster_name="web"');
 * ```
 */
export function labelText(tags: ReadonlyArray<readonly [string, string]>): string {
  return tags.map(([k, v]) => `${sanitizePrometheus(k)}="${escapeLabelValue(v)}"`).join(",");
}

/** A leaf's share of cluster stat extraction: its family and own labels; null: none. */
type LeafPart<T extends NamedStat> = { fam: Family<T>; labels: string } | null;

/** What the heads `cluster.<name>.<rest>` of one `rest` share. */
interface RestParts<T extends NamedStat> {
  leaves: Map<string, LeafPart<T>>;
  group: ClusterBlocks<T>;
}

/**
 * Label texts one store's indexes share: every distinct text once, and each cluster's
 * `proxy_cluster_name` label by cluster name (a cluster's counters, gauges, histograms and
 * circuit breaker scopes all carry it).
 */
export interface SharedLabels {
  /** Each distinct label text, by itself. */
  readonly texts: Map<string, string>;
  /** The cluster-name label text, by cluster name. */
  readonly clusters: Map<string, string>;
}

/**
 * An empty {@linkcode SharedLabels}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newSharedLabels } from "./prometheus_index.ts";
 * assert.equal(newSharedLabels().texts.size, 0);
 * ```
 */
export function newSharedLabels(): SharedLabels {
  return { texts: new Map(), clusters: new Map() };
}

/**
 * Puts stats in the order of their block's rank (a stable counting sort), when every block has
 * one; lists with a block without rank are left as they are.
 */
function byRank<T>(items: T[], rankOf: (item: T) => number | undefined): void {
  const n = items.length;
  const ranks = scratchRanks(n);
  let lo = Infinity, hi = -1;
  for (let k = 0; k < n; k++) {
    const r = rankOf(items[k]);
    if (r === undefined || r < 0) return;
    ranks[k] = r;
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  if (n < 64 || lo === hi) return;
  const start = new Int32Array(hi - lo + 2);
  for (let k = 0; k < n; k++) start[ranks[k] - lo + 1]++;
  for (let i = 1; i < start.length; i++) start[i] += start[i - 1];
  const copy = items.slice();
  for (let k = 0; k < n; k++) items[start[ranks[k] - lo]++] = copy[k];
}

/** Ranks of the items being placed, reused from one family to the next. */
let RANKS = new Int32Array(1024);

function scratchRanks(n: number): Int32Array {
  if (RANKS.length < n) RANKS = new Int32Array(Math.max(n, 2 * RANKS.length));
  return RANKS;
}

/**
 * Stats of one type grouped into sorted families.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GaugeImpl } from "./metrics.ts";
 * import { PrometheusIndex } from "./prometheus_index.ts";
 * const ix = new PrometheusIndex<GaugeImpl>();
 * ix.add(new GaugeImpl("cluster.b.upstream_rq_active"));
 * ix.add(new GaugeImpl("cluster.a.upstream_rq_active"));
 * assert.deepEqual(
 *   ix.families()[0].members.sorted().map((m) => m.promLabels),
 *   ['proxy_cluster_name="a"', 'proxy_cluster_name="b"'],
 * );
 * ```
 */
export class PrometheusIndex<T extends NamedStat> {
  #byName = new Map<string, Family<T>>();
  #families = new SortedIndex<Family<T>>();
  /** Label texts shared between members and with the store's other indexes. */
  #labels: SharedLabels;
  /** Families with members not sorted yet. */
  #dirty = new Set<Family<T>>();
  /** Block groups with blocks not sorted yet. */
  #dirtyGroups = new Set<ClusterBlocks<T>>();
  /** Per `<rest>`: each leaf's family and own label text (null: full extraction), the group. */
  #byRest = new Map<string, RestParts<T>>();
  /** Sorts new members: by head rank (after `ranker` brought ranks up to date), then by name. */
  #arrange: (items: T[]) => void;

  /**
   * An empty index. `ranker`, when given, sets the `rank` of every block (the position of its
   * head among all heads in name order) before new members are sorted; `labels` may be shared
   * with the other indexes of a store.
   */
  constructor(readonly ranker?: () => void, labels: SharedLabels = newSharedLabels()) {
    this.#labels = labels;
    this.#arrange = (items) => {
      if (items.length >= 64 && this.ranker !== undefined) {
        this.ranker();
        byRank(items, (s) => s.block.rank);
      }
      items.sort(compareStatNames);
    };
  }

  /** Groups a newly created stat. */
  add(stat: T): void {
    // A stat of a cluster's scope is listed through its block's group.
    if (this.#viaLeaf(stat) !== undefined) return;
    const { name: extracted, tags } = extractTags(stat.name);
    const listed = this.#family(extracted);
    stat.promLabels = this.#shared(labelText(tags));
    listed.members.add(stat);
    this.#dirty.add(listed);
  }

  /** Sorts new members of families (about `max` items); true when nothing is pending any more. */
  settle(max: number): boolean {
    let budget = max;
    for (const g of this.#dirtyGroups) {
      if (budget <= 0) return false;
      budget -= g.pending;
      g.sorted();
      this.#dirtyGroups.delete(g);
    }
    for (const fam of this.#dirty) {
      if (budget <= 0) return false;
      budget -= fam.members.pending;
      fam.members.settle();
      this.#dirty.delete(fam);
    }
    return this.#families.settle(max);
  }

  /** Whether new members wait to be sorted (see {@linkcode PrometheusIndex.settle}). */
  get pending(): boolean {
    return this.#dirtyGroups.size > 0 || this.#dirty.size > 0;
  }

  /** The families in name order (a snapshot; see {@linkcode SortedIndex.sorted}). */
  families(): readonly Family<T>[] {
    return this.#families.sorted();
  }

  #family(extracted: string): Family<T> {
    const name = prometheusName(extracted);
    let fam = this.#byName.get(name);
    if (fam === undefined) {
      fam = {
        name,
        extractedName: extracted,
        members: new FamilyMembers<T>(this.#arrange),
      };
      this.#byName.set(name, fam);
      this.#families.add(fam);
    }
    return fam;
  }

  #shared(labels: string): string {
    const texts = this.#labels.texts;
    const shared = texts.get(labels);
    if (shared !== undefined) return shared;
    texts.set(labels, labels);
    return labels;
  }

  /** The label text of cluster `name`, made once for all heads and indexes. */
  #clusterLabel(name: string): string {
    const clusters = this.#labels.clusters;
    let text = clusters.get(name);
    if (text === undefined) {
      clusters.set(name, text = this.#shared(labelText([[CLUSTER_NAME_TAG, name]])));
    }
    return text;
  }

  /**
   * The family of a stat of a cluster scope, with its label text set on the stat, when
   * extraction can be shared; undefined otherwise. Returns no pair, so that grouping a million
   * stats allocates nothing per stat.
   */
  #viaLeaf(stat: T): Family<T> | undefined {
    const block = stat.block;
    if (!keyed<T>(block)) return undefined;
    // Kept on the block (which is in this index alone: it holds one kind of stats).
    let rest = block.promRest as RestParts<T> | null | undefined;
    if (rest === undefined) {
      const parts = clusterOfHead(block.head);
      rest = null;
      if (parts !== undefined) {
        rest = this.#byRest.get(parts.rest) ?? null;
        if (rest === null) {
          rest = { leaves: new Map(), group: new ClusterBlocks<T>(this.ranker) };
          this.#byRest.set(parts.rest, rest);
        }
        block.promCluster = this.#clusterLabel(parts.cluster);
        rest.group.add(block);
        this.#dirtyGroups.add(rest.group);
      }
      block.promRest = rest;
    }
    if (rest === null) return undefined;
    const { leaves, group } = rest;
    const leaf = stat.nameLeaf;
    let part = leaves.get(leaf);
    if (part === undefined) {
      const t = leafTags(clusterOfHead(block.head)!.rest, leaf);
      part = t === undefined ? null : { fam: this.#family(t.name), labels: labelText(t.tags) };
      leaves.set(leaf, part);
      // Every block of the group lists its stat of this leaf in the family from now on.
      if (part !== null) {
        part.fam.members.addGroup(group, leaf);
        group.leaves.push(leaf);
      }
    }
    if (part === null) return undefined;
    // The leaf's own labels (shared by every cluster) are kept; the cluster's label is joined
    // to them when a render asks, so no string is kept per stat.
    stat.setOwnLabels(part.labels);
    return part.fam;
  }
}
