/**
 * The set-filter-state filter (`envoy.filters.http.set_filter_state`): on each request it formats
 * every value of `on_request_headers` (a `SubstitutionFormatString` over the request and its
 * connection, as access logs format) and stores the result in the request's filter state under
 * `object_key`, made by the object factory `factory_key` names (else the one `object_key` names).
 * A route's `hash_policy.filter_state` then hashes an `envoy.hashable_string` object, and access
 * logs show objects with `%FILTER_STATE(KEY:PLAIN)%`.
 *
 * As Envoy: an empty value with `skip_if_empty` stores nothing; a `read_only` object is not
 * replaced by a later value under its key. This build has Envoy's two generic factories
 * ({@linkcode OBJECT_FACTORIES}); another name is refused as Envoy refuses a key without a
 * factory. Sharing with upstream connections (`shared_with_upstream` other than `NONE`) is
 * refused: no upstream connection of this build reads filter state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SET_FILTER_STATE } from "./set_filter_state_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const c = SET_FILTER_STATE.parse({ on_request_headers: [{
 *   object_key: "user", factory_key: "envoy.hashable_string",
 *   format_string: { text_format_source: { inline_string: "%REQ(x-user)%" } },
 * }] }, "f", errors);
 * assert.deepEqual(errors, []);
 * assert.equal(c?.values[0].hashable, true);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { parseTypedSubstitutionFormat } from "../access_log/access_log_config.ts";
import type { Formatter } from "../access_log/access_log_format.ts";
import { FilterState } from "../http/filter_state.ts";
import { headerRecord } from "../router/header_context.ts";
import { refusal } from "../config/support_check.ts";
import { type HttpFilterFactory, onlyFields } from "./http_filter.ts";

/**
 * The filter-state object factories of this build, by name: whether their objects have a hash.
 * Both make a string object from the formatted bytes (Envoy's `GenericStringObjectFactory` and
 * `HashableStringObjectFactory`, source/extensions/filters/common/set_filter_state).
 */
export const OBJECT_FACTORIES: Readonly<Record<string, { hashable: boolean }>> = {
  "envoy.string": { hashable: false },
  "envoy.hashable_string": { hashable: true },
};

/** One compiled `FilterStateValue`. */
export interface FilterStateValue {
  key: string;
  hashable: boolean;
  readOnly: boolean;
  skipIfEmpty: boolean;
  format: Formatter;
}

/** The compiled filter configuration. */
export interface SetFilterStateConfig {
  values: FilterStateValue[];
}

const VALUE_FIELDS = [
  "object_key",
  "factory_key",
  "format_string",
  "read_only",
  "shared_with_upstream",
  "skip_if_empty",
];

function optionalBool(v: Json | undefined, at: string, errors: Errors): boolean {
  const b = unwrap(v);
  if (b === undefined) return false;
  if (typeof b !== "boolean") fail(errors, at, "must be a boolean");
  return b === true;
}

function parseValue(v: Json, at: string, errors: Errors): FilterStateValue | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(v, VALUE_FIELDS, at, errors)) return null;
  const key = v.object_key;
  if (typeof key !== "string" || key === "") {
    return fail(errors, `${at}.object_key`, "object_key is required (a non-empty string)"), null;
  }
  if (v.factory_key !== undefined && typeof v.factory_key !== "string") {
    return fail(errors, `${at}.factory_key`, "must be a string"), null;
  }
  const lookup = v.factory_key || key;
  const factory = OBJECT_FACTORIES[lookup];
  if (factory === undefined) {
    const where = v.factory_key ? `${at}.factory_key` : `${at}.object_key`;
    fail(
      errors,
      where,
      `'${lookup}' does not have an object factory (this build has ${
        Object.keys(OBJECT_FACTORIES).join(", ")
      })`,
    );
    return null;
  }
  const sharing = v.shared_with_upstream;
  if (sharing !== undefined && sharing !== "NONE" && sharing !== 0) {
    fail(
      errors,
      `${at}.shared_with_upstream`,
      refusal(
        "shared_with_upstream",
        "no upstream connection of this build reads filter state; only NONE",
      ),
    );
    return null;
  }
  if (v.format_string === undefined) {
    return fail(errors, `${at}.format_string`, "format_string is required"), null;
  }
  const f = parseTypedSubstitutionFormat(v.format_string, `${at}.format_string`, errors);
  const readOnly = optionalBool(v.read_only, `${at}.read_only`, errors);
  const skipIfEmpty = optionalBool(v.skip_if_empty, `${at}.skip_if_empty`, errors);
  if (f === null) return null;
  return { key, hashable: factory.hashable, readOnly, skipIfEmpty, format: f.format };
}

function parseConfig(c: JsonObject, at: string, errors: Errors): SetFilterStateConfig | null {
  if (!onlyFields(c, ["on_request_headers"], at, errors)) return null;
  const list = c.on_request_headers ?? [];
  if (!Array.isArray(list)) {
    return fail(errors, `${at}.on_request_headers`, "must be a list"), null;
  }
  const n = errors.length;
  const values = list.map((v, i) => parseValue(v, `${at}.on_request_headers[${i}]`, errors));
  if (errors.length > n) return null;
  return { values: values as FilterStateValue[] };
}

/** The set-filter-state filter. */
export const SET_FILTER_STATE: HttpFilterFactory<SetFilterStateConfig> = {
  kind: "set_filter_state",
  types: ["envoy.extensions.filters.http.set_filter_state.v3.Config"],
  parse: parseConfig,
  create(config, deps) {
    return (ctx, next) => {
      const req = ctx.req;
      const rec = headerRecord(req, ctx.conn, Date.now(), null, null);
      for (const v of config.values) {
        const value = v.format(rec);
        if (value === "" && v.skipIfEmpty) continue;
        const state = req.filterState ??= new FilterState();
        if (ctx.lg !== null) ctx.lg.filterState = state;
        const stored = state.set(v.key, {
          value,
          hashable: v.hashable,
          readOnly: v.readOnly,
        });
        if (!stored) deps.log("debug", `filter state '${v.key}' is read-only; value not stored`);
      }
      return next();
    };
  },
};
