/**
 * RE2 patterns of `safe_regex` (`google_re2`) compiled on a linear-time RE2 engine
 * (`src/platform/re2.ts`) to match the whole input, so no pattern in a configuration can make a
 * request stall the process. Constructs RE2 does not have (look-around, back-references) are
 * rejected with a clear message, and so is a pattern over the configuration length limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileRe2 } from "./safe_regex.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * assert.equal(compileRe2("/api/v[0-9]+", "x", errors)?.test("/api/v2"), true);
 * ```
 * @module
 */
import { type Errors, fail } from "./config_values.ts";
import { compileLinear, CONFIG_REGEX_MAX_LENGTH } from "../platform/re2.ts";

/** A compiled `safe_regex`: `test` is true when the pattern matches the whole input. */
export interface Re2Matcher {
  test(s: string): boolean;
}

/**
 * Compiles an RE2 pattern for a full match on the linear-time engine, or reports why it cannot
 * (look-around, back-references, a syntax error, or more than
 * {@linkcode CONFIG_REGEX_MAX_LENGTH} characters).
 */
export function compileRe2(pattern: unknown, path: string, errors: Errors): Re2Matcher | null {
  if (typeof pattern !== "string") {
    fail(errors, path, "regex must be a string");
    return null;
  }
  if (/\(\?<?[=!]/.test(pattern)) {
    fail(errors, path, `invalid regex ${JSON.stringify(pattern)}: look-around is not RE2 syntax`);
    return null;
  }
  if (/\\[1-9]/.test(pattern)) {
    fail(
      errors,
      path,
      `invalid regex ${JSON.stringify(pattern.slice(0, 200))}: back-references are not RE2 syntax`,
    );
    return null;
  }
  const c = compileLinear(pattern, CONFIG_REGEX_MAX_LENGTH);
  if (!c.ok) {
    const shown = c.tooLong ? "" : ` ${JSON.stringify(pattern)}`;
    fail(errors, path, `invalid regex${shown}: ${c.error}`);
    return null;
  }
  const re = c.re;
  return { test: (s) => re.fullMatch(s) };
}
