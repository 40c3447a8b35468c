/**
 * What a matched route does: forward to a `cluster`, to one of `weighted_clusters`, to the cluster
 * named by a request header (`cluster_header`), answer with a `direct_response`, or `redirect`
 * (`redirect.ts`); with `prefix_rewrite` or `regex_rewrite`, `host_rewrite` (v2) /
 * `host_rewrite_literal` (v3), `host_rewrite_header`, `host_rewrite_path_regex` or
 * `auto_host_rewrite`, `timeout` (default 15 s as in Envoy; `0s` disables it), `max_grpc_timeout`
 * and `grpc_timeout_offset` (`grpc_route_timeout.ts`), `priority`,
 * `hash_policy`, `retry_policy` (`retry_policy.ts`) and `request_mirror_policies`
 * (`mirror_policy.ts`).
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
import { parseRetryPolicy, type RetryPolicy } from "./retry_policy.ts";
import { parseRedirect, type Redirect } from "./redirect.ts";
import { parseRegexRewrite, type RegexRewrite } from "./path_rewrite.ts";
import { type MirrorPolicy, parseMirrorPolicies } from "./mirror_policy.ts";
import { parseUpgradeConfigs, type UpgradeConfigs } from "./upgrade.ts";
import { connectTerminates } from "./connect_config.ts";
import { type InternalRedirectPolicy, parseInternalRedirectPolicy } from "./internal_redirect.ts";
import { type MetadataMatch, parseMetadataMatch } from "./metadata_match.ts";
import { type MaxStreamDuration, parseMaxStreamDuration } from "./max_stream_duration.ts";

/** Envoy's default route timeout. */
export const DEFAULT_ROUTE_TIMEOUT_MS = 15_000;

