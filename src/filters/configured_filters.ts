/**
 * The connection manager's side of the filter chain: one `http_filters` entry parsed into a
 * {@linkcode ConfiguredFilter} (its factory and compiled configuration), or refused with the
 * list of the filters this build has, or, when it is `is_optional`, skipped with a warning as
 * Envoy does; and the lookup of per-route configurations by filter name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseChainFilter } from "./configured_filters.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const chain: never[] = [];
 * const warnings: string[] = [];
 * parseChainFilter({ name: "envoy.filters.http.lua", is_optional: true }, "f", errors, null, chain, warnings);
 * assert.equal(errors.length, 0);
 * assert.equal(warnings.length, 1);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import {
  type Errors,
  fail,
  filterConfig,
  filterKind,
  typedConfigMessage,
} from "../config/config_values.ts";
import { canonicalFilterName } from "../config/filter_names.ts";
import type { HttpFilterFactory } from "./http_filter.ts";
import { httpFilterFactory, NOT_BUILT, SUPPORTED_HTTP_FILTERS } from "./http_filters.ts";

/** One filter of the chain, configured. */
export interface ConfiguredFilter {
  /** The name as configured. */
  name: string;
  factory: HttpFilterFactory;
  config: unknown;
}

/**
 * Parses the `http_filters` entry `f` (at `at`) that is neither the router, health check nor
 * tap: appends it to `chain`, or adds the error or (optional filter) the warning.
 */
export function parseChainFilter(
  f: JsonObject,
  at: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
  chain: ConfiguredFilter[],
  warnings: string[],
): void {
  const name = String(f.name);
  const factory = httpFilterFactory(name, typedConfigMessage(f));
  if (factory === null) {
    if (f.is_optional === true) {
      warnings.push(`optional HTTP filter ${name} is not supported by this build; it is skipped`);
      return;
    }
    const why = NOT_BUILT[filterKind(name)];
    fail(
      errors,
      `${at}.name`,
      `HTTP filter ${name} is not supported${why ? ` (${why})` : ""} (supported: ${
        SUPPORTED_HTTP_FILTERS.join(", ")
      })`,
    );
    return;
  }
  const n = errors.length;
  const c = filterConfig(f, at, errors);
  if (errors.length > n) return;
  const cAt = `${at}.${f.typed_config !== undefined ? "typed_config" : "config"}`;
  const config = factory.parse(c, cAt, errors, clusters);
  if (config !== null) chain.push({ name, factory, config });
}

/** The factory whose per-route configuration a `typed_per_filter_config` key names. */
export function perRouteFactory(canonicalName: string): HttpFilterFactory | null {
  const f = httpFilterFactory(canonicalName, null);
  return f !== null && canonicalFilterName(`proxy.filters.http.${f.kind}`) === canonicalName
    ? f
    : null;
}
