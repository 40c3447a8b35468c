/**
 * RE2 patterns of `safe_regex` (`google_re2`) compiled as JavaScript regular expressions that
 * must match the whole input. Constructs RE2 does not have (look-around, back-references) are
 * rejected, because they would change what the configuration means.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileRe2 } from "./regex.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * assert.equal(compileRe2("/api/v[0-9]+", "x", errors)?.test("/api/v2"), true);
 * ```
 * @module
 */
import { type Errors, fail } from "../config/config_values.ts";

/** Compiles an RE2 pattern for a full match, or reports why it cannot. */
export function compileRe2(pattern: unknown, path: string, errors: Errors): RegExp | null {
  if (typeof pattern !== "string") {
    fail(errors, path, "regex must be a string");
    return null;
  }
  let src = pattern;
  let flags = "";
  const m = /^\(\?([imsU]+)\)/.exec(src);
  if (m) {
    if (m[1].includes("U")) {
      fail(errors, path, "the (?U) flag is not supported");
      return null;
    }
    flags = m[1].replace(/[^is]/g, "");
    src = src.slice(m[0].length);
  }
  if (/\(\?<?[=!]/.test(src)) {
    fail(errors, path, `invalid regex ${JSON.stringify(pattern)}: look-around is not RE2 syntax`);
    return null;
  }
  if (/\\[1-9]/.test(src)) {
    fail(
      errors,
      path,
      `invalid regex ${JSON.stringify(pattern)}: back-references are not RE2 syntax`,
    );
    return null;
  }
  src = src.replace(/\\z/g, "$").replace(/\\A/g, "^");
  try {
    return new RegExp(`^(?:${src})$`, flags);
  } catch (e) {
    fail(errors, path, `invalid regex ${JSON.stringify(pattern)}: ${(e as Error).message}`);
    return null;
  }
}
