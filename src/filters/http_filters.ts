/**
 * The HTTP filters of this build besides the router, health check and tap (which the connection
 * manager handles itself), one row per kind: {@linkcode HTTP_FILTERS}. A filter entry of
 * `http_filters` selects its row by name (`envoy.filters.http.<kind>`, `proxy.` too, or the
 * v2 `envoy.<kind>`) or by the `@type` of its typed config.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpFilterFactory } from "./http_filters.ts";
 * assert.equal(httpFilterFactory("envoy.filters.http.cors", null)?.kind, "cors");
 * assert.equal(httpFilterFactory("x", "LocalRateLimit")?.kind, "local_ratelimit");
 * assert.equal(httpFilterFactory("envoy.filters.http.lua", null), null);
 * const t = "envoy.extensions.filters.http.set_filter_state.v3.Config";
 * assert.equal(httpFilterFactory("x", t)?.kind, "set_filter_state");
 * assert.equal(httpFilterFactory("x", "envoy.extensions.filters.http.other.v3.Config"), null);
 * ```
 * @module
 */
import { filterKind } from "../config/config_values.ts";
import { BUFFER } from "./buffer_filter.ts";
import { COMPRESSOR } from "./compressor_filter.ts";
import { CORS } from "./cors_filter.ts";
import { EXT_AUTHZ } from "./ext_authz_filter.ts";
import { FAULT } from "./fault_filter.ts";
import type { HttpFilterFactory } from "./http_filter.ts";
import { HEADER_TO_METADATA } from "./header_to_metadata_filter.ts";
import { LOCAL_RATELIMIT } from "./local_ratelimit_filter.ts";
import { SET_FILTER_STATE } from "./set_filter_state_filter.ts";

/** Every filter kind of this build that plugs into the chain. */
export const HTTP_FILTERS = {
  cors: CORS,
  fault: FAULT,
  local_ratelimit: LOCAL_RATELIMIT,
  buffer: BUFFER,
  compressor: COMPRESSOR,
  ext_authz: EXT_AUTHZ,
  set_filter_state: SET_FILTER_STATE,
  header_to_metadata: HEADER_TO_METADATA,
} satisfies Record<string, HttpFilterFactory>;

/** Filters people ask for that this build does not have, with the reason given in refusals. */
export const NOT_BUILT: Readonly<Record<string, string>> = {
  lua:
    "Envoy's Lua filter runs LuaJIT scripts against its handle API (headers, bodies, httpCall, " +
    "stream info, metadata); the embeddable Lua on npm (wasmoon, Lua 5.4 in WebAssembly; " +
    "fengari) has neither that dialect nor that API, and a partial API would accept scripts " +
    "that then fail on requests",
  decompressor: "request and response decompression is not built; the compressor is",
  gzip: "the v2 gzip filter is gone from Envoy; use envoy.filters.http.compressor with gzip",
  grpc_web: "gRPC-Web translation is not built",
  jwt_authn: "JWT authentication is not built",
  rbac: "role-based access control is not built",
  ratelimit: "the global rate limit service (gRPC) is not built; local_ratelimit is",
};

/** The names of every HTTP filter this build has, for messages. */
export const SUPPORTED_HTTP_FILTERS: readonly string[] = [
  "router",
  "health_check",
  "tap",
  ...Object.keys(HTTP_FILTERS),
].map((k) => `envoy.filters.http.${k}`);

/**
 * The factory of a filter named `name` (or whose typed config is the message `type`, fully
 * qualified or short), if this build has it. A factory lists a fully qualified name where the
 * short one (`Config`) is shared by several of Envoy's filters.
 */
export function httpFilterFactory(name: string, type: string | null): HttpFilterFactory | null {
  const all: Record<string, HttpFilterFactory> = HTTP_FILTERS;
  const byName = all[filterKind(name)];
  if (byName) return byName;
  if (type === null) return null;
  const short = type.slice(type.lastIndexOf(".") + 1);
  for (const f of Object.values(all)) {
    if (f.types.includes(type) || f.types.includes(short)) return f;
  }
  return null;
}
