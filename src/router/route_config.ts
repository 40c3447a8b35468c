/**
 * An inline `route_config` compiled for matching: virtual hosts chosen by domain (exact, then
 * `*.suffix`, then `prefix.*`, longest first, then `*`), then the first route whose path and
 * header conditions hold. Parsing reports every error with its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRouteConfig, selectRoute } from "./route_config.ts";
 * const rc = parseRouteConfig({ virtual_hosts: [{ name: "a", domains: ["*"],
 *   routes: [{ match: { prefix: "/" }, route: { cluster: "demo" } }] }] }, "rc", [], new Set(["demo"]))!;
 * const r = selectRoute(rc, { path: "/x", method: "GET", authority: "h", scheme: "http", headers: new Headers() });
 * assert.equal(r?.action.kind, "cluster");
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { type HeaderMatcher, matchHeaders, parseHeaderMatchers } from "./header_matcher.ts";
import type { MatchInput } from "../http/downstream_request.ts";
import { mergePerFilter, type PerFilterMap, rawPerFilter } from "./per_filter_config.ts";
import { compileRe2, type Re2Matcher } from "../config/safe_regex.ts";
import { parseRouteAction, type RouteAction } from "./route_action.ts";
import { type HeaderMutation, parseHeaderMutation } from "./header_mutation.ts";
import { parseRetryPolicy } from "./retry_policy.ts";
import { DEFAULT_BUFFER_LIMIT } from "./retry_forward.ts";

/** How a route matches the path. */
export type PathMatch =
  | { kind: "prefix"; value: string; caseSensitive: boolean }
  | { kind: "path"; value: string; caseSensitive: boolean }
  | { kind: "regex"; re: Re2Matcher }
  | { kind: "connect" };

/** One compiled route. */
export interface Route {
  name: string;
  match: PathMatch;
  headers: HeaderMatcher[];
  action: RouteAction;
  /** Request header mutations of the route, its virtual host and the route table, in order. */
  requestHeaders: HeaderMutation[];
  /** Response header mutations, in the same order. */
  responseHeaders: HeaderMutation[];
  /** The virtual host's `include_request_attempt_count`. */
  attemptCountInRequest: boolean;
  /** The virtual host's `include_attempt_count_in_response`. */
  attemptCountInResponse: boolean;
  /** `per_request_buffer_limit_bytes` of the route or virtual host (default 1 MiB). */
  bufferLimit: number;
  /** Per-filter configuration of the route over its virtual host's (`per_filter_config.ts`). */
  perFilter?: PerFilterMap;
}

/** One compiled virtual host. */
export interface VirtualHost {
  name: string;
  routes: Route[];
}

/** A compiled route table. */
export interface RouteConfig {
  name: string;
  exact: Map<string, VirtualHost>;
  /** `*.x` domains as [suffix, host], longest first. */
  suffixes: [string, VirtualHost][];
  /** `x.*` domains as [prefix, host], longest first. */
  prefixes: [string, VirtualHost][];
  fallback: VirtualHost | null;
}

function parseMatch(m: Json | undefined, path: string, errors: Errors): PathMatch | null {
  if (!isObject(m)) {
    fail(errors, path, "route needs a match object");
    return null;
  }
  const cs = m.case_sensitive === undefined
    ? true
    : (isObject(m.case_sensitive) ? m.case_sensitive.value !== false : m.case_sensitive !== false);
  const kinds = ["prefix", "path", "safe_regex", "regex", "connect_matcher"].filter((k) =>
    m[k] !== undefined
  );
  if (kinds.length !== 1) {
    const other = ["path_separated_prefix", "path_match_policy"].find((k) => m[k] !== undefined);
    if (other) {
      fail(errors, `${path}.${other}`, `route match field ${other} is not supported`);
      return null;
    }
    fail(
      errors,
      path,
      kinds.length === 0
        ? "match needs one of prefix, path, safe_regex, connect_matcher"
        : `match takes only one of prefix, path, safe_regex, connect_matcher (found ${
          kinds.join(", ")
        })`,
    );
    return null;
  }
  for (const k of Object.keys(m)) {
    if (
      !["prefix", "path", "safe_regex", "regex", "connect_matcher", "case_sensitive", "headers"]
        .includes(k)
    ) {
      fail(errors, `${path}.${k}`, `route match field ${k} is not supported`);
    }
  }
  if (m.connect_matcher !== undefined) {
    const cm = m.connect_matcher;
    if (!isObject(cm)) fail(errors, `${path}.connect_matcher`, "connect_matcher must be an object");
    else {
      for (const k of Object.keys(cm)) {
        fail(errors, `${path}.connect_matcher.${k}`, `unknown field ${k} of ConnectMatcher`);
      }
    }
    return { kind: "connect" };
  }
  if (typeof m.prefix === "string") return { kind: "prefix", value: m.prefix, caseSensitive: cs };
  if (typeof m.path === "string") return { kind: "path", value: m.path, caseSensitive: cs };
  const src = isObject(m.safe_regex) ? m.safe_regex.regex : m.regex;
  const at = isObject(m.safe_regex) ? `${path}.safe_regex.regex` : `${path}.${kinds[0]}`;
  const re = compileRe2(src, at, errors);
  return re ? { kind: "regex", re } : null;
}

