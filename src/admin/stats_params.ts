/**
 * Reads the query of `/stats` and `/stats/prometheus`: `format`, `usedonly`, `filter`,
 * `histogram_buckets` and `text_readouts`. The accepted `format` and `histogram_buckets` values
 * come from the endpoint table; anything else is a 400 with a usage line. The filter is compiled
 * with the engine the runtime selects; a bad pattern is a 400 that says why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStatsQuery } from "./stats_params.ts";
 * const q = parseStatsQuery(new Map([["format", "json"], ["usedonly", ""]]), () => undefined);
 * assert.equal(q.ok && q.format, "json");
 * ```
 * @module
 */
import { ENDPOINTS } from "../../spec/admin/endpoints.ts";
import type { EndpointRow } from "../../spec/rule.ts";
import type { BucketMode, RenderOptions } from "../stats/render_options.ts";
import { compileStatFilter, filterEngine, type Selection } from "../stats/stats_filter.ts";

/** Output formats of `/stats`. */
export type StatsFormat = "text" | "json" | "prometheus";

/** A parsed query, or the 400 answer. */
export type StatsQuery =
  | {
    ok: true;
    format: StatsFormat;
    opts: RenderOptions;
    /** Set for the ECMAScript filter: picks the matching names off the serving thread. */
    select?: (names: readonly string[]) => Promise<Selection>;
  }
  | { ok: false; status: number; body: string };

function enumValues(name: string): string[] {
  const values = new Set<string>();
  for (const row of ENDPOINTS as readonly EndpointRow[]) {
    if (row.path !== "/stats") continue;
    for (const p of row.params) {
      if (p.name === name) { for (const v of p.values ?? []) values.add(v); }
    }
  }
  return [...values].sort();
}

/** `format` values the table accepts. */
export const STATS_FORMATS: readonly string[] = enumValues("format");
/** `histogram_buckets` values the table accepts. */
export const BUCKET_MODES: readonly string[] = enumValues("histogram_buckets");

function usage(param: string, values: readonly string[]): StatsQuery {
  return { ok: false, status: 400, body: `usage: /stats?${param}=(${values.join("|")})\n\n` };
}

/** An empty value counts as absent, as newer Envoy reads `?format=`. */
function get(params: ReadonlyMap<string, string>, key: string): string | undefined {
  const v = params.get(key);
  return v === "" ? undefined : v;
}

/**
 * Parses the query; `forced` is the format the path implies (`/stats/prometheus`).
 * `runtime(key)` reads runtime values (the filter engine switch).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseStatsQuery } from "./stats_params.ts";
 * const q = parseStatsQuery(new Map([["format", "xml"]]), () => undefined);
 * assert.deepEqual(q, {
 *   ok: false,
 *   status: 400,
 *   body: "usage: /stats?format=(json|prometheus|text)\n\n",
 * });
 * ```
 */
export function parseStatsQuery(
  params: ReadonlyMap<string, string>,
  runtime: (key: string) => string | undefined,
  forced?: StatsFormat,
): StatsQuery {
  const rawFormat = forced ?? get(params, "format") ?? "text";
  if (!STATS_FORMATS.includes(rawFormat)) return usage("format", STATS_FORMATS);
  const format = rawFormat as StatsFormat;
  const opts: RenderOptions = {
    usedOnly: params.has("usedonly"),
    textReadouts: params.has("text_readouts"),
  };
  const buckets = get(params, "histogram_buckets");
  if (buckets !== undefined) {
    if (!BUCKET_MODES.includes(buckets)) return usage("histogram_buckets", BUCKET_MODES);
    if (format !== "prometheus") opts.histogramBuckets = buckets as BucketMode;
  }
  const pattern = get(params, "filter");
  if (pattern !== undefined) {
    const f = compileStatFilter(pattern, filterEngine(runtime));
    if (!f.ok) return { ok: false, status: 400, body: `${f.error}\n` };
    if (f.engine === "ecmascript") return { ok: true, format, opts, select: f.select };
    opts.filter = f.test;
  }
  return { ok: true, format, opts };
}
