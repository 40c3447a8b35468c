/**
 * What a matched route does: forward to a `cluster`, to one of `weighted_clusters`, to the cluster
 * named by a request header (`cluster_header`), answer with a `direct_response`, or `redirect`;
 * with `prefix_rewrite`, `host_rewrite` (v2) / `host_rewrite_literal` (v3), `timeout` (default
 * 15 s as in Envoy; `0s` disables it), `priority` and `hash_policy`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRouteAction } from "./route_action.ts";
 * const a = parseRouteAction({ route: { cluster: "demo", timeout: "2s" } }, "r", [], null);
 * assert.equal(a?.kind, "cluster");
 * assert.equal(a.timeoutMs, 2000);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { type HashPolicy, parseHashPolicies } from "./hash_policy.ts";
import { type MetadataMatch, parseMetadataMatch } from "./metadata_match.ts";

/** Envoy's default route timeout. */
export const DEFAULT_ROUTE_TIMEOUT_MS = 15_000;

/** Settings shared by the forwarding actions. */
export interface ForwardOptions {
  prefixRewrite: string | null;
  hostRewrite: string | null;
  timeoutMs: number;
  priority: 0 | 1;
  /** `hash_policy`, in order (empty: requests have no hash). */
  hashPolicy: HashPolicy[];
  /** `metadata_match` criteria for subset balancing; null when unset. */
  metadataMatch: MetadataMatch | null;
}

/** One weighted cluster. */
export interface WeightedCluster {
  name: string;
  weight: number;
  /** This cluster's `metadata_match`, merged over the route's. */
  metadataMatch?: MetadataMatch | null;
}

/** A route's action. */
export type RouteAction =
  | ({ kind: "cluster"; cluster: string } & ForwardOptions)
  | ({ kind: "weighted"; clusters: WeightedCluster[]; total: number } & ForwardOptions)
  | ({ kind: "cluster_header"; header: string } & ForwardOptions)
  | { kind: "direct"; status: number; body: string }
  | { kind: "redirect"; status: number; host: string | null; path: string | null; https: boolean };

function checkCluster(
  name: Json | undefined,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): string | null {
  if (typeof name !== "string" || name === "") {
    fail(errors, path, "cluster name must be a non-empty string");
    return null;
  }
  if (clusters && !clusters.has(name)) {
    fail(errors, path, `unknown cluster "${name}"`);
    return null;
  }
  return name;
}

function forwardOptions(a: JsonObject, path: string, errors: Errors): ForwardOptions {
  let timeoutMs = DEFAULT_ROUTE_TIMEOUT_MS;
  if (a.timeout !== undefined) timeoutMs = durationMs(a.timeout, `${path}.timeout`, errors) ?? 0;
  const host = a.host_rewrite_literal ?? a.host_rewrite;
  if (host !== undefined && typeof host !== "string") {
    fail(errors, `${path}.host_rewrite_literal`, "must be a string");
  }
  if (a.prefix_rewrite !== undefined && typeof a.prefix_rewrite !== "string") {
    fail(errors, `${path}.prefix_rewrite`, "must be a string");
  }
  for (const k of ["auto_host_rewrite", "regex_rewrite", "retry_policy"]) {
    if (a[k] !== undefined) fail(errors, `${path}.${k}`, `${k} is not supported yet`);
  }
  if (a.priority !== undefined && a.priority !== "DEFAULT" && a.priority !== "HIGH") {
    fail(errors, `${path}.priority`, `unknown priority ${JSON.stringify(a.priority)}`);
  }
  return {
    prefixRewrite: typeof a.prefix_rewrite === "string" ? a.prefix_rewrite : null,
    hostRewrite: typeof host === "string" ? host : null,
    timeoutMs,
    priority: a.priority === "HIGH" ? 1 : 0,
    hashPolicy: parseHashPolicies(a.hash_policy, `${path}.hash_policy`, errors),
    metadataMatch: parseMetadataMatch(a.metadata_match, `${path}.metadata_match`, errors),
  };
}

function directBody(b: Json | undefined, path: string, errors: Errors): string {
  if (b === undefined) return "";
  if (isObject(b)) {
    if (typeof b.inline_string === "string") return b.inline_string;
    if (typeof b.inline_bytes === "string") {
      try {
        return atob(b.inline_bytes);
      } catch {
        fail(errors, `${path}.inline_bytes`, "inline_bytes must be base64");
        return "";
      }
    }
    if (typeof b.filename === "string") {
      try {
        return Deno.readTextFileSync(b.filename);
      } catch (e) {
        fail(errors, `${path}.filename`, `cannot read ${b.filename}: ${(e as Error).message}`);
        return "";
      }
    }
  }
  fail(errors, path, "body needs inline_string, inline_bytes or filename");
  return "";
}

