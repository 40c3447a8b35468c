/**
 * Rule-ID selectors: globs where `*` matches any run of characters (dots included) and `?` one
 * character. A selector without a wildcard also selects the IDs it prefixes at a dot, so
 * `admin.endpoints` selects `admin.endpoints.stats`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesAny } from "./glob.ts";
 * assert.equal(matchesAny("admin.endpoints.stats", ["admin.endpoints.*"]), true);
 * ```
 * @module
 */

/**
 * Compiles a rule-ID glob to a regular expression that matches whole IDs.
 *
 * @param glob the selector, e.g. `admin.stats.*`
 * @returns a full-match regular expression
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globToRegExp } from "./glob.ts";
 * assert.equal(globToRegExp("cli.*").test("cli.options.mode"), true);
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  let src = "";
  for (const ch of glob) {
    if (ch === "*") src += ".*";
    else if (ch === "?") src += ".";
    else src += ch.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  if (!/[*?]/.test(glob)) src += "(?:\\..*)?";
  return new RegExp(`^${src}$`);
}

/**
 * Tells whether an ID matches one of the selectors; no selectors selects everything.
 *
 * @param id a rule ID
 * @param selectors globs from the command line
 * @returns true when selected
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesAny } from "./glob.ts";
 * assert.equal(matchesAny("cluster.enums.lb-policy", []), true);
 * ```
 */
export function matchesAny(id: string, selectors: readonly string[]): boolean {
  if (selectors.length === 0) return true;
  return selectors.some((s) => globToRegExp(s).test(id));
}
