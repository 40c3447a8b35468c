/**
 * The `/stats?filter=` regular expression. The default engine is linear-time RE2 syntax
 * (`npm:re2js`); when the runtime key `proxy.reloadable_features.admin_stats_filter_use_re2`
 * (or its `envoy.` spelling) is `false`, ECMAScript `RegExp` is used instead. Matching is partial
 * unless the pattern is anchored with `^` / `$`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileStatFilter } from "./stats_filter.ts";
 * const f = compileStatFilter("upstream_rq_\\d+$", "re2");
 * assert.equal(f.ok && f.test("cluster.web.upstream_rq_200"), true);
 * ```
 * @module
 */
import { RE2JS } from "re2js";

/** Runtime keys that select the filter engine, specification spelling first. */
export const RE2_RUNTIME_KEYS: readonly string[] = [
  "proxy.reloadable_features.admin_stats_filter_use_re2",
  "envoy.reloadable_features.admin_stats_filter_use_re2",
];

/** The two filter engines. */
export type FilterEngine = "re2" | "ecmascript";

/** A compiled filter, or why the pattern is invalid. */
export type CompiledFilter =
  | { ok: true; engine: FilterEngine; test: (name: string) => boolean }
  | { ok: false; engine: FilterEngine; error: string };

/**
 * The engine the runtime selects: ECMAScript when a key of {@linkcode RE2_RUNTIME_KEYS} is
 * `false` (or `0`), RE2 otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filterEngine } from "./stats_filter.ts";
 * assert.equal(filterEngine(() => undefined), "re2");
 * ```
 */
export function filterEngine(get: (key: string) => string | undefined): FilterEngine {
  for (const key of RE2_RUNTIME_KEYS) {
    const v = get(key)?.trim().toLowerCase();
    if (v === undefined || v === "") continue;
    return v === "false" || v === "0" ? "ecmascript" : "re2";
  }
  return "re2";
}

/**
 * Compiles `pattern` with `engine`; never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileStatFilter } from "./stats_filter.ts";
 * const f = compileStatFilter("(", "re2");
 * assert.equal(f.ok, false);
 * assert.ok(!f.ok && f.error.startsWith("Invalid re2 regex: "));
 * ```
 */
export function compileStatFilter(pattern: string, engine: FilterEngine): CompiledFilter {
  try {
    if (engine === "re2") {
      const re = RE2JS.compile(pattern);
      return { ok: true, engine, test: (name) => re.test(name) };
    }
    const re = new RegExp(pattern);
    return { ok: true, engine, test: (name) => re.test(name) };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    const error = engine === "re2"
      ? `Invalid re2 regex: ${reason}`
      : `Invalid regex: ${JSON.stringify(reason)}`;
    return { ok: false, engine, error };
  }
}
