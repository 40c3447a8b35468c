/**
 * Profiles map the names the specification shows (`proxy.` stat prefixes, runtime keys and
 * metadata namespaces, the Prometheus prefix `proxy_`) to the names a target uses, so the same
 * suite can run against this implementation (`seed`) or a real Envoy (`envoy`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { profile } from "./profile.ts";
 * assert.equal(
 *   profile("envoy").name("proxy.reloadable_features.x"),
 *   "envoy.reloadable_features.x",
 * );
 * ```
 * @module
 */

/** The profiles the runner knows. */
export type ProfileName = "seed" | "envoy";

/** Name mapping of one profile. */
export interface Profile {
  readonly id: ProfileName;
  /** The word the target uses where the specification says `proxy` in a visible name. */
  readonly word: string;
  /** Maps one visible name (stat, runtime key, namespace, Prometheus metric or label). */
  name(specName: string): string;
  /** Maps every visible name inside a longer text (a query string, a regular expression). */
  text(specText: string): string;
}

const VISIBLE = /(^|[^A-Za-z0-9])proxy(?=[._])/g;

/**
 * Returns the profile of the given name.
 *
 * @param id `seed` (names as the specification shows them) or `envoy`
 * @returns the mapping
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { profile } from "./profile.ts";
 * assert.equal(
 *   profile("envoy").name("proxy_cluster_upstream_rq_total"),
 *   "envoy_cluster_upstream_rq_total",
 * );
 * ```
 */
export function profile(id: ProfileName): Profile {
  const word = id === "envoy" ? "envoy" : "proxy";
  const map = (s: string) => id === "seed" ? s : s.replace(VISIBLE, `$1${word}`);
  return { id, word, name: map, text: map };
}
