/**
 * The clusters of a CDS update: each resource must be a `Cluster` (`envoy.api.v2.Cluster` or
 * `envoy.config.cluster.v3.Cluster`), valid by the same table-driven validator as static
 * clusters (`validateClusters`), with unknown fields treated by the {@linkcode DynamicFieldPolicy},
 * and no two may share a name. Any error rejects the whole update.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { DynamicFieldPolicy } from "./dynamic_fields.ts";
 * import { checkDynamicClusters } from "./dynamic_clusters.ts";
 * const policy = new DynamicFieldPolicy("warn", new Store(), () => {});
 * const clusters = checkDynamicClusters([{
 *   "@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
 *   name: "a",
 *   connect_timeout: "1s",
 *   type: "EDS",
 *   eds_cluster_config: { eds_config: { path: "eds.yaml" } },
 * }], policy);
 * assert.equal(clusters[0].name, "a");
 * ```
 * @module
 */
import type { JsonObject } from "./bootstrap_types.ts";
import type { DynamicFieldPolicy } from "./dynamic_fields.ts";
import type { EffectiveCluster } from "./effective_cluster.ts";
import { validateClusters } from "./validate_cluster.ts";

/** Type names of a Cluster resource (v2 and v3). */
export const CLUSTER_TYPES: readonly string[] = [
  "envoy.api.v2.Cluster",
  "envoy.config.cluster.v3.Cluster",
];

/**
 * Checks the resources of a CDS update; throws an Error naming every problem and where.
 * `bindConfig` is the bootstrap's `cluster_manager.upstream_bind_config` (see `validateClusters`).
 */
export function checkDynamicClusters(
  resources: readonly JsonObject[],
  policy: DynamicFieldPolicy,
  bindConfig?: unknown,
): EffectiveCluster[] {
  const problems: string[] = [];
  const bodies: JsonObject[] = [];
  resources.forEach((r, i) => {
    const type = String(r["@type"]);
    if (!CLUSTER_TYPES.includes(type.slice(type.lastIndexOf("/") + 1))) {
      problems.push(`resources[${i}]: @type ${type} is not a Cluster`);
    }
    const { "@type": _, ...body } = r;
    bodies.push(body);
  });
  if (problems.length) throw new Error(problems.join("; "));
  const { errors, clusters } = validateClusters(bodies, {
    path: "resources",
    allowUnknown: policy.mode !== "reject",
    onUnknown: (p) => policy.onUnknown("Cluster", p),
    bindConfig,
  });
  for (const e of errors) problems.push(`${e.path}: ${e.message}`);
  const seen = new Map<string, number>();
  clusters.forEach((c, i) => {
    if (seen.has(c.name)) {
      problems.push(`resources[${i}].name: duplicate cluster name "${c.name}"`);
    }
    seen.set(c.name, i);
  });
  if (problems.length) throw new Error(problems.join("; "));
  return clusters;
}
