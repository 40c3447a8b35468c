/**
 * The CORS filter (`envoy.filters.http.cors`): it acts on requests whose route (or virtual host)
 * has a CORS policy, given as `cors` on the virtual host or route action, or as the
 * `typed_per_filter_config` of the filter's name (`CorsPolicy`). As Envoy does:
 *
 * - a request without `Origin`, or whose origin no `allow_origin_string_match` matches (a
 *   matcher that matches `*` allows every origin), passes untouched; the origin is counted in
 *   `http.<prefix>.cors.origin_valid` / `origin_invalid`;
 * - a preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is
 *   answered `200` by the filter with `access-control-allow-origin` (the origin),
 *   `-allow-credentials`, `-allow-methods`, `-allow-headers` and `-max-age`;
 * - any other request from an allowed origin is forwarded, and its response gets
 *   `access-control-allow-origin`, `-allow-credentials` and `-expose-headers`.
 *
 * `filter_enabled` (default 100%) and `shadow_enabled` (origin counted only) take their
 * `default_value`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CORS } from "./cors_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const p = CORS.parsePerRoute!({ allow_origin_string_match: [{ exact: "https://a" }] }, "cors", errors);
 * assert.deepEqual(errors, []);
 * assert.notEqual(p, null);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, unwrap } from "../config/config_values.ts";
import { HeaderMap } from "../http/header_map.ts";
import { proxyResponse } from "../http/proxy_response.ts";
import { compileStringMatcher } from "../config/string_matcher.ts";
import { compileRe2 } from "../config/safe_regex.ts";
import { fixedFraction, parseRuntimeFraction, type RuntimeFraction } from "./fractional_percent.ts";
import { runtimeFractionEnabled } from "../config/runtime_lookup.ts";
import { anyBody, type HttpFilterFactory, onlyFields } from "./http_filter.ts";

/** A compiled CORS policy. */
export interface CorsPolicy {
  origins: ((v: string) => boolean)[];
  allowMethods: string;
  allowHeaders: string;
  exposeHeaders: string;
  maxAge: string;
  allowCredentials: boolean;
  /** `filter_enabled` (its runtime key read per request). */
  enabled: RuntimeFraction;
  /** `shadow_enabled`. */
  shadow: RuntimeFraction;
}

const FIELDS = [
  "allow_origin_string_match",
  "allow_origin",
  "allow_origin_regex",
  "allow_methods",
  "allow_headers",
  "expose_headers",
  "max_age",
  "allow_credentials",
  "filter_enabled",
  "shadow_enabled",
  "enabled",
];

function str(v: Json | undefined, at: string, errors: Errors): string {
  if (v === undefined) return "";
  if (typeof v !== "string") return fail(errors, at, "must be a string"), "";
  return v;
}

/** Compiles a `CorsPolicy` found at `at`. */
export function parseCorsPolicy(v: Json, at: string, errors: Errors): CorsPolicy | null {
  const c = anyBody(v);
  if (c === null) return fail(errors, at, "CORS policy must be an object"), null;
  const n = errors.length;
  onlyFields(c, FIELDS, at, errors);
  const origins: ((v: string) => boolean)[] = [];
  const list = (k: string) => {
    const l = c[k] ?? [];
    if (!Array.isArray(l)) return fail(errors, `${at}.${k}`, "must be a list"), [];
    return l;
  };
  list("allow_origin_string_match").forEach((m, i) => {
    const f = compileStringMatcher(m, `${at}.allow_origin_string_match[${i}]`, errors);
    if (f) origins.push(f);
  });
  list("allow_origin").forEach((m, i) => {
    if (typeof m !== "string") return fail(errors, `${at}.allow_origin[${i}]`, "must be a string");
    origins.push((o) => o === m);
  });
  list("allow_origin_regex").forEach((m, i) => {
    const re = compileRe2(m, `${at}.allow_origin_regex[${i}]`, errors);
    if (re) origins.push((o) => re.test(o));
  });
  const creds = unwrap(c.allow_credentials);
  if (creds !== undefined && typeof creds !== "boolean") {
    fail(errors, `${at}.allow_credentials`, "must be a boolean");
  }
  const legacy = unwrap(c.enabled);
  const enabled = parseRuntimeFraction(
    c.filter_enabled,
    `${at}.filter_enabled`,
    errors,
    legacy === false ? 0 : 1,
  );
  const shadow = parseRuntimeFraction(c.shadow_enabled, `${at}.shadow_enabled`, errors, 0);
  const policy: CorsPolicy = {
    origins,
    allowMethods: str(c.allow_methods, `${at}.allow_methods`, errors),
    allowHeaders: str(c.allow_headers, `${at}.allow_headers`, errors),
    exposeHeaders: str(c.expose_headers, `${at}.expose_headers`, errors),
    maxAge: str(c.max_age, `${at}.max_age`, errors),
    allowCredentials: creds === true,
    enabled: enabled ?? fixedFraction(0),
    shadow: shadow ?? fixedFraction(0),
  };
  return errors.length === n ? policy : null;
}

const NAME = "proxy.filters.http.cors";

/** The CORS filter. */
export const CORS: HttpFilterFactory<Record<never, never>> = {
  kind: "cors",
  types: ["Cors"],
  parse(c, at, errors) {
    onlyFields(c, [], at, errors);
    return {};
  },
  parsePerRoute: parseCorsPolicy,
  create(_c, deps) {
    const valid = deps.stats.scope("cors").counter("origin_valid");
    const invalid = deps.stats.scope("cors").counter("origin_invalid");
    return async (ctx, next) => {
      const p = ctx.perRoute<CorsPolicy>(NAME);
      if (p === undefined) return next();
      const enforce = runtimeFractionEnabled(p.enabled, deps.runtime);
      if (!enforce && !runtimeFractionEnabled(p.shadow, deps.runtime)) return next();
      const origin = ctx.req.headers.get("origin");
      if (origin === null || origin === "") return next();
      if (!p.origins.some((m) => m("*") || m(origin))) {
        invalid.inc();
        return next();
      }
      valid.inc();
      if (!enforce) return next();
      const req = ctx.req;
      if (req.method === "OPTIONS" && req.headers.get("access-control-request-method")) {
        const h = new HeaderMap([["access-control-allow-origin", origin]]);
        if (p.allowCredentials) h.set("access-control-allow-credentials", "true");
        if (p.allowMethods) h.set("access-control-allow-methods", p.allowMethods);
        if (p.allowHeaders) h.set("access-control-allow-headers", p.allowHeaders);
        if (p.maxAge) h.set("access-control-max-age", p.maxAge);
        if (ctx.lg !== null) ctx.lg.details = "cors_response";
        req.body?.cancel().catch(() => {});
        return proxyResponse(200, h);
      }
      const res = await next();
      res.headers.set("access-control-allow-origin", origin);
      if (p.allowCredentials) res.headers.set("access-control-allow-credentials", "true");
      if (p.exposeHeaders) res.headers.set("access-control-expose-headers", p.exposeHeaders);
      return res;
    };
  },
};
