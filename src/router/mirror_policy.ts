/**
 * A route's `request_mirror_policies` (and the v2 `request_mirror_policy`): each sends a copy of
 * the request to another cluster, fire and forget, with `-shadow` appended to the host (unless
 * `disable_shadow_host_suffix_append`), for the share of requests `runtime_fraction.default_value`
 * says (all of them when unset). The answer of a shadow is discarded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMirrorPolicies, shadowHost } from "./mirror_policy.ts";
 * const m = parseMirrorPolicies([{ cluster: "s" }], undefined, "r", [], null);
 * assert.equal(m[0].cluster, "s");
 * assert.equal(shadowHost("api.test:8080"), "api.test-shadow:8080");
 * ```
 * @module
 */
import { DENOMINATORS } from "../config/runtime_lookup.ts";
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";

/** One compiled mirror policy. */
export interface MirrorPolicy {
  /** The cluster, or null with `clusterHeader`. */
  cluster: string | null;
  clusterHeader: string | null;
  /** Share of requests mirrored, 0..1. */
  fraction: number;
  hostSuffix: boolean;
}

function fraction(v: Json | undefined, path: string, errors: Errors): number {
  if (v === undefined) return 1;
  if (!isObject(v)) {
    fail(errors, path, "runtime_fraction must be an object");
    return 1;
  }
  if (v.runtime_key !== undefined) {
    fail(
      errors,
      `${path}.runtime_key`,
      "runtime_key is not supported by this build (mirroring reads default_value only)",
    );
  }
  const d = v.default_value;
  if (d === undefined) return 1;
  if (!isObject(d)) {
    fail(errors, `${path}.default_value`, "must be a FractionalPercent object");
    return 1;
  }
  const num = Number(d.numerator ?? 0);
  const den = (DENOMINATORS as Record<string, number>)[String(d.denominator ?? "HUNDRED")];
  if (!Number.isInteger(num) || num < 0) {
    fail(errors, `${path}.default_value.numerator`, "must be a non-negative integer");
    return 1;
  }
  if (den === undefined) {
    fail(errors, `${path}.default_value.denominator`, "must be HUNDRED, TEN_THOUSAND or MILLION");
    return 1;
  }
  return Math.min(1, num / den);
}

function parseOne(
  v: Json,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): MirrorPolicy | null {
  if (!isObject(v)) {
    fail(errors, path, "mirror policy must be an object");
    return null;
  }
  for (const k of Object.keys(v)) {
    if (
      ![
        "cluster",
        "cluster_header",
        "runtime_fraction",
        "runtime_key",
        "disable_shadow_host_suffix_append",
        "trace_sampled",
      ].includes(k)
    ) fail(errors, `${path}.${k}`, `unknown field ${k} of RequestMirrorPolicy`);
  }
  if (v.runtime_key !== undefined) {
    fail(errors, `${path}.runtime_key`, "runtime_key is not supported by this build");
  }
  if (unwrap(v.trace_sampled) === true) {
    fail(
      errors,
      `${path}.trace_sampled`,
      "trace_sampled is not supported by this build (tracing is not implemented)",
    );
  }
  const hasCluster = typeof v.cluster === "string" && v.cluster !== "";
  const hasHeader = typeof v.cluster_header === "string" && v.cluster_header !== "";
  if (hasCluster === hasHeader) {
    fail(errors, path, "mirror policy needs exactly one of cluster, cluster_header");
    return null;
  }
  if (hasCluster && clusters && !clusters.has(v.cluster as string)) {
    fail(errors, `${path}.cluster`, `unknown cluster "${v.cluster}"`);
    return null;
  }
  return {
    cluster: hasCluster ? v.cluster as string : null,
    clusterHeader: hasHeader ? (v.cluster_header as string).toLowerCase() : null,
    fraction: fraction(v.runtime_fraction, `${path}.runtime_fraction`, errors),
    hostSuffix: unwrap(v.disable_shadow_host_suffix_append) !== true,
  };
}

/** Parses `request_mirror_policies` and the v2 `request_mirror_policy` of a route action. */
export function parseMirrorPolicies(
  list: Json | undefined,
  single: Json | undefined,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): MirrorPolicy[] {
  const out: MirrorPolicy[] = [];
  if (single !== undefined) {
    const m = parseOne(single, `${path}.request_mirror_policy`, errors, clusters);
    if (m) out.push(m);
  }
  if (list === undefined) return out;
  if (!Array.isArray(list)) {
    fail(errors, `${path}.request_mirror_policies`, "must be a list");
    return out;
  }
  list.forEach((v, i) => {
    const m = parseOne(v, `${path}.request_mirror_policies[${i}]`, errors, clusters);
    if (m) out.push(m);
  });
  return out;
}

/** The authority of a shadow request: `-shadow` after the host, before any port. */
export function shadowHost(authority: string): string {
  const end = authority.startsWith("[") ? authority.indexOf("]") + 1 : authority.lastIndexOf(":");
  if (end <= 0 || end >= authority.length || authority[end] !== ":") return authority + "-shadow";
  return authority.slice(0, end) + "-shadow" + authority.slice(end);
}
