/**
 * The HTTP health check filter (`envoy.filters.http.health_check`, `envoy.health_check`, and the
 * `proxy.` spellings). A request that matches its `headers` (or v2 `endpoint`) is answered 200
 * when the server passes, 503 while `/healthcheck/fail` is in effect; in `pass_through_mode` a
 * passing check is forwarded to the upstream instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHealthCheck } from "./health_check_filter.ts";
 * const hc = parseHealthCheck({ pass_through_mode: false,
 *   headers: [{ name: ":path", exact_match: "/healthz" }] }, "f", [])!;
 * assert.equal(hc.passThrough, false);
 * ```
 * @module
 */
import { HeaderMap } from "../http/header_map.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { type ProxyResponse, proxyResponse } from "../http/proxy_response.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import {
  type HeaderMatcher,
  matchHeaders,
  parseHeaderMatcher,
  parseHeaderMatchers,
} from "../router/header_matcher.ts";
import type { MatchInput } from "../http/downstream_request.ts";

/** A compiled health check filter. */
export interface HealthCheckFilter {
  passThrough: boolean;
  headers: HeaderMatcher[];
}

/** Parses the filter's configuration. */
export function parseHealthCheck(
  c: JsonObject,
  path: string,
  errors: Errors,
): HealthCheckFilter | null {
  const pt = unwrap(c.pass_through_mode);
  if (typeof pt !== "boolean") {
    fail(errors, `${path}.pass_through_mode`, "pass_through_mode is required (true or false)");
    return null;
  }
  let headers: HeaderMatcher[];
  if (c.headers !== undefined) headers = parseHeaderMatchers(c.headers, `${path}.headers`, errors);
  else if (typeof c.endpoint === "string") {
    headers = [parseHeaderMatcher({ name: ":path", exact_match: c.endpoint }, path, errors)!];
  } else {
    fail(errors, `${path}.headers`, "the health check filter needs headers to match");
    return null;
  }
  const k = "cluster_min_healthy_percentages";
  if (isObject(c[k])) fail(errors, `${path}.${k}`, `${k} is not supported yet`);
  return { passThrough: pt, headers };
}

/**
 * The filter's answer for `r`: a response, or `null` to continue to the router.
 * `failed` is the server's `/healthcheck/fail` state.
 */
export function healthCheck(
  f: HealthCheckFilter,
  r: MatchInput,
  failed: boolean,
): ProxyResponse | null {
  if (!matchHeaders(f.headers, r)) return null;
  // Local replies with no body, as Envoy's sendLocalReply: the mappers and gRPC apply to them.
  if (failed) {
    const res = proxyResponse(
      503,
      new HeaderMap([["x-proxy-immediate-health-check-fail", "true"]]),
    );
    res.localBody = "";
    return res;
  }
  if (f.passThrough) return null;
  const ok = proxyResponse(200);
  ok.localBody = "";
  return ok;
}
