/**
 * Cases for `admin.stats_shapes`: histogram quantile lists (read from the rows' `values`),
 * interval/cumulative forms, JSON shapes, buckets, usedonly, filters and Prometheus output. The
 * cases first send a little traffic through the fixture's listener so histograms have values.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { statsCases } from "./admin_stats.ts";
 * const cases = statsCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import { STATS_SHAPES } from "../../spec/mod.ts";
import type { Rule } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case, CaseContext, Phase } from "../types.ts";
import { checkShape } from "./shapes.ts";
import { existing, expect, expectStatus, getJson, makeTraffic, statLines } from "./util.ts";
import type { BuildInput } from "./util.ts";

type ShapeRow = Rule & { values?: readonly (string | number)[] };
type Check = (ctx: CaseContext, row: ShapeRow) => Promise<void>;

const NUM = String.raw`(?:nan|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)`;
const QUANT = new RegExp(String.raw`^P([\d.]+)\((${NUM}),(${NUM})\)$`);
const BUCKET = new RegExp(String.raw`^B([\d.e+]+)\((${NUM}),(${NUM})\)$`);

async function textHistograms(
  ctx: CaseContext,
  query = "",
  traffic = true,
): Promise<Map<string, string[]>> {
  if (traffic) await makeTraffic(ctx).catch(() => {});
  const r = await ctx.http.request("GET", `/stats${query}`);
  expectStatus(r, 200, `GET /stats${query}`);
  const out = new Map<string, string[]>();
  for (const { name, value } of statLines(r.body)) {
    const items = value.split(" ");
    if (items.length > 1 && items.every((i) => /^[PB][\d.e+]+\(/.test(i))) out.set(name, items);
  }
  if (out.size === 0) throw new NotApplicable(`/stats${query} shows no histogram with values`);
  return out;
}

async function jsonStats(ctx: CaseContext, query: string) {
  const v = await getJson(ctx, `/stats?format=json${query}`);
  const stats = v.stats as Array<Record<string, unknown>>;
  expect(Array.isArray(stats), "stats is not an array");
  return stats;
}

async function jsonHistograms(ctx: CaseContext) {
  await makeTraffic(ctx).catch(() => {});
  const stats = await jsonStats(ctx, "");
  const h = stats.find((s) => "histograms" in s)?.histograms as Record<string, unknown> | undefined;
  if (h === undefined) throw new NotApplicable("/stats?format=json shows no histograms");
  return h as { supported_quantiles?: unknown; computed_quantiles?: unknown };
}

const num = (s: string) => (s === "nan" ? NaN : Number(s));

const CHECKS: Record<string, Check> = {
  "text-quantiles": async (ctx, row) => {
    for (const [name, items] of await textHistograms(ctx)) {
      const labels = items.map((i) => i.slice(0, i.indexOf("(")));
      const want = (row.values ?? []).map(String);
      expect(isDeepStrictEqual(labels, want), `${name}: quantiles ${labels.join(" ")}`);
    }
  },
  "text-interval-cumulative": async (ctx) => {
    for (const [name, items] of await textHistograms(ctx)) {
      const bad = items.find((i) => !QUANT.test(i));
      expect(bad === undefined, `${name}: ${bad} is not P<q>(<interval>,<cumulative>)`);
    }
  },
  "cumulative-since-start": async (ctx) => {
    const before = await textHistograms(ctx, "?histogram_buckets=cumulative");
    const after = await textHistograms(ctx, "?histogram_buckets=cumulative");
    for (const [name, items] of before) {
      const later = after.get(name);
      if (!later) continue;
      const a = num(BUCKET.exec(items.at(-1)!)?.[3] ?? "0");
      const b = num(BUCKET.exec(later.at(-1)!)?.[3] ?? "0");
      expect(b >= a, `${name}: cumulative count went down from ${a} to ${b}`);
    }
  },
  "text-no-recorded-values": async (ctx) => {
    const hist = await jsonHistograms(ctx);
    const names = new Set(
      ((hist.computed_quantiles ?? []) as Array<{ name: string }>).map((q) => q.name),
    );
    const r = await ctx.http.request("GET", "/stats");
    const notes = statLines(r.body).filter((l) => /[a-z]/i.test(l.value) && !/^P/.test(l.value));
    const never = notes.filter((l) => names.has(l.name) || !/^-?\d/.test(l.value));
    if (never.length === 0) throw new NotApplicable("no histogram without recorded values");
  },
  "json-name-value": async (ctx) => {
    for (const s of await jsonStats(ctx, "")) {
      if ("histograms" in s) continue;
      expect(typeof s.name === "string", `entry without a name: ${JSON.stringify(s)}`);
      const t = typeof s.value;
      expect(t === "number" || t === "string", `${s.name}: value ${JSON.stringify(s.value)}`);
    }
  },
  "json-supported-quantiles": async (ctx, row) => {
    const h = await jsonHistograms(ctx);
    expect(
      isDeepStrictEqual(h.supported_quantiles, row.values),
      `supported_quantiles is ${JSON.stringify(h.supported_quantiles)}`,
    );
  },
  "json-computed-quantiles": async (ctx) => {
    const h = await jsonHistograms(ctx);
    const n = (h.supported_quantiles as unknown[]).length;
    for (const q of h.computed_quantiles as Array<{ name: unknown; values: unknown[] }>) {
      expect(typeof q.name === "string" && Array.isArray(q.values), JSON.stringify(q));
      expect(q.values.length === n, `${q.name}: ${q.values.length} values for ${n} quantiles`);
      for (const v of q.values as Array<Record<string, unknown>>) {
        for (const k of ["interval", "cumulative"]) {
          expect(v[k] === null || typeof v[k] === "number", `${q.name}: ${k} ${v[k]}`);
        }
      }
    }
  },
  "json-interval-null": async (ctx) => {
    const h = await jsonHistograms(ctx);
    for (
      const q of h.computed_quantiles as Array<
        { name: string; values: Array<{ interval: unknown }> }
      >
    ) {
      const nulls = q.values.filter((v) => v.interval === null).length;
      expect(nulls === 0 || nulls === q.values.length, `${q.name}: ${nulls} null intervals`);
    }
  },
  "json-buckets": async (ctx) => {
    await makeTraffic(ctx).catch(() => {});
    const stats = await jsonStats(ctx, "&histogram_buckets=cumulative");
    const h = stats.find((s) => "histograms" in s)?.histograms;
    if (h === undefined) throw new NotApplicable("no histograms in the JSON bucket output");
    expect(Array.isArray(h), "histograms is not an array with histogram_buckets");
    for (const e of h as Array<{ name: unknown; buckets: Array<Record<string, unknown>> }>) {
      expect(typeof e.name === "string" && Array.isArray(e.buckets), JSON.stringify(e));
      for (const b of e.buckets) {
        for (const k of ["upper_bound", "interval", "cumulative"]) {
          expect(typeof b[k] === "number", `${e.name}: bucket ${k} is ${JSON.stringify(b[k])}`);
        }
      }
    }
  },
  "text-buckets-cumulative": async (ctx) => {
    for (const [name, items] of await textHistograms(ctx, "?histogram_buckets=cumulative")) {
      let last = -Infinity;
      for (const i of items) {
        const m = BUCKET.exec(i);
        expect(m !== null, `${name}: ${i} is not B<bound>(interval,cumulative)`);
        const c = num(m[3]);
        expect(c >= last, `${name}: cumulative buckets decrease at ${i}`);
        last = c;
      }
    }
  },
  "text-buckets-disjoint": async (ctx) => {
    // Counts only grow, and other cases may add samples meanwhile: the disjoint total must lie
    // between the cumulative totals read just before and just after it.
    const total = (items: string[] | undefined) =>
      num(BUCKET.exec(items?.at(-1) ?? "")?.[3] ?? "0");
    const before = await textHistograms(ctx, "?histogram_buckets=cumulative");
    const dis = await textHistograms(ctx, "?histogram_buckets=disjoint", false);
    const after = await textHistograms(ctx, "?histogram_buckets=cumulative", false);
    for (const [name, items] of dis) {
      if (!before.has(name) || !after.has(name)) continue;
      const sum = items.reduce((n, i) => n + num(BUCKET.exec(i)?.[3] ?? "0"), 0);
      const lo = total(before.get(name));
      const hi = total(after.get(name));
      expect(
        sum >= lo && sum <= hi,
        `${name}: disjoint buckets sum to ${sum}, the last cumulative bucket went from ${lo} to ${hi}`,
      );
    }
  },
  "usedonly": async (ctx) => {
    const all = statLines((await ctx.http.request("GET", "/stats")).body);
    const used = new Set(
      statLines((await ctx.http.request("GET", "/stats?usedonly")).body)
        .map((l) => l.name),
    );
    const missing = all.filter((l) => /^[1-9]\d*$/.test(l.value) && !used.has(l.name));
    expect(missing.length === 0, `non-zero stats missing from usedonly: ${missing[0]?.name}`);
  },
  "filter-partial-match": async (ctx) => {
    const some = statLines((await ctx.http.request("GET", "/stats")).body)[0];
    if (!some) throw new NotApplicable("/stats is empty");
    const part = some.name.split(".")[0];
    for (const [q, re] of [[part, new RegExp(part)], [`^${some.name}$`, null]] as const) {
      const r = await ctx.http.request("GET", `/stats?filter=${encodeURIComponent(q)}`);
      const names = statLines(r.body).map((l) => l.name);
      if (re) expect(names.length > 0 && names.every((n) => re.test(n)), `filter=${q}: ${names}`);
      else expect(names.length === 1 && names[0] === some.name, `filter=${q} gave ${names}`);
    }
    const both = await ctx.http.request(
      "GET",
      `/stats?usedonly&filter=${encodeURIComponent(part)}`,
    );
    expectStatus(both, 200, "GET /stats?usedonly&filter=...");
  },
  "filter-linear-engine": async (ctx) => {
    const r = await ctx.http.request("GET", `/stats?filter=${encodeURIComponent("(s)\\1")}`);
    expect(r.status >= 400 && r.status < 500, `a back-reference filter was accepted (${r.status})`);
  },
  "filter-runtime-switch": async (ctx) => {
    const key = ctx.profile.name("proxy.reloadable_features.admin_stats_filter_use_re2");
    ctx.onUndo(async () => void await ctx.http.request("POST", `/runtime_modify?${key}=`));
    const set = await ctx.http.request("POST", `/runtime_modify?${key}=false`);
    expectStatus(set, 200, `POST /runtime_modify?${key}=false`);
    const r = await ctx.http.request("GET", `/stats?filter=${encodeURIComponent("(s)\\1")}`);
    expectStatus(r, 200, "GET /stats?filter=(s)\\1 with the ECMAScript engine");
  },
  "prometheus-format": async (ctx) => {
    for (const p of ["/stats/prometheus", "/stats?format=prometheus"]) {
      const r = await ctx.http.request("GET", p);
      expectStatus(r, 200, `GET ${p}`);
      const bad = checkShape("prometheus-0.0.4", r.body);
      expect(bad === null, `GET ${p}: ${bad}`);
    }
  },
  "prometheus-text-readouts": async (ctx) => {
    const readouts = (await jsonStats(ctx, "")).filter((s) => typeof s.value === "string");
    if (readouts.length === 0) throw new NotApplicable("the target has no text readout");
    const r = await ctx.http.request("GET", "/stats?format=prometheus&text_readouts");
    const lines = r.body.split("\n").filter((l) => /text_value="/.test(l));
    expect(
      lines.length >= readouts.length,
      `${lines.length} text_value series for ${readouts.length}`,
    );
    for (const l of lines) expect(/ 0$/.test(l), `text readout series ${l} is not 0`);
  },
};

/**
 * Builds the stats-shape cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function statsCases(input: BuildInput): Case[] {
  const out: Case[] = [];
  for (const row of STATS_SHAPES as readonly ShapeRow[]) {
    const key = row.id.replace(/^admin\.stats_shapes\./, "");
    const check = CHECKS[key];
    if (!check || row.check === "internal") continue;
    const phase: Phase = key === "filter-runtime-switch" ? "mutating" : "read";
    out.push({
      id: `stats:${key}`,
      title: row.statement,
      rules: existing(input.rules, row.id),
      target: "http",
      phase,
      run: (ctx) => check(ctx, row),
    });
  }
  return out.filter((c) => c.rules.length > 0);
}
