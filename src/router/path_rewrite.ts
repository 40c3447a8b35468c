/**
 * Path and host rewrites of a route: `regex_rewrite` (every match of an RE2 pattern in the path,
 * without the query, replaced by a substitution that may use `\1`-style groups), the matched
 * prefix swapped by `prefix_rewrite`, `host_rewrite_header` (the host from a request header),
 * and `host_rewrite_path_regex` (the host from the path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseRegexRewrite, rewritePath } from "./path_rewrite.ts";
 * const rr = parseRegexRewrite({ pattern: { regex: "^/v1/(.*)$" }, substitution: "/\\1" }, "r", [])!;
 * assert.equal(rewritePath("/v1/users?x=1", null, rr, null), "/users?x=1");
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject } from "../config/config_values.ts";
import { compileRe2 } from "../config/safe_regex.ts";
import { compileLinear, CONFIG_REGEX_MAX_LENGTH, type LinearRegex } from "../platform/re2.ts";

/** A compiled `RegexMatchAndSubstitute`. */
export interface RegexRewrite {
  /** Unanchored, on the linear-time engine; every match is replaced. */
  re: LinearRegex;
  /** In JavaScript replacement syntax. */
  substitution: string;
}

/** Parses a `RegexMatchAndSubstitute` at `path`. */
export function parseRegexRewrite(
  v: Json | undefined,
  path: string,
  errors: Errors,
): RegexRewrite | null {
  if (!isObject(v) || !isObject(v.pattern)) {
    fail(errors, `${path}.pattern`, "needs a pattern with a regex");
    return null;
  }
  if (typeof v.substitution !== "string") {
    fail(errors, `${path}.substitution`, "substitution must be a string");
    return null;
  }
  // compileRe2 reports what RE2 does not accept; the rewrite itself matches anywhere.
  if (!compileRe2(v.pattern.regex, `${path}.pattern.regex`, errors)) return null;
  const compiled = compileLinear(String(v.pattern.regex), CONFIG_REGEX_MAX_LENGTH);
  if (!compiled.ok) return null;
  const re = compiled.re;
  // RE2 substitutions name groups as \0..\9; a `$` is literal.
  const substitution = v.substitution.replace(/\$/g, "$$$$").replace(
    /\\(\d)|\\\\/g,
    (_m, d) => d === undefined ? "\\" : d === "0" ? "$&" : `$${d}`,
  );
  return { re, substitution };
}

/** Applies `regex_rewrite` to the path (not the query). */
export function applyRegexRewrite(path: string, rr: RegexRewrite): string {
  const q = path.indexOf("?");
  const p = q < 0 ? path : path.slice(0, q);
  return rr.re.replaceAll(p, rr.substitution) + (q < 0 ? "" : path.slice(q));
}

/** How much of the path a route's match consumed (for `prefix_rewrite`). */
export type MatchedPrefix = { kind: "prefix"; length: number } | { kind: "path" } | null;

/**
 * The path after the route's rewrites: `prefix_rewrite` swaps the matched prefix (or the whole
 * matched path, keeping the query), else `regex_rewrite` applies.
 */
export function rewritePath(
  path: string,
  prefixRewrite: string | null,
  regexRewrite: RegexRewrite | null,
  matched: MatchedPrefix,
): string {
  if (prefixRewrite !== null && matched !== null) {
    if (matched.kind === "prefix") return prefixRewrite + path.slice(matched.length);
    const q = path.indexOf("?");
    return prefixRewrite + (q < 0 ? "" : path.slice(q));
  }
  if (regexRewrite !== null) return applyRegexRewrite(path, regexRewrite);
  return path;
}
