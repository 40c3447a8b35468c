/**
 * `type.matcher.v3.StringMatcher`, compiled once for every part of a configuration that has one
 * (route header matchers, CORS origins, ext_authz header patterns, a health check's
 * `service_name_matcher`, access-log metadata filters): exactly one of `exact`, `prefix`,
 * `suffix`, `contains` or `safe_regex` (a whole-input RE2 match, {@linkcode compileRe2}), with
 * `ignore_case` for all but the regex, as Envoy's `StringMatcherImpl`. A `custom` extension is
 * refused, and so is any other field (the v2 `regex`, a misspelling), each at its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileStringMatcher } from "./string_matcher.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const m = compileStringMatcher({ prefix: "Web", ignore_case: true }, "m", errors)!;
 * assert.equal(m("website"), true);
 * assert.equal(compileStringMatcher({ exact: "a", prefix: "b" }, "n", errors), null);
 * assert.equal(errors[0].path, "n");
 * ```
 * @module
 */
import type { Json } from "./bootstrap_types.ts";
import { type Errors, fail, isObject } from "./config_values.ts";
import { compileRe2 } from "./safe_regex.ts";

/** A compiled `StringMatcher`: true when the value matches. */
export type StringPredicate = (value: string) => boolean;

/** The matcher kinds of the `match_pattern` oneof, in the proto's order. */
const KINDS = ["exact", "prefix", "suffix", "safe_regex", "contains"] as const;

/**
 * Compiles a `StringMatcher` at `path`, or reports every problem in `errors` and answers null:
 * not an object, none or more than one kind set, a kind's value of the wrong type, an invalid
 * regex, `custom`, or a field the message does not have.
 */
export function compileStringMatcher(
  v: Json | undefined,
  path: string,
  errors: Errors,
): StringPredicate | null {
  if (!isObject(v)) return fail(errors, path, "a StringMatcher must be an object"), null;
  let ok = true;
  for (const k of Object.keys(v)) {
    if ((KINDS as readonly string[]).includes(k) || k === "ignore_case") continue;
    const note = k === "custom" ? " (no string matcher extensions)" : "";
    fail(errors, `${path}.${k}`, `${k} is not supported by this build${note}`);
    ok = false;
  }
  const set = KINDS.filter((k) => v[k] !== undefined);
  if (set.length !== 1) {
    fail(errors, path, `a StringMatcher needs exactly one of ${KINDS.join(", ")}`);
    return null;
  }
  if (v.ignore_case !== undefined && typeof v.ignore_case !== "boolean") {
    fail(errors, `${path}.ignore_case`, "ignore_case must be a boolean");
    ok = false;
  }
  const kind = set[0];
  if (kind === "safe_regex") {
    const r = v.safe_regex;
    if (!isObject(r)) return fail(errors, `${path}.safe_regex`, "must be an object"), null;
    const re = compileRe2(r.regex, `${path}.safe_regex.regex`, errors);
    return ok && re ? (s) => re.test(s) : null;
  }
  const x = v[kind];
  if (typeof x !== "string") {
    return fail(errors, `${path}.${kind}`, `${kind} must be a string`), null;
  }
  if (x === "" && kind !== "exact") {
    return fail(errors, `${path}.${kind}`, `${kind} must not be empty`), null;
  }
  if (!ok) return null;
  if (v.ignore_case === true) {
    const want = x.toLowerCase();
    switch (kind) {
      case "exact":
        return (s) => s.toLowerCase() === want;
      case "prefix":
        return (s) => s.toLowerCase().startsWith(want);
      case "suffix":
        return (s) => s.toLowerCase().endsWith(want);
      default:
        return (s) => s.toLowerCase().includes(want);
    }
  }
  switch (kind) {
    case "exact":
      return (s) => s === x;
    case "prefix":
      return (s) => s.startsWith(x);
    case "suffix":
      return (s) => s.endsWith(x);
    default:
      return (s) => s.includes(x);
  }
}
