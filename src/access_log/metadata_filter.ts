/**
 * The access log filter `metadata_filter` (`envoy.config.accesslog.v3.MetadataFilter`) over the
 * request's dynamic metadata, as Envoy's `MetadataFilter::evaluate`: the value at the
 * matcher's `filter` namespace and `path` of keys, when present, decides by the matcher's
 * `value` (a `ValueMatcher`: null, double (exact or `[start, end)` range), string, bool,
 * present, list `one_of` or `or_match`); when absent (or without a matcher), the line is written
 * unless `match_if_key_not_found` is false. Envoy's filter does not read the matcher's
 * `invert`, so it is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseMetadataFilter } from "./metadata_filter.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const f = parseMetadataFilter({
 *   matcher: { filter: "app", path: [{ key: "tier" }], value: { string_match: { exact: "gold" } } },
 * }, "f", errors);
 * assert.deepEqual(errors, []);
 * assert.equal(typeof f, "function");
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { compileStringMatcher } from "../config/string_matcher.ts";
import type { MetadataValue } from "../http/dynamic_metadata.ts";
import type { LogRecord } from "./access_log_format.ts";

/** A compiled `ValueMatcher`: `undefined` is a value that is not there. */
type ValueMatch = (v: MetadataValue | undefined) => boolean;

function only(v: Json, fields: readonly string[], at: string, errors: Errors): boolean {
  if (!isObject(v)) return fail(errors, at, "must be an object"), false;
  let ok = true;
  for (const k of Object.keys(v)) {
    if (fields.includes(k)) continue;
    fail(errors, `${at}.${k}`, `${k} is not supported by this build`);
    ok = false;
  }
  return ok;
}

function doubleMatcher(v: Json, at: string, errors: Errors): ((n: number) => boolean) | null {
  if (!only(v, ["exact", "range"], at, errors)) return null;
  const d = v as Record<string, Json>;
  if (typeof d.exact === "number" && d.range === undefined) {
    const x = d.exact;
    return (n) => n === x;
  }
  if (isObject(d.range) && d.exact === undefined && only(d.range, ["start", "end"], at, errors)) {
    const { start, end } = d.range;
    if (typeof start === "number" && typeof end === "number") return (n) => start <= n && n < end;
    return fail(errors, `${at}.range`, "start and end must be numbers"), null;
  }
  return fail(errors, at, "exactly one of exact (a number), range"), null;
}

const VALUE_KINDS = [
  "null_match",
  "double_match",
  "string_match",
  "bool_match",
  "present_match",
  "list_match",
  "or_match",
];

/** Compiles a `ValueMatcher` at `at`. */
function valueMatcher(v: Json, at: string, errors: Errors): ValueMatch | null {
  if (!only(v, VALUE_KINDS, at, errors)) return null;
  const m = v as Record<string, Json>;
  const set = VALUE_KINDS.filter((k) => m[k] !== undefined && m[k] !== null);
  if (set.length !== 1) return fail(errors, at, `exactly one of ${VALUE_KINDS.join(", ")}`), null;
  const kind = set[0];
  const x = m[kind];
  const kat = `${at}.${kind}`;
  switch (kind) {
    case "null_match":
      return only(x, [], kat, errors) ? (val) => val === null : null;
    case "double_match": {
      const d = doubleMatcher(x, kat, errors);
      return d && ((val) => typeof val === "number" && d(val));
    }
    case "string_match": {
      const s = compileStringMatcher(x, kat, errors);
      return s && ((val) => typeof val === "string" && s(val));
    }
    case "bool_match":
      if (typeof x !== "boolean") return fail(errors, kat, "must be a boolean"), null;
      return (val) => val === x;
    case "present_match":
      if (typeof x !== "boolean") return fail(errors, kat, "must be a boolean"), null;
      return (val) => x && val !== undefined;
    case "list_match": {
      if (!only(x, ["one_of"], kat, errors)) return null;
      const one = valueMatcher((x as Record<string, Json>).one_of ?? {}, `${kat}.one_of`, errors);
      return one && ((val) => Array.isArray(val) && val.some((e) => one(e)));
    }
    default: {
      if (!only(x, ["value_matchers"], kat, errors)) return null;
      const list = (x as Record<string, Json>).value_matchers;
      if (!Array.isArray(list) || list.length < 2) {
        return fail(errors, `${kat}.value_matchers`, "needs at least 2 matchers"), null;
      }
      const ms = list.map((e, i) => valueMatcher(e, `${kat}.value_matchers[${i}]`, errors));
      if (ms.some((e) => e === null)) return null;
      return (val) => ms.some((e) => e!(val));
    }
  }
}

/** Compiles a `MetadataFilter` found at `at`; errors name the field path. */
export function parseMetadataFilter(
  v: Json,
  at: string,
  errors: Errors,
): ((r: LogRecord) => boolean) | null {
  if (!only(v, ["matcher", "match_if_key_not_found"], at, errors)) return null;
  const f = v as Record<string, Json>;
  const dflt = unwrap(f.match_if_key_not_found) ?? true;
  if (typeof dflt !== "boolean") {
    return fail(errors, `${at}.match_if_key_not_found`, "must be a boolean"), null;
  }
  const m = f.matcher;
  if (m === undefined || m === null) return () => dflt;
  const mat = `${at}.matcher`;
  if (isObject(m) && m.invert !== undefined && m.invert !== false) {
    fail(
      errors,
      `${mat}.invert`,
      "invert is not supported by this build (Envoy's access log metadata_filter ignores it)",
    );
    return null;
  }
  if (!only(m, ["filter", "path", "value", "invert"], mat, errors)) return null;
  const mm = m as Record<string, Json>;
  if (typeof mm.filter !== "string" || mm.filter === "") {
    return fail(errors, `${mat}.filter`, "filter is required (a namespace)"), null;
  }
  const ns = mm.filter;
  const path = mm.path ?? [];
  if (!Array.isArray(path) || path.length === 0) {
    return fail(errors, `${mat}.path`, "path needs at least one segment"), null;
  }
  const keys: string[] = [];
  for (const [i, seg] of path.entries()) {
    if (!only(seg, ["key"], `${mat}.path[${i}]`, errors)) return null;
    const k = (seg as Record<string, Json>).key;
    if (typeof k !== "string" || k === "") {
      return fail(errors, `${mat}.path[${i}].key`, "key is required"), null;
    }
    keys.push(k);
  }
  if (mm.value === undefined || mm.value === null) {
    return fail(errors, `${mat}.value`, "value is required"), null;
  }
  const match = valueMatcher(mm.value, `${mat}.value`, errors);
  if (match === null) return null;
  return (r) => {
    const val = r.dynamicMetadata?.value(ns, keys);
    return val === undefined ? dflt : match(val);
  };
}
