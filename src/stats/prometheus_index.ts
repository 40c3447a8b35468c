/**
 * The grouping the Prometheus renderer needs: stats of one type grouped into metric families
 * (the sanitized, prefixed tag-extracted name), families sorted by name, members sorted by stat
 * name, each member's label text kept on the stat itself (`promLabels`, one string shared by
 * every stat with the same labels; a cluster's stats share its label through their block). Each
 * stat is grouped when it is created, so a first scrape only sorts the families' new members:
 * by the rank of their scope's head among all heads (counting, no comparisons), then by full
 * name (which then finds them nearly in order).
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
import { SortedIndex } from "./sorted_index.ts";
import { extractTags } from "./tag_extraction.ts";
import { CLUSTER_NAME_TAG, clusterOfHead, leafTags } from "./cluster_tags.ts";
import { escapeLabelValue, prometheusName, sanitizePrometheus } from "./naming.ts";
import { compareStatNames, type NamedStat } from "./stat_name.ts";

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
  members: SortedIndex<T>;
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
function byRank<T extends NamedStat>(items: T[]): void {
  const n = items.length;
  const ranks = scratchRanks(n);
  let lo = Infinity, hi = -1;
  for (let k = 0; k < n; k++) {
    const r = items[k].block.rank;
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
  /**
   * Per head `cluster.<name>.<rest>` (see `cluster_tags.ts`): the cluster-name label text and
   * the leaves of `<rest>`; null for other heads.
   */
  #clusterHeads = new Map<string, { cluster: string; leaves: Map<string, LeafPart<T>> } | null>();
  /** The head last looked up in `#clusterHeads` and what it found (stats come head by head). */
  #lastHead: string | undefined = undefined;
  #lastCluster: { cluster: string; leaves: Map<string, LeafPart<T>> } | null | undefined =
    undefined;
  /** Per `<rest>`: each leaf's family and own label text, or null for full extraction. */
  #byRest = new Map<string, Map<string, LeafPart<T>>>();
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
        byRank(items);
      }
      items.sort(compareStatNames);
    };
  }

  /** Groups a newly created stat. */
  add(stat: T): void {
    let fam = this.#viaLeaf(stat);
    if (fam === undefined) {
      const { name: extracted, tags } = extractTags(stat.name);
      fam = this.#family(extracted);
      stat.promLabels = this.#shared(labelText(tags));
    }
    fam.members.add(stat);
    this.#dirty.add(fam);
  }

  /** Sorts new members of families (about `max` items); true when nothing is pending any more. */
  settle(max: number): boolean {
    let budget = max;
    for (const fam of this.#dirty) {
      if (budget <= 0) return false;
      budget -= fam.members.size;
      fam.members.settle(Infinity);
      this.#dirty.delete(fam);
    }
    return this.#families.settle(max);
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
        members: new SortedIndex<T>(compareStatNames, this.#arrange),
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
    const head = stat.nameHead;
    let ch = this.#lastHead === head ? this.#lastCluster : this.#clusterHeads.get(head);
    if (ch === undefined) {
      const parts = clusterOfHead(head);
      if (parts === undefined) ch = null;
      else {
        let leaves = this.#byRest.get(parts.rest);
        if (leaves === undefined) this.#byRest.set(parts.rest, leaves = new Map());
        const cluster = this.#clusterLabel(parts.cluster);
        ch = { cluster, leaves };
      }
      this.#clusterHeads.set(head, ch);
    }
    this.#lastHead = head;
    this.#lastCluster = ch;
    if (ch === null) return undefined;
    const block = stat.block;
    if (block.promCluster === undefined) block.promCluster = ch.cluster;
    const leaf = stat.nameLeaf;
    let part = ch.leaves.get(leaf);
    if (part === undefined) {
      const t = leafTags(clusterOfHead(head)!.rest, leaf);
      part = t === undefined ? null : { fam: this.#family(t.name), labels: labelText(t.tags) };
      ch.leaves.set(leaf, part);
    }
    if (part === null) return undefined;
    // A leaf's labels with the cluster's are unique to this stat: joined, not interned (a
    // table entry per stat would cost more than the string, and its lookup hashes the text).
    stat.promLabels = part.labels === "" ? ch.cluster : `${part.labels},${ch.cluster}`;
    return part.fam;
  }
}