/** What a virtual host takes from its route table. */
interface TableLevel {
  headers: { request: HeaderMutation | null; response: HeaderMutation | null };
  mostSpecificWins: boolean;
}

function bufferLimit(v: Json | undefined, path: string, errors: Errors): number | null {
  if (v === undefined) return null;
  const n = Number(unwrap(v));
  if (!Number.isInteger(n) || n < 0 || n > 4294967295) {
    fail(errors, path, "must be an integer from 0 to 4294967295");
    return null;
  }
  return n;
}

function levels(
  route: HeaderMutation | null,
  vhost: HeaderMutation | null,
  table: HeaderMutation | null,
  mostSpecificWins: boolean,
): HeaderMutation[] {
  const order = mostSpecificWins ? [table, vhost, route] : [route, vhost, table];
  return order.filter((m): m is HeaderMutation => m !== null);
}

function parseVirtualHost(
  v: Json,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
  table: TableLevel,
): [VirtualHost, string[]] | null {
  if (!isObject(v)) {
    fail(errors, path, "virtual host must be an object");
    return null;
  }
  const domains = v.domains;
  if (
    !Array.isArray(domains) || domains.length === 0 || domains.some((d) => typeof d !== "string")
  ) {
    fail(errors, `${path}.domains`, "virtual host needs a non-empty list of domain strings");
    return null;
  }
  const routes: Route[] = [];
  const vhReq = parseHeaderMutation(
    v.request_headers_to_add,
    v.request_headers_to_remove,
    `${path}.request_headers`,
    errors,
  );
  const vhRes = parseHeaderMutation(
    v.response_headers_to_add,
    v.response_headers_to_remove,
    `${path}.response_headers`,
    errors,
  );
  const vhRetry = v.retry_policy === undefined
    ? null
    : parseRetryPolicy(v.retry_policy, `${path}.retry_policy`, errors);
  const vhLimit = bufferLimit(
    v.per_request_buffer_limit_bytes,
    `${path}.per_request_buffer_limit_bytes`,
    errors,
  );
  const vhPerFilter = rawPerFilter(v, path);
  const list = v.routes ?? [];
  if (!Array.isArray(list)) fail(errors, `${path}.routes`, "routes must be a list");
  else {
    list.forEach((r, i) => {
      const at = `${path}.routes[${i}]`;
      if (!isObject(r)) return fail(errors, at, "route must be an object");
      const match = parseMatch(r.match, `${at}.match`, errors);
      const headers = isObject(r.match)
        ? parseHeaderMatchers(r.match.headers, `${at}.match.headers`, errors)
        : [];
      const action = parseRouteAction(r, at, errors, clusters);
      const req = parseHeaderMutation(
        r.request_headers_to_add,
        r.request_headers_to_remove,
        `${at}.request_headers`,
        errors,
      );
      const res = parseHeaderMutation(
        r.response_headers_to_add,
        r.response_headers_to_remove,
        `${at}.response_headers`,
        errors,
      );
      const limit = bufferLimit(
        r.per_request_buffer_limit_bytes,
        `${at}.per_request_buffer_limit_bytes`,
        errors,
      );
      if (!match || !action) return;
      if (action.kind !== "direct" && action.kind !== "redirect" && action.retry === null) {
        action.retry = vhRetry;
      }
      routes.push({
        name: String(r.name ?? ""),
        match,
        headers,
        action,
        requestHeaders: levels(req, vhReq, table.headers.request, table.mostSpecificWins),
        responseHeaders: levels(res, vhRes, table.headers.response, table.mostSpecificWins),
        attemptCountInRequest: unwrap(v.include_request_attempt_count) === true,
        attemptCountInResponse: unwrap(v.include_attempt_count_in_response) === true,
        bufferLimit: limit ?? vhLimit ?? DEFAULT_BUFFER_LIMIT,
        perFilter: mergePerFilter(vhPerFilter, rawPerFilter(r, at)),
      });
    });
  }
  return [{ name: String(v.name ?? ""), routes }, domains as string[]];
}

