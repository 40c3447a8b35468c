/**
 * The router filter's own settings (`envoy.extensions.filters.http.router.v3.Router`) that
 * change what goes upstream and back: `suppress_envoy_headers` (no
 * `x-proxy-expected-rq-timeout-ms` upstream, no `x-proxy-upstream-service-time` or
 * `x-proxy-overloaded` downstream) and `respect_expected_rq_timeout` (an
 * `x-proxy-expected-rq-timeout-ms` request header is the request's timeout;
 * `src/router/route_timeout.ts`). The router's other fields are checked by the support table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRouterFilter } from "./router_filter_config.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const r = parseRouterFilter({ suppress_envoy_headers: true }, "f", errors);
 * assert.deepEqual(r, { suppressEnvoyHeaders: true, respectExpectedRqTimeout: false });
 * parseRouterFilter({ respect_expected_rq_timeout: "yes" }, "f", errors);
 * assert.equal(errors[0].path, "f.respect_expected_rq_timeout");
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, unwrap } from "../config/config_values.ts";

/** The router filter's settings. */
export interface RouterFilterConfig {
  suppressEnvoyHeaders: boolean;
  respectExpectedRqTimeout: boolean;
}

/** The defaults (a connection manager without a configured router filter). */
export const DEFAULT_ROUTER_FILTER: RouterFilterConfig = {
  suppressEnvoyHeaders: false,
  respectExpectedRqTimeout: false,
};

/** The response headers `suppress_envoy_headers` keeps from the client. */
export const SUPPRESSED_RESPONSE_HEADERS = [
  "x-proxy-upstream-service-time",
  "x-proxy-overloaded",
] as const;

function bool(v: Json | undefined, path: string, errors: Errors): boolean {
  const b = unwrap(v);
  if (b === undefined || b === null) return false;
  if (typeof b !== "boolean") {
    fail(errors, path, "must be a bool");
    return false;
  }
  return b;
}

/** Parses the router filter's configuration `c`, found at `path`. */
export function parseRouterFilter(c: JsonObject, path: string, errors: Errors): RouterFilterConfig {
  return {
    suppressEnvoyHeaders: bool(c.suppress_envoy_headers, `${path}.suppress_envoy_headers`, errors),
    respectExpectedRqTimeout: bool(
      c.respect_expected_rq_timeout,
      `${path}.respect_expected_rq_timeout`,
      errors,
    ),
  };
}
