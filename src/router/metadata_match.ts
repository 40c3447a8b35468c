/**
 * Route `metadata_match` (and a weighted cluster's): the criteria subset load balancing selects
 * hosts by, read from the `proxy.lb` namespace of its `filter_metadata` (also `envoy.lb`, Envoy's
 * name; `proxy.lb` wins for a key both set). A weighted cluster's criteria override the route's
 * key by key, as Envoy merges them. The request's dynamic metadata in those namespaces (written
 * by the header-to-metadata filter) overrides both, key by key, as Envoy's router merges its
 * `envoy.lb` dynamic metadata into the route's criteria.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeMetadataMatch, parseMetadataMatch } from "./metadata_match.ts";
 * const route = parseMetadataMatch({ filter_metadata: { "proxy.lb": { version: "v1", stage: "prod" } } }, "m", []);
 * const cluster = parseMetadataMatch({ filter_metadata: { "envoy.lb": { version: "v2" } } }, "m", []);
 * assert.deepEqual(mergeMetadataMatch(route, cluster), { stage: "prod", version: "v2" });
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";

/** Criteria: key -> value. */
export type MetadataMatch = Readonly<Record<string, Json>>;

/** The namespaces read, Envoy's first so the specification's wins. */
const NAMESPACES = ["envoy.lb", "proxy.lb"] as const;

/** The criteria of a `metadata_match` (a core.Metadata) at `path`; null when unset or empty. */
export function parseMetadataMatch(
  v: Json | undefined,
  path: string,
  errors: Errors,
): MetadataMatch | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) {
    fail(errors, path, "metadata_match must be a Metadata object");
    return null;
  }
  const fm = v.filter_metadata;
  if (fm === undefined) return null;
  if (!isObject(fm)) {
    fail(errors, `${path}.filter_metadata`, "filter_metadata must be an object");
    return null;
  }
  const out: Record<string, Json> = {};
  for (const ns of NAMESPACES) {
    const m = fm[ns];
    if (m === undefined) continue;
    if (!isObject(m)) {
      fail(errors, `${path}.filter_metadata["${ns}"]`, "must be an object (a Struct)");
      continue;
    }
    Object.assign(out, m as JsonObject);
  }
  return Object.keys(out).length ? sorted(out) : null;
}

/** The route's criteria with the weighted cluster's on top. */
export function mergeMetadataMatch(
  route: MetadataMatch | null,
  cluster: MetadataMatch | null | undefined,
): MetadataMatch | null {
  if (!cluster) return route;
  if (!route) return cluster;
  return sorted({ ...route, ...cluster });
}

/** The route's criteria with the request's `envoy.lb` / `proxy.lb` dynamic metadata on top. */
export function withDynamicMetadata(
  route: MetadataMatch | null,
  dynamic: { get(ns: string): Readonly<Record<string, Json>> | undefined } | undefined,
): MetadataMatch | null {
  if (dynamic === undefined) return route;
  let out: Record<string, Json> | null = null;
  for (const ns of NAMESPACES) {
    const m = dynamic.get(ns);
    if (m !== undefined) out = Object.assign(out ?? { ...route }, m);
  }
  return out === null ? route : sorted(out);
}

function sorted(o: Record<string, Json>): MetadataMatch {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