/** Compiles `route_config`; `clusters` (when given) are the names a route may use. */
export function parseRouteConfig(
  rc: Json | undefined,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): RouteConfig | null {
  if (!isObject(rc)) {
    fail(errors, path, "route_config must be an object");
    return null;
  }
  // validate_clusters false: routes may name clusters that CDS brings later (503 until then).
  const vc = rc.validate_clusters ?? rc.validateClusters;
  if (vc === false || (isObject(vc) && vc.value === false)) clusters = null;
  const out: RouteConfig = {
    name: String(rc.name ?? ""),
    exact: new Map(),
    suffixes: [],
    prefixes: [],
    fallback: null,
  };
  const seen = new Set<string>();
  const vhs = rc.virtual_hosts ?? [];
  if (!Array.isArray(vhs)) {
    fail(errors, `${path}.virtual_hosts`, "virtual_hosts must be a list");
    return null;
  }
  const table: TableLevel = {
    headers: {
      request: parseHeaderMutation(
        rc.request_headers_to_add,
        rc.request_headers_to_remove,
        `${path}.request_headers`,
        errors,
      ),
      response: parseHeaderMutation(
        rc.response_headers_to_add,
        rc.response_headers_to_remove,
        `${path}.response_headers`,
        errors,
      ),
    },
    mostSpecificWins: unwrap(rc.most_specific_header_mutations_wins) === true,
  };
  vhs.forEach((v, i) => {
    const at = `${path}.virtual_hosts[${i}]`;
    const parsed = parseVirtualHost(v, at, errors, clusters, table);
    if (!parsed) return;
    const [vh, domains] = parsed;
    for (const d0 of domains) {
      const d = d0.toLowerCase();
      if (seen.has(d)) {
        fail(errors, `${at}.domains`, `domain "${d0}" is used by more than one virtual host`);
        continue;
      }
      seen.add(d);
      if (d === "*") out.fallback = vh;
      else if (d.startsWith("*")) out.suffixes.push([d.slice(1), vh]);
      else if (d.endsWith("*")) out.prefixes.push([d.slice(0, -1), vh]);
      else out.exact.set(d, vh);
    }
  });
  out.suffixes.sort((a, b) => b[0].length - a[0].length);
  out.prefixes.sort((a, b) => b[0].length - a[0].length);
  return out;
}

function findHost(rc: RouteConfig, host: string): VirtualHost | null {
  const e = rc.exact.get(host);
  if (e) return e;
  for (const [s, vh] of rc.suffixes) if (host.length > s.length && host.endsWith(s)) return vh;
  for (const [p, vh] of rc.prefixes) if (host.length > p.length && host.startsWith(p)) return vh;
  return null;
}

/**
 * The virtual host for an authority: an exact domain with the port, then every kind of domain
 * against the host without its port, then wildcards against host and port, then `*`.
 */
export function selectVirtualHost(rc: RouteConfig, authority: string): VirtualHost | null {
  // A route table serves few authorities: each one's answer is kept (a bounded number of them).
  let seen = chosenHosts.get(rc);
  if (seen === undefined) chosenHosts.set(rc, seen = new Map());
  const known = seen.get(authority);
  if (known !== undefined) return known;
  const vh = lookupVirtualHost(rc, authority);
  if (seen.size >= MAX_CHOSEN_HOSTS) seen.clear();
  seen.set(authority, vh);
  return vh;
}

/** At most this many authorities' virtual hosts are kept per route table. */
const MAX_CHOSEN_HOSTS = 256;
/** The virtual host each authority selected, per route table (tables are never changed). */
const chosenHosts = new WeakMap<RouteConfig, Map<string, VirtualHost | null>>();

function lookupVirtualHost(rc: RouteConfig, authority: string): VirtualHost | null {
  const host = authority.toLowerCase();
  const e = rc.exact.get(host);
  if (e) return e;
  const colon = host.lastIndexOf(":");
  if (colon > 0 && host.indexOf("]") < colon && /^\d+$/.test(host.slice(colon + 1))) {
    const vh = findHost(rc, host.slice(0, colon));
    if (vh) return vh;
  }
  return findHost(rc, host) ?? rc.fallback;
}

function pathOnly(p: string): string {
  const q = p.indexOf("?");
  return q < 0 ? p : p.slice(0, q);
}

function matchesPath(m: PathMatch, path: string, method: string): boolean {
  // A CONNECT request matches connect_matcher routes only (it has no path), as in Envoy.
  if (m.kind === "connect" || method === "CONNECT") {
    return m.kind === "connect" && method === "CONNECT";
  }
  switch (m.kind) {
    case "prefix":
      return m.caseSensitive
        ? path.startsWith(m.value)
        : path.toLowerCase().startsWith(m.value.toLowerCase());
    case "path": {
      const p = pathOnly(path);
      return m.caseSensitive ? p === m.value : p.toLowerCase() === m.value.toLowerCase();
    }
    default:
      return m.re.test(pathOnly(path));
  }
}

/** The first route of the matching virtual host that matches `r`, or `null` (404 `NR`). */
export function selectRoute(rc: RouteConfig, r: MatchInput): Route | null {
  const vh = selectVirtualHost(rc, r.authority);
  if (!vh) return null;
  for (const route of vh.routes) {
    if (
      matchesPath(route.match, r.path, r.method) &&
      (route.headers.length === 0 || matchHeaders(route.headers, r))
    ) {
      return route;
    }
  }
  return null;
}
