/**
 * Per-route filter configuration as written on virtual hosts and routes: `typed_per_filter_config`
 * (v3, filter name -> `Any`), `per_filter_config` (v2, filter name -> `Struct`) and the `cors`
 * policy of a virtual host or route action (kept under the CORS filter's name). A route's map is
 * its virtual host's with the route's own entries over it (the most specific wins, as in Envoy).
 * Names are kept in their canonical `proxy.` spelling; the HTTP filters compile the values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergePerFilter, rawPerFilter } from "./per_filter_config.ts";
 * const vh = rawPerFilter({ cors: { allow_methods: "GET" } }, "vh");
 * const r = rawPerFilter({ typed_per_filter_config: { "envoy.filters.http.buffer": { disabled: true } } }, "r");
 * assert.deepEqual([...mergePerFilter(vh, r).keys()], ["proxy.filters.http.cors", "proxy.filters.http.buffer"]);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { isObject } from "../config/config_values.ts";
import { canonicalFilterName } from "../config/filter_names.ts";

/** One entry: the configuration as written, where it is, and the filter's compiled form. */
export interface PerFilterEntry {
  value: Json;
  at: string;
  compiled?: unknown;
  /** A `config.route.v3.FilterConfig` with `disabled: true`: the filter is skipped here. */
  disabled?: boolean;
}

/** Canonical filter name -> its per-route entry. */
export type PerFilterMap = Map<string, PerFilterEntry>;

const CORS = "proxy.filters.http.cors";

/** The per-filter entries written on a virtual host or route object `o` (found at `at`). */
export function rawPerFilter(o: JsonObject, at: string): PerFilterMap {
  const out: PerFilterMap = new Map();
  const action = isObject(o.route) ? o.route : null;
  if (o.cors !== undefined) out.set(CORS, { value: o.cors, at: `${at}.cors` });
  if (action !== null && action.cors !== undefined) {
    out.set(CORS, { value: action.cors, at: `${at}.route.cors` });
  }
  for (const field of ["per_filter_config", "typed_per_filter_config"]) {
    const m = o[field];
    if (!isObject(m)) continue;
    for (const [name, v] of Object.entries(m)) {
      out.set(canonicalFilterName(name), { value: v, at: `${at}.${field}.${name}` });
    }
  }
  return out;
}

/** The virtual host's entries with the route's over them. */
export function mergePerFilter(vh: PerFilterMap, route: PerFilterMap): PerFilterMap {
  if (route.size === 0) return vh;
  if (vh.size === 0) return route;
  const out: PerFilterMap = new Map(vh);
  for (const [k, v] of route) out.set(k, v);
  return out;
}
