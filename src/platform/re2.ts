/**
 * Regular expressions on a linear-time engine (`npm:re2js`, RE2 syntax). Every pattern that comes
 * from a request or a configuration and is matched against request data, stat names or resource
 * names goes through here, so no input can make matching backtrack for seconds on the one
 * JavaScript thread that serves both data and admin traffic. Pattern lengths are capped too:
 * compiling is linear in the pattern but not cheap (about 30 ms for 1,000 literal characters).
 *
 * The engine (some 330 KB of JavaScript, about 4 MiB of a process's memory) is loaded on first
 * use, so a configuration without a pattern never holds it: the first {@linkcode compileLinear}
 * loads the package's CommonJS build synchronously.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileLinear } from "./re2.ts";
 * const r = compileLinear("^(a+)+$", 1024);
 * assert.ok(r.ok && !r.re.test("a".repeat(10_000) + "!"));
 * assert.ok(r.ok && r.re.fullMatch("aaa"));
 * ```
 * @module
 */
import type { RE2JS as RE2JSClass } from "re2js";

/** The engine's entry point, once loaded. */
let engine: typeof RE2JSClass | null = null;

/** The engine, loaded synchronously (the package's CommonJS build) on first use. */
function re2(): typeof RE2JSClass {
  if (engine === null) {
    const process = (globalThis as unknown as {
      process: { getBuiltinModule(id: "module"): typeof import("node:module") };
    }).process;
    const require = process.getBuiltinModule("module").createRequire(import.meta.url);
    engine = (require("re2js") as typeof import("re2js")).RE2JS;
  }
  return engine;
}

/** Longest pattern an admin query (`/stats?filter`, `/config_dump?name_regex`) may carry. */
export const ADMIN_REGEX_MAX_LENGTH = 1024;

/** Longest pattern a configuration (`safe_regex`, string matchers) may carry. */
export const CONFIG_REGEX_MAX_LENGTH = 4096;

/** A compiled linear-time pattern. */
export interface LinearRegex {
  /** The pattern matches somewhere in `s`. */
  test(s: string): boolean;
  /** The pattern matches all of `s`. */
  fullMatch(s: string): boolean;
  /**
   * Replaces every match in `s`; `replacement` uses JavaScript's syntax (`$1`, `$&`, `$$`).
   */
  replaceAll(s: string, replacement: string): string;
}

/** A compiled pattern, or why it could not be compiled (`tooLong` when over the cap). */
export type LinearCompile =
  | { ok: true; re: LinearRegex }
  | { ok: false; tooLong: boolean; error: string };

/**
 * The message for a pattern over `max` characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tooLongMessage } from "./re2.ts";
 * assert.equal(tooLongMessage(2000, 1024), "pattern is 2000 characters long; the limit is 1024");
 * ```
 */
export function tooLongMessage(length: number, max: number): string {
  return `pattern is ${length} characters long; the limit is ${max}`;
}

/**
 * Compiles `pattern` (RE2 syntax) when it is at most `maxLength` characters; never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileLinear } from "./re2.ts";
 * const r = compileLinear("x".repeat(20), 10);
 * assert.ok(!r.ok && r.tooLong);
 * ```
 */
export function compileLinear(pattern: string, maxLength: number): LinearCompile {
  if (pattern.length > maxLength) {
    return { ok: false, tooLong: true, error: tooLongMessage(pattern.length, maxLength) };
  }
  try {
    const re = re2().compile(pattern);
    return {
      ok: true,
      re: {
        test: (s) => re.test(s),
        fullMatch: (s) => re.matches(s),
        replaceAll: (s, replacement) => re.matcher(s).replaceAll(replacement),
      },
    };
  } catch (e) {
    return { ok: false, tooLong: false, error: e instanceof Error ? e.message : String(e) };
  }
}
