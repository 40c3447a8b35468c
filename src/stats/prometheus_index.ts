/**
 * The grouping the Prometheus renderer needs: stats of one type grouped into metric families
 * (the sanitized, prefixed tag-extracted name), families sorted by name, members sorted by stat
 * name, each member with its label text. Tag extraction runs once per stat, lazily, the first
 * time a Prometheus render needs it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PrometheusIndex } from "./prometheus_index.ts";
 * const ix = new PrometheusIndex<{ name: string }>();
 * ix.add({ name: "cluster.a.upstream_cx_total" });
 * assert.equal(ix.families()[0].name, "proxy_cluster_upstream_cx_total");
 * ```
 * @module
 */
import { SortedIndex } from "./sorted_index.ts";
import { extractTags } from "./tag_extraction.ts";
import { escapeLabelValue, prometheusName, sanitizePrometheus } from "./naming.ts";

/** One stat inside a family. */
export interface FamilyMember<T> {
  /** The full stat name (sort key). */
  name: string;
  stat: T;
  /** Label pairs without braces, e.g. `proxy_cluster_name="web"`; `""` when untagged. */
  labels: string;
}

/** A metric family: every stat with the same Prometheus name. */
export interface Family<T> {
  /** The Prometheus metric name. */
  name: string;
  /** The tag-extracted stat name (for `# HELP`). */
  extractedName: string;
  members: SortedIndex<FamilyMember<T>>;
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

/**
 * Stats of one type grouped into sorted families.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PrometheusIndex } from "./prometheus_index.ts";
 * const ix = new PrometheusIndex<{ name: string }>();
 * ix.add({ name: "cluster.b.upstream_rq_total" });
 * ix.add({ name: "cluster.a.upstream_rq_total" });
 * assert.deepEqual(
 *   ix.families()[0].members.sorted().map((m) => m.labels),
 *   ['proxy_cluster_name="a"', 'proxy_cluster_name="b"'],
 * );
 * ```
 */
export class PrometheusIndex<T extends { name: string }> {
  #pending: T[] = [];
  #byName = new Map<string, Family<T>>();
  #families = new SortedIndex<Family<T>>();
  /** Label texts shared between members (all stats of one cluster have the same labels). */
  #labels = new Map<string, string>();
  /** Families with members not sorted yet. */
  #dirty = new Set<Family<T>>();

  /** Adds a newly created stat. */
  add(stat: T): void {
    this.#pending.push(stat);
  }

  /**
   * Extracts tags of at most `max` pending stats, or else sorts new members of families (about
   * `max` items); true when nothing is pending any more.
   */
  settle(max: number): boolean {
    const pending = this.#pending;
    if (pending.length > 0) {
      const part = pending.length <= max ? pending : pending.splice(pending.length - max);
      if (part === pending) this.#pending = [];
      this.#index(part);
      return false;
    }
    let budget = max;
    for (const fam of this.#dirty) {
      if (budget <= 0) return false;
      budget -= fam.members.size;
      if (fam.members.settle(max)) this.#dirty.delete(fam);
    }
    return this.#dirty.size === 0 && this.#families.settle(max);
  }

  /** The families in name order (a snapshot; see {@linkcode SortedIndex.sorted}). */
  families(): readonly Family<T>[] {
    if (this.#pending.length > 0) {
      this.#index(this.#pending);
      this.#pending = [];
    }
    return this.#families.sorted();
  }

  #index(stats: readonly T[]): void {
    for (const stat of stats) {
      const { name: extracted, tags } = extractTags(stat.name);
      const name = prometheusName(extracted);
      let fam = this.#byName.get(name);
      if (fam === undefined) {
        fam = { name, extractedName: extracted, members: new SortedIndex() };
        this.#byName.set(name, fam);
        this.#families.add(fam);
      }
      let labels = labelText(tags);
      const shared = this.#labels.get(labels);
      if (shared === undefined) this.#labels.set(labels, labels);
      else labels = shared;
      fam.members.add({ name: stat.name, stat, labels });
      this.#dirty.add(fam);
    }
  }
}
