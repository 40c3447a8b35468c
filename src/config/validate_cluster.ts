/**
 * Placeholder for the table-driven Cluster validator.
 *
 * @module
 */
import type { ConfigError } from "./errors.ts";
import type { EffectiveCluster } from "./effective_cluster.ts";

/** Options of {@linkcode validateClusters}. */
export interface ValidateOptions {
  /** Path prefix of the clusters array, e.g. `static_resources.clusters`. */
  path: string;
  /** Accept unknown fields (report them through `onUnknown`) instead of rejecting them. */
  allowUnknown: boolean;
  onUnknown?: (path: string) => void;
}

/** Validates clusters; returns every error found and the effective clusters. */
export function validateClusters(
  _clusters: readonly unknown[],
  _opts: ValidateOptions,
): { errors: ConfigError[]; clusters: EffectiveCluster[] } {
  return { errors: [], clusters: [] };
}
