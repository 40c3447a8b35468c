/**
 * The HTTP filter chain of a connection manager. A filter is a function of the request on its
 * way in and of the rest of the chain: it may answer by itself (a local reply: CORS preflight,
 * fault abort, rate limit, buffer limit, denied authorization), wait (fault delay), change the
 * request (buffered body) and change the response the rest of the chain gave (CORS headers,
 * compression). The router is the end of the chain and is not a filter here.
 *
 * Each filter kind is an {@linkcode HttpFilterFactory}: it parses its configuration (refusing
 * fields it does not honour, with their path), optionally a per-route configuration
 * (`typed_per_filter_config`), and creates the filter with the connection manager's stats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runChain, type HttpFilter } from "./http_filter.ts";
 * import { proxyResponse } from "../http/proxy_response.ts";
 * const tag: HttpFilter = async (ctx, next) => {
 *   const res = await next();
 *   res.headers.set("x-tag", "1");
 *   return res;
 * };
 * const ctx = { perRoute: () => undefined } as never;
 * const res = await runChain([tag], ctx, () => Promise.resolve(proxyResponse(200)));
 * assert.equal(res.headers.get("x-tag"), "1");
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";
import type { DownstreamConn, DownstreamRequest } from "../http/downstream_request.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import type { LogCtx } from "../access_log/request_logger.ts";
import type { Route, RouteConfig, VirtualHost } from "../router/route_config.ts";
import type { Scope } from "../stats/types.ts";
import type { RuntimeLookup } from "../config/runtime_lookup.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";

/** What a filter sees of one request. */
export interface FilterContext {
  /** The request; a filter may replace it (a buffered body) for the filters after it. */
  req: DownstreamRequest;
  conn: DownstreamConn;
  /** The route the request matched (null: none). */
  route: Route | null;
  /** The access log context (null: no access log). */
  lg: LogCtx | null;
  /** This filter's compiled per-route configuration of the matched route, if any. */
  perRoute<T>(name: string): T | undefined;
}

/** The rest of the chain. */
export type Next = () => Promise<ProxyResponse>;

/** One filter instance. */
export type HttpFilter = (ctx: FilterContext, next: Next) => Promise<ProxyResponse>;

/** What a filter may use of its connection manager. */
export interface FilterDeps {
  /** `http.<stat_prefix>` */
  stats: Scope;
  /** The root scope (filters with their own `stat_prefix`). */
  root: Scope;
  clusters: ClusterManager;
  log: (level: string, msg: string) => void;
  /** The runtime, read at decision time by settings with a `runtime_key` (none: defaults). */
  runtime?: RuntimeLookup;
}

/** A kind of HTTP filter. */
export interface HttpFilterFactory<C = unknown> {
  /** The name without prefix (`cors`); `envoy.filters.http.<kind>` and `proxy.` select it. */
  kind: string;
  /** The short names of its typed config messages (`Cors`), which select it too. */
  types: readonly string[];
  /**
   * Parses the filter's configuration found at `at`; `clusters` (when known) are the names a
   * filter that calls a cluster may use.
   */
  parse(
    c: JsonObject,
    at: string,
    errors: Errors,
    clusters?: ReadonlySet<string> | null,
  ): C | null;
  /** Parses a per-route configuration, when the filter has one. */
  parsePerRoute?(c: Json, at: string, errors: Errors): unknown | null;
  /**
   * Refuses, at `at`, the parts of a per-route configuration that the connection manager's
   * configured filter `config` would not use.
   */
  checkPerRoute?(config: C, perRoute: unknown, at: string, errors: Errors): void;
  /** Creates the filter. */
  create(config: C, deps: FilterDeps): HttpFilter;
}

/** Runs `filters` in order, then `last`. */
export function runChain(
  filters: readonly HttpFilter[],
  ctx: FilterContext,
  last: Next,
): Promise<ProxyResponse> {
  const step = (i: number): Promise<ProxyResponse> =>
    i === filters.length ? last() : filters[i](ctx, () => step(i + 1));
  return step(0);
}

/** Fails with `<at>.<k>` for each key of `c` not in `allowed` (`@type` is ignored). */
export function onlyFields(
  c: JsonObject,
  allowed: readonly string[],
  at: string,
  errors: Errors,
): boolean {
  let ok = true;
  for (const k of Object.keys(c)) {
    if (k === "@type" || allowed.includes(k)) continue;
    fail(errors, `${at}.${k}`, `${k} is not supported by this build`);
    ok = false;
  }
  return ok;
}

/** The body of an `Any` (without `@type`), or the value itself; null when not an object. */
export function anyBody(v: Json): JsonObject | null {
  if (!isObject(v)) return null;
  const { "@type": _t, ...rest } = v;
  return rest;
}

function virtualHosts(rc: RouteConfig): Set<VirtualHost> {
  const out = new Set<VirtualHost>(rc.exact.values());
  for (const [, vh] of rc.suffixes) out.add(vh);
  for (const [, vh] of rc.prefixes) out.add(vh);
  if (rc.fallback) out.add(rc.fallback);
  return out;
}

/**
 * Compiles the per-route configuration of every route of `rc` with the factory of its name
 * (`byName`: canonical filter name -> factory). A name no factory of this build has, or one
 * whose filter has no per-route configuration, is an error at its path; so is a part the
 * connection manager's configured filters of that factory (`configured`) would not use.
 */
export function compilePerRoute(
  rc: RouteConfig,
  byName: (name: string) => HttpFilterFactory | null,
  errors: Errors,
  configured: (f: HttpFilterFactory) => readonly unknown[] = () => [],
): void {
  const done = new Set<object>();
  for (const vh of virtualHosts(rc)) {
    for (const r of vh.routes) {
      if (!r.perFilter) continue;
      for (const [name, e] of r.perFilter) {
        if (done.has(e)) continue;
        done.add(e);
        // A `FilterConfig` wraps the filter's own configuration with `disabled` / `is_optional`.
        const w = isObject(e.value) && typeof e.value["@type"] === "string" &&
            e.value["@type"].endsWith("config.route.v3.FilterConfig")
          ? e.value
          : null;
        if (w !== null) {
          onlyFields(w, ["config", "disabled", "is_optional"], e.at, errors);
          e.disabled = w.disabled === true;
        }
        const value = w === null ? e.value : w.config;
        const f = byName(name);
        if (w !== null && (value === undefined || (f === null && w.is_optional === true))) {
          continue;
        }
        if (f === null) {
          fail(errors, e.at, `no HTTP filter ${name} with a per-route configuration in this build`);
        } else if (f.parsePerRoute === undefined) {
          fail(errors, e.at, `the ${f.kind} filter has no per-route configuration`);
        } else {
          const at = w === null ? e.at : `${e.at}.config`;
          const c = f.parsePerRoute(value as Json, at, errors);
          if (c !== null) e.compiled = c;
          if (c !== null) {
            for (const cfg of configured(f)) f.checkPerRoute?.(cfg, c, at, errors);
          }
        }
      }
    }
  }
}
