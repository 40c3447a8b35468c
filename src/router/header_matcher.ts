/**
 * Route and health-check header matchers (`route.HeaderMatcher`, v2 and v3 spellings): exact,
 * regex, present, prefix, suffix, contains and range matches, each optionally inverted. Pseudo
 * headers `:path`, `:method`, `:authority` and `:scheme` read the request line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchHeaders, parseHeaderMatcher } from "./header_matcher.ts";
 * const m = parseHeaderMatcher({ name: ":path", exact_match: "/healthz" }, "h", [])!;
 * const request = { method: "GET", authority: "a", scheme: "http", headers: new Headers() };
 * assert.equal(matchHeaders([m], { ...request, path: "/healthz" }), true);
 * assert.equal(matchHeaders([m], { ...request, path: "/" }), false);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import type { MatchInput } from "../http/downstream_request.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";
import { compileRe2 } from "../config/safe_regex.ts";
import { compileStringMatcher } from "../config/string_matcher.ts";

/** A compiled header matcher. */
export interface HeaderMatcher {
  name: string;
  test: (value: string | null) => boolean;
  invert: boolean;
}

/** Compiles one matcher; reports errors with `path`. */
export function parseHeaderMatcher(m: Json, path: string, errors: Errors): HeaderMatcher | null {
  if (!isObject(m)) {
    fail(errors, path, "header matcher must be an object");
    return null;
  }
  if (typeof m.name !== "string" || m.name === "") {
    fail(errors, `${path}.name`, "header matcher needs a name");
    return null;
  }
  const name = m.name.toLowerCase();
  const invert = m.invert_match === true;
  let test: ((v: string | null) => boolean) | null = null;
  const str = (f: (v: string) => boolean) => (v: string | null) => v !== null && f(v);
  if (typeof m.exact_match === "string") {
    const x = m.exact_match;
    test = str((v) => v === x);
  } else if (typeof m.value === "string" && m.regex !== true) {
    const x = m.value;
    test = str((v) => v === x);
  } else if (m.regex === true && typeof m.value === "string") {
    const re = compileRe2(m.value, `${path}.value`, errors);
    if (!re) return null;
    test = str((v) => re.test(v));
  } else if (isObject(m.safe_regex_match)) {
    const re = compileRe2(m.safe_regex_match.regex, `${path}.safe_regex_match.regex`, errors);
    if (!re) return null;
    test = str((v) => re.test(v));
  } else if (typeof m.regex_match === "string") {
    const re = compileRe2(m.regex_match, `${path}.regex_match`, errors);
    if (!re) return null;
    test = str((v) => re.test(v));
  } else if (typeof m.prefix_match === "string") {
    const x = m.prefix_match;
    test = str((v) => v.startsWith(x));
  } else if (typeof m.suffix_match === "string") {
    const x = m.suffix_match;
    test = str((v) => v.endsWith(x));
  } else if (typeof m.contains_match === "string") {
    const x = m.contains_match;
    test = str((v) => v.includes(x));
  } else if (isObject(m.range_match)) {
    const s = Number(m.range_match.start);
    const e = Number(m.range_match.end);
    if (!Number.isInteger(s) || !Number.isInteger(e) || s >= e) {
      fail(errors, `${path}.range_match`, "range_match needs integers start < end");
      return null;
    }
    test = str((v) => /^-?\d+$/.test(v) && Number(v) >= s && Number(v) < e);
  } else if (m.string_match !== undefined) {
    const f = compileStringMatcher(m.string_match, `${path}.string_match`, errors);
    if (!f) return null;
    test = str(f);
  } else if (m.present_match !== undefined) {
    const want = m.present_match !== false;
    test = (v) => (v !== null) === want;
  } else {
    test = (v) => v !== null; // no match specifier: presence
  }
  return { name, test, invert };
}

/** The value a matcher sees for `name`. */
export function headerValue(name: string, r: MatchInput): string | null {
  switch (name) {
    case ":path":
      return r.path;
    case ":method":
      return r.method;
    case ":authority":
    case "host":
      return r.authority;
    case ":scheme":
      return r.scheme;
    default:
      return r.headers.get(name);
  }
}

/** True when every matcher matches. */
export function matchHeaders(ms: readonly HeaderMatcher[], r: MatchInput): boolean {
  for (const m of ms) if (m.test(headerValue(m.name, r)) === m.invert) return false;
  return true;
}

/** Compiles a list of matchers. */
export function parseHeaderMatchers(
  list: Json | undefined,
  path: string,
  errors: Errors,
): HeaderMatcher[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    fail(errors, path, "headers must be a list");
    return [];
  }
  const out: HeaderMatcher[] = [];
  list.forEach((m, i) => {
    const c = parseHeaderMatcher(m, `${path}[${i}]`, errors);
    if (c) out.push(c);
  });
  return out;
}
