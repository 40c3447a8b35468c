/**
 * The aggregate cluster type (`cluster_type.name` `envoy.clusters.aggregate`, also spelled
 * `proxy.clusters.aggregate`): its `typed_config` (an
 * `envoy.extensions.clusters.aggregate.v3.ClusterConfig`) lists the clusters whose hosts form its
 * priority levels, in order; its balancer is provided by the type (`lb_policy` CLUSTER_PROVIDED).
 * This module reads that list and checks the list of a configuration as a whole: every listed
 * cluster exists, and no aggregate reaches itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { aggregateTargets } from "./aggregate_cluster.ts";
 * const agg = {
 *   name: "agg",
 *   cluster_type: { name: "envoy.clusters.aggregate", typed_config: { clusters: ["a", "b"] } },
 * };
 * assert.deepEqual(aggregateTargets(agg), ["a", "b"]);
 * assert.equal(aggregateTargets({ name: "a" }), null);
 * ```
 * @module
 */

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? v as Obj : undefined;

/** The `cluster_type.name` spellings of the aggregate cluster. */
export const AGGREGATE_TYPE_NAMES = ["envoy.clusters.aggregate", "proxy.clusters.aggregate"];

/** The `@type` of the aggregate cluster's configuration. */
export const AGGREGATE_CONFIG_TYPE =
  "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig";

/** True when `c` (a Cluster) is an aggregate cluster. */
export function isAggregate(c: Obj): boolean {
  const name = obj(c.cluster_type)?.name;
  return typeof name === "string" && AGGREGATE_TYPE_NAMES.includes(name);
}

/** The clusters an aggregate cluster lists (strings only), or null when `c` is not one. */
export function aggregateTargets(c: Obj): string[] | null {
  if (!isAggregate(c)) return null;
  const list = obj(obj(c.cluster_type)?.typed_config)?.clusters;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string") : [];
}

/**
 * The fields an aggregate cluster takes: what names and balances it (`common_lb_config` for the
 * panic threshold and overprovisioning across its clusters' levels), and `connect_timeout`,
 * which Envoy's own aggregate examples set (the listed clusters' own timeouts apply).
 */
const AGGREGATE_OWN_FIELDS = new Set([
  "name",
  "alt_stat_name",
  "cluster_type",
  "lb_policy",
  "common_lb_config",
  "connect_timeout",
  "metadata",
]);

/**
 * What is wrong with the `typed_config` of aggregate cluster `c`, as `[field path below the
 * cluster, message]` pairs: not an object, a foreign `@type`, a field other than `clusters`, an
 * empty list or an entry that is not a non-empty string; and any field of the cluster outside
 * {@linkcode AGGREGATE_OWN_FIELDS} (its requests use the listed clusters' settings).
 */
export function aggregateConfigProblems(c: Obj): [string, string][] {
  const at = "cluster_type.typed_config";
  const tc = obj(obj(c.cluster_type)?.typed_config);
  if (!tc) return [[at, "an aggregate cluster needs typed_config with its clusters"]];
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(c)) {
    if (v === undefined || v === null || AGGREGATE_OWN_FIELDS.has(k)) continue;
    out.push([
      k,
      `${k} does not apply to an aggregate cluster: its requests use the hosts and settings of ` +
      "the clusters it lists",
    ]);
  }
  const t = tc["@type"];
  if (t !== undefined && t !== AGGREGATE_CONFIG_TYPE) {
    out.push([`${at}.@type`, `expected ${AGGREGATE_CONFIG_TYPE}, got ${JSON.stringify(t)}`]);
  }
  for (const k of Object.keys(tc)) {
    if (k !== "@type" && k !== "clusters") {
      out.push([`${at}.${k}`, `unknown field "${k}" in ClusterConfig`]);
    }
  }
  const list = tc.clusters;
  if (!Array.isArray(list) || list.length === 0) {
    out.push([`${at}.clusters`, "value must contain at least 1 item(s)"]);
    return out;
  }
  list.forEach((x, i) => {
    if (typeof x !== "string" || x === "") {
      out.push([`${at}.clusters[${i}]`, "value must be a non-empty cluster name"]);
    }
  });
  return out;
}

/**
 * The listed clusters of the aggregates among `clusters` (a configuration's list, by index) that
 * are not defined, and the aggregates that reach themselves through the lists: `[index, field
 * path below the cluster, kind, detail]`.
 */
export function aggregateGraphProblems(
  clusters: readonly Obj[],
): { index: number; path: string; kind: "unknown" | "loop"; detail: string }[] {
  // Made at the first aggregate met (most configurations have none).
  let byName: Map<string, Obj> | undefined;
  const named = (): Map<string, Obj> => {
    if (byName) return byName;
    byName = new Map();
    for (const c of clusters) if (typeof c.name === "string") byName.set(c.name, c);
    return byName;
  };
  const out: { index: number; path: string; kind: "unknown" | "loop"; detail: string }[] = [];
  clusters.forEach((c, index) => {
    const targets = aggregateTargets(c);
    if (targets === null || typeof c.name !== "string") return;
    const self = c.name;
    const byName = named();
    const raw = obj(obj(c.cluster_type)?.typed_config)?.clusters;
    const list: unknown[] = Array.isArray(raw) ? raw : [];
    list.forEach((t, i) => {
      if (typeof t !== "string" || t === "") return;
      const path = `cluster_type.typed_config.clusters[${i}]`;
      if (!byName.has(t)) {
        out.push({ index, path, kind: "unknown", detail: t });
        return;
      }
      // Depth-first through nested aggregates: does `t` lead back to `self`?
      const seen = new Set<string>();
      const stack = [t];
      while (stack.length > 0) {
        const n = stack.pop()!;
        if (n === self) {
          out.push({ index, path, kind: "loop", detail: t });
          return;
        }
        if (seen.has(n)) continue;
        seen.add(n);
        const next = byName.get(n);
        for (const m of next ? aggregateTargets(next) ?? [] : []) stack.push(m);
      }
    });
  });
  return out;
}