/** Parses the action of route `r` (at `path`). */
export function parseRouteAction(
  r: JsonObject,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): RouteAction | null {
  const kinds = ["route", "direct_response", "redirect"].filter((k) => r[k] !== undefined);
  if (kinds.length !== 1) {
    fail(errors, path, "route needs exactly one of route, direct_response, redirect");
    return null;
  }
  if (isObject(r.direct_response)) {
    const d = r.direct_response;
    const status = Number(unwrap(d.status));
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      fail(errors, `${path}.direct_response.status`, "status must be an integer from 200 to 599");
      return null;
    }
    return {
      kind: "direct",
      status,
      body: directBody(d.body, `${path}.direct_response.body`, errors),
    };
  }
  if (isObject(r.redirect)) {
    const d = r.redirect;
    const codes: Record<string, number> = {
      MOVED_PERMANENTLY: 301,
      FOUND: 302,
      SEE_OTHER: 303,
      TEMPORARY_REDIRECT: 307,
      PERMANENT_REDIRECT: 308,
    };
    const code = d.response_code === undefined ? 301 : codes[String(d.response_code)];
    if (!code) {
      fail(
        errors,
        `${path}.redirect.response_code`,
        `unknown code ${JSON.stringify(d.response_code)}`,
      );
      return null;
    }
    return {
      kind: "redirect",
      status: code,
      host: typeof d.host_redirect === "string" ? d.host_redirect : null,
      path: typeof d.path_redirect === "string" ? d.path_redirect : null,
      https: d.https_redirect === true || d.scheme_redirect === "https",
    };
  }
  const a = r.route;
  const at = `${path}.route`;
  if (!isObject(a)) {
    fail(errors, at, "route must be an object");
    return null;
  }
  const targets = ["cluster", "weighted_clusters", "cluster_header"].filter((k) =>
    a[k] !== undefined
  );
  if (targets.length !== 1) {
    fail(errors, at, "route needs exactly one of cluster, weighted_clusters, cluster_header");
    return null;
  }
  const fo = forwardOptions(a, at, errors);
  if (a.cluster !== undefined) {
    const c = checkCluster(a.cluster, `${at}.cluster`, errors, clusters);
    return c ? { kind: "cluster", cluster: c, ...fo } : null;
  }
  if (a.cluster_header !== undefined) {
    if (typeof a.cluster_header !== "string" || a.cluster_header === "") {
      fail(errors, `${at}.cluster_header`, "must be a header name");
      return null;
    }
    return { kind: "cluster_header", header: a.cluster_header.toLowerCase(), ...fo };
  }
  const wc = a.weighted_clusters;
  if (!isObject(wc) || !Array.isArray(wc.clusters) || wc.clusters.length === 0) {
    fail(errors, `${at}.weighted_clusters.clusters`, "needs a non-empty list of clusters");
    return null;
  }
  const list: WeightedCluster[] = [];
  wc.clusters.forEach((c, i) => {
    const cat = `${at}.weighted_clusters.clusters[${i}]`;
    if (!isObject(c)) return fail(errors, cat, "must be an object");
    const name = checkCluster(c.name, `${cat}.name`, errors, clusters);
    const weight = Number(unwrap(c.weight) ?? 0);
    if (!Number.isInteger(weight) || weight < 0) {
      fail(errors, `${cat}.weight`, "weight must be a non-negative integer");
    }
    const mm = parseMetadataMatch(c.metadata_match, `${cat}.metadata_match`, errors);
    if (name) {
      list.push(mm ? { name, weight, metadataMatch: mm } : { name, weight });
    }
  });
  const sum = list.reduce((s, c) => s + c.weight, 0);
  const total = wc.total_weight === undefined ? sum : Number(unwrap(wc.total_weight));
  if (total !== sum) {
    fail(
      errors,
      `${at}.weighted_clusters.total_weight`,
      `total_weight ${total} differs from the sum of weights ${sum}`,
    );
  }
  if (sum <= 0) fail(errors, `${at}.weighted_clusters`, "the sum of weights must be positive");
  return { kind: "weighted", clusters: list, total: sum, ...fo };
}

/** Chooses a weighted cluster with a random draw `rnd` in [0, 1). */
export function pickWeighted(
  a: { clusters: WeightedCluster[]; total: number },
  rnd = Math.random(),
): WeightedCluster {
  let r = Math.floor(rnd * a.total);
  for (const c of a.clusters) {
    if (r < c.weight) return c;
    r -= c.weight;
  }
  return a.clusters[a.clusters.length - 1];
}
