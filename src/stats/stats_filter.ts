/**
 * The `/stats?filter=` regular expression. The default engine is linear-time RE2 syntax
 * (`npm:re2js`); when the runtime key `proxy.reloadable_features.admin_stats_filter_use_re2`
 * (or its `envoy.` spelling) is `false`, ECMAScript `RegExp` is used instead, evaluated on a worker
 * thread with a deadline (`src/platform/offthread_regex.ts`) because it can backtrack without
 * bound. Matching is partial unless the pattern is anchored with `^` / `$`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileStatFilter } from "./stats_filter.ts";
 * const f = compileStatFilter("upstream_rq_\\d+$", "re2");
 * assert.equal(f.ok && f.engine === "re2" && f.test("cluster.web.upstream_rq_200"), true);
 * ```
 * @module
 */
import { ADMIN_REGEX_MAX_LENGTH, compileLinear, tooLongMessage } from "../platform/re2.ts";
import { matchOffThread } from "../platform/offthread_regex.ts";

/** Runtime keys that select the filter engine, specification spelling first. */
export const RE2_RUNTIME_KEYS: readonly string[] = [
  "proxy.reloadable_features.admin_stats_filter_use_re2",
  "envoy.reloadable_features.admin_stats_filter_use_re2",
];

/** The two filter engines. */
export type FilterEngine = "re2" | "ecmascript";

/**
 * A compiled filter, or why the pattern is invalid. The RE2 engine is linear-time and matches on
 * the serving thread (`test`); the ECMAScript engine can backtrack without bound, so it never runs
 * on the serving thread: `select(names)` evaluates it on a worker with a deadline and resolves to
 * the test to use, or to the error when the deadline passed.
 */
export type CompiledFilter =
  | { ok: true; engine: "re2"; test: (name: string) => boolean }
  | { ok: true; engine: "ecmascript"; select: (names: readonly string[]) => Promise<Selection> }
  | { ok: false; engine: FilterEngine; error: string };

/** The outcome of {@linkcode CompiledFilter} `select`. */
export type Selection =
  | { ok: true; test: (name: string) => boolean }
  | { ok: false; error: string };

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
 * Compiles `pattern` with `engine`; never throws. A pattern over
 * {@linkcode ADMIN_REGEX_MAX_LENGTH} characters is refused, with either engine.
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
  if (pattern.length > ADMIN_REGEX_MAX_LENGTH) {
    const error = `Invalid filter: ${tooLongMessage(pattern.length, ADMIN_REGEX_MAX_LENGTH)}`;
    return { ok: false, engine, error };
  }
  if (engine === "re2") {
    const c = compileLinear(pattern, ADMIN_REGEX_MAX_LENGTH);
    if (!c.ok) return { ok: false, engine, error: `Invalid re2 regex: ${c.error}` };
    const re = c.re;
    return { ok: true, engine, test: (name) => re.test(name) };
  }
  try {
    new RegExp(pattern);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { ok: false, engine, error: `Invalid regex: ${JSON.stringify(reason)}` };
  }
  return {
    ok: true,
    engine,
    select: async (names) => {
      const r = await matchOffThread(pattern, names);
      if (!r.ok) return { ok: false, error: `Invalid regex: ${JSON.stringify(r.error)}` };
      return { ok: true, test: (name) => r.matched.has(name) };
    },
  };
}