/** Settings shared by the forwarding actions. */
export interface ForwardOptions {
  prefixRewrite: string | null;
  /** `regex_rewrite` of the path. */
  regexRewrite: RegexRewrite | null;
  hostRewrite: string | null;
  /** `auto_host_rewrite`: the chosen host's hostname becomes the authority. */
  autoHostRewrite: boolean;
  /** `host_rewrite_header`: the host comes from this request header when it has a value. */
  hostRewriteHeader: string | null;
  /** `host_rewrite_path_regex`: the host is the path rewritten by this pattern. */
  hostRewritePathRegex: RegexRewrite | null;
  timeoutMs: number;
  /** The route's `idle_timeout` (replaces the stream idle timeout; 0: none); null when unset. */
  idleTimeoutMs: number | null;
  priority: 0 | 1;
  /** `hash_policy`, in order (empty: requests have no hash). */
  hashPolicy: HashPolicy[];
  /** `retry_policy` (the virtual host's when the route has none). */
  retry: RetryPolicy | null;
  /** `request_mirror_policies`. */
  mirrors: MirrorPolicy[];
  /** `upgrade_configs` of the route (null: the connection manager's decide). */
  upgrades: UpgradeConfigs | null;
  /** True when the route ends CONNECT requests itself (`connect_config`, `connect_config.ts`). */
  connectTerminate: boolean;
  /** `internal_redirect_policy`; null when unset (`internal_redirect.ts`). */
  internalRedirect: InternalRedirectPolicy | null;
  /** `metadata_match` criteria for subset balancing; null when unset. */
  metadataMatch: MetadataMatch | null;
  /** `max_stream_duration` (`max_stream_duration.ts`); null when unset. */
  maxStreamDuration: MaxStreamDuration | null;
  /**
   * `max_grpc_timeout` (0: no cap on the `grpc-timeout` header); null when unset or when
   * `max_stream_duration` is set (`grpc_route_timeout.ts`).
   */
  maxGrpcTimeoutMs: number | null;
  /** `grpc_timeout_offset`; null when unset or when `max_grpc_timeout` does not apply. */
  grpcTimeoutOffsetMs: number | null;
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
  | { kind: "redirect"; redirect: Redirect };

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

function forwardOptions(
  a: JsonObject,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): ForwardOptions {
  let timeoutMs = DEFAULT_ROUTE_TIMEOUT_MS;
  if (a.timeout !== undefined) timeoutMs = durationMs(a.timeout, `${path}.timeout`, errors) ?? 0;
  const msd = parseMaxStreamDuration(a.max_stream_duration, `${path}.max_stream_duration`, errors);
  // With max_stream_duration set the route uses Envoy's "new timeouts": no route timeout.
  if (msd !== null) timeoutMs = 0;
  const grpcMs = (k: string) =>
    a[k] === undefined || a[k] === null ? null : durationMs(a[k], `${path}.${k}`, errors) ?? null;
  const maxGrpc = grpcMs("max_grpc_timeout");
  const grpcOffset = grpcMs("grpc_timeout_offset");
  const host = a.host_rewrite_literal ?? a.host_rewrite;
  if (host !== undefined && typeof host !== "string") {
    fail(errors, `${path}.host_rewrite_literal`, "must be a string");
  }
  if (a.prefix_rewrite !== undefined && typeof a.prefix_rewrite !== "string") {
    fail(errors, `${path}.prefix_rewrite`, "must be a string");
  }
  const auto = unwrap(a.auto_host_rewrite);
  if (auto !== undefined && typeof auto !== "boolean") {
    fail(errors, `${path}.auto_host_rewrite`, "must be a bool");
  }
  const hosts = [
    "host_rewrite_literal",
    "host_rewrite",
    "host_rewrite_header",
    "host_rewrite_path_regex",
    "auto_host_rewrite",
  ]
    .filter((k) => a[k] !== undefined);
  if (hosts.length > 1) fail(errors, path, `only one of ${hosts.join(", ")} may be set`);
  if (a.prefix_rewrite !== undefined && a.regex_rewrite !== undefined) {
    fail(errors, path, "only one of prefix_rewrite, regex_rewrite may be set");
  }
  if (a.priority !== undefined && a.priority !== "DEFAULT" && a.priority !== "HIGH") {
    fail(errors, `${path}.priority`, `unknown priority ${JSON.stringify(a.priority)}`);
  }
  const hdr = a.host_rewrite_header;
  if (hdr !== undefined && (typeof hdr !== "string" || hdr === "")) {
    fail(errors, `${path}.host_rewrite_header`, "must be a header name");
  }
  return {
    prefixRewrite: typeof a.prefix_rewrite === "string" ? a.prefix_rewrite : null,
    regexRewrite: a.regex_rewrite === undefined
      ? null
      : parseRegexRewrite(a.regex_rewrite, `${path}.regex_rewrite`, errors),
    hostRewrite: typeof host === "string" ? host : null,
    autoHostRewrite: auto === true,
    hostRewriteHeader: typeof hdr === "string" && hdr !== "" ? hdr.toLowerCase() : null,
    hostRewritePathRegex: a.host_rewrite_path_regex === undefined
      ? null
      : parseRegexRewrite(a.host_rewrite_path_regex, `${path}.host_rewrite_path_regex`, errors),
    timeoutMs,
    idleTimeoutMs: a.idle_timeout === undefined
      ? null
      : durationMs(a.idle_timeout, `${path}.idle_timeout`, errors) ?? null,
    priority: a.priority === "HIGH" ? 1 : 0,
    hashPolicy: parseHashPolicies(a.hash_policy, `${path}.hash_policy`, errors),
    retry: a.retry_policy === undefined
      ? null
      : parseRetryPolicy(a.retry_policy, `${path}.retry_policy`, errors),
    mirrors: parseMirrorPolicies(
      a.request_mirror_policies,
      a.request_mirror_policy,
      path,
      errors,
      clusters,
    ),
    upgrades: a.upgrade_configs === undefined
      ? null
      : parseUpgradeConfigs(a.upgrade_configs, `${path}.upgrade_configs`, errors, true),
    connectTerminate: connectTerminates(a.upgrade_configs),
    internalRedirect: parseInternalRedirectPolicy(
      a.internal_redirect_policy,
      `${path}.internal_redirect_policy`,
      errors,
    ),
    metadataMatch: parseMetadataMatch(a.metadata_match, `${path}.metadata_match`, errors),
    maxStreamDuration: msd,
    maxGrpcTimeoutMs: msd === null ? maxGrpc : null,
    grpcTimeoutOffsetMs: msd === null && maxGrpc !== null ? grpcOffset : null,
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
  if (r.redirect !== undefined) {
    const d = parseRedirect(r.redirect, `${path}.redirect`, errors);
    return d ? { kind: "redirect", redirect: d } : null;
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
  const fo = forwardOptions(a, at, errors, clusters);
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
