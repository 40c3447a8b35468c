/**
 * Cases generated from every row of `admin.endpoints`: the answer of each row (status, content
 * type, body shape), GET on each mutating path (400 and nothing changes), and random query
 * strings on each read-only path (never a 5xx). A new row gets its cases without code changes.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { endpointCases } from "./admin_endpoints.ts";
 * const cases = endpointCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import fc from "fast-check";
import { ENDPOINTS } from "../../spec/mod.ts";
import type { EndpointRow } from "../../spec/mod.ts";
import { CaseFailure, NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import type { HttpResult } from "../http_client.ts";
import { checkShape } from "./shapes.ts";
import { existing, expect, expectStatus, listenerUrl, mediaOf, preview } from "./util.ts";
import type { BuildInput } from "./util.ts";
import { postAction } from "./admin_actions.ts";

/** Sample values for `{}` and placeholder words in row queries, by `path:param`. */
const SAMPLES: Record<string, string> = {
  "/config_dump:mask": "static_clusters",
  "/config_dump:resource": "static_clusters",
  "/config_dump:name_regex": ".*",
  "/init_dump:mask": "listener",
  "/stats:filter": "server",
  "/runtime_modify:<key>": "conformance.endpoint_probe",
};

/**
 * Turns a row's literal query into one that can be sent (placeholders filled).
 *
 * @param row an endpoint row
 * @returns the query without `?`, URL-encoded
 */
export function concreteQuery(row: EndpointRow): string {
  if (row.query === "") return "";
  const resourceAndMask = /resource=\{\}&mask=\{\}/.test(row.query);
  return row.query.split("&").map((pair, i) => {
    const [k, v] = pair.includes("=") ? pair.split(/=(.*)/s, 2) : [pair, undefined];
    const param = row.params.find((p) => p.name === k);
    if (param === undefined && row.params.some((p) => p.kind === "pairs")) {
      const base = SAMPLES[`${row.path}:<key>`] ?? "conformance.probe";
      return `${encodeURIComponent(`${base}_${i}`)}=${encodeURIComponent(`value${i}`)}`;
    }
    if (v === undefined) return k;
    const placeholder = v === "{}" || (param?.kind === "value" && !param.values);
    if (!placeholder) return `${k}=${v}`;
    let sample = SAMPLES[`${row.path}:${k}`] ?? "conformance";
    if (resourceAndMask && k === "mask") sample = "cluster.name";
    return `${k}=${encodeURIComponent(sample)}`;
  }).join("&");
}

/** The path and query a row is exercised with. */
export function target(row: EndpointRow): string {
  const q = concreteQuery(row);
  return q === "" ? row.path : `${row.path}?${q}`;
}

/**
 * Fails unless the answer's content type is the row's (media type, and charset when the row
 * names one).
 */
export function expectContentType(r: HttpResult, row: EndpointRow, what: string): void {
  const got = r.headers.get("content-type") ?? "";
  const want = row.contentType;
  const charset = (s: string) => /charset=([^;\s]+)/i.exec(s)?.[1]?.toLowerCase();
  expect(
    mediaOf(got) === mediaOf(want) &&
      (charset(want) === undefined || charset(got) === charset(want)),
    `${what}: expected Content-Type ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
  );
}

function readCase(row: EndpointRow, input: BuildInput): Case {
  const extra = /format=json/.test(row.query) ? ["admin.general.format-json-protobuf"] : [];
  return {
    id: `endpoint:${row.id}`,
    title: `${row.method} ${target(row)} answers as its row says`,
    rules: existing(input.rules, row.id, ...extra),
    target: "http",
    phase: "read",
    ...(row.requires ? { requires: row.requires } : {}),
    run: async (ctx) => {
      const t = target(row);
      const stream = row.shape === "event-stream";
      const r = await ctx.http.request(row.method, t, stream ? { maxBytes: 0 } : {});
      if (row.requires && r.status !== 200 && !ctx.features.has(row.requires)) {
        throw new NotApplicable(
          `${row.requires} seems absent: ${row.method} ${t} answered ${r.status}`,
        );
      }
      expectStatus(r, 200, `${row.method} ${t}`);
      expectContentType(r, row, `${row.method} ${t}`);
      if (!stream) {
        const bad = checkShape(row.shape, r.body);
        if (bad !== null) throw new CaseFailure(`${row.method} ${t}: ${row.shape}: ${bad}`);
      }
    },
  };
}

function postCase(row: EndpointRow, input: BuildInput): Case {
  const action = postAction(row);
  return {
    id: `endpoint:${row.id}`,
    title: `${row.method} ${target(row)} answers as its row says`,
    rules: existing(input.rules, row.id, ...action.rules),
    target: "http",
    phase: action.phase,
    ...(row.requires ? { requires: row.requires } : {}),
    run: async (ctx) => {
      const r = await action.run(ctx, target(row));
      expectStatus(r, 200, `POST ${target(row)}`);
      expectContentType(r, row, `POST ${target(row)}`);
      const bad = row.shape.startsWith("json:") ? null : checkShape(row.shape, r.body);
      if (bad !== null) throw new CaseFailure(`POST ${target(row)}: ${row.shape}: ${bad}`);
      await action.after?.(ctx, r);
    },
  };
}

/** Sum of every counter sample of the Prometheus output (counters only grow, unless reset). */
async function counterSum(ctx: CaseContext): Promise<number> {
  const r = await ctx.http.request("GET", "/stats/prometheus");
  const counters = new Set(
    [...r.body.matchAll(/^# TYPE (\S+) counter$/gm)].map((m) => m[1]),
  );
  let sum = 0;
  for (const m of r.body.matchAll(/^([a-zA-Z_:][\w:]*)(?:\{[^}]*\})? (\S+)$/gm)) {
    if (counters.has(m[1])) sum += Number(m[2]) || 0;
  }
  return sum;
}

/** Whether the target's first listener accepts a request ("none" without a listener). */
async function listenerState(ctx: CaseContext, path = ""): Promise<string> {
  const url = await listenerUrl(ctx).catch(() => null);
  if (url === null) return "none";
  try {
    const res = await fetch(url + path, { signal: AbortSignal.timeout(5000) });
    await res.body?.cancel();
    return `answers ${res.status}`;
  } catch (e) {
    return `refuses (${(e as Error).name})`;
  }
}

/** What GET on a mutating path must leave unchanged: a few observable states. */
async function snapshot(ctx: CaseContext, path: string): Promise<Record<string, string>> {
  const get = async (p: string) => {
    const r = await ctx.http.request("GET", p);
    return `${r.status} ${r.body}`;
  };
  const snap: Record<string, string> = {
    ready: (await get("/ready")).split(" ")[0],
    runtime: await get("/runtime"),
    listeners: await get("/listeners"),
    recentlookups: (await get("/stats/recentlookups")).split("\n")[0],
  };
  if (path === "/logging") {
    const r = await ctx.http.request("POST", "/logging");
    snap.logging = r.body.split("\n").filter((l) => /^\s+\S+: \S+$/.test(l)).join("\n");
  }
  if (path.startsWith("/healthcheck/")) snap.healthcheck = await listenerState(ctx, "/healthz");
  if (path === "/drain_listeners") snap.listener = await listenerState(ctx);
  return snap;
}

function getOnMutatingCase(path: string, rows: EndpointRow[], input: BuildInput): Case {
  const destructive = path === "/quitquitquit" || path === "/drain_listeners";
  const row = rows[0];
  return {
    id: `get-on-mutating:${path}`,
    title: `GET ${path} answers 400 and changes nothing`,
    rules: existing(
      input.rules,
      ...rows.map((r) => r.id),
      "admin.mutation.get-returns-400",
      "admin.mutation.post-only",
      "errors.get-on-mutating-path",
    ),
    target: "http",
    // A GET that wrongly runs /quitquitquit would end the run: these go after the read cases.
    phase: destructive ? "mutating" : "read",
    run: async (ctx) => {
      const t = target(row);
      const before = await snapshot(ctx, path);
      const counted = path === "/reset_counters" ? await counterSum(ctx) : 0;
      const r = await ctx.http.request("GET", t);
      expectStatus(r, 400, `GET ${t}`);
      const after = await snapshot(ctx, path);
      if (path === "/reset_counters") {
        const now = await counterSum(ctx);
        expect(now >= counted, `GET ${t} lowered the counters: their sum went ${counted} → ${now}`);
      }
      for (const k of Object.keys(before)) {
        expect(
          before[k] === after[k],
          `GET ${t} changed ${k}: before ${preview(before[k])}, after ${preview(after[k])}`,
        );
      }
    },
  };
}

function randomQueryCase(path: string, rows: EndpointRow[], input: BuildInput): Case {
  const names = [...new Set(rows.flatMap((r) => r.params.map((p) => p.name)))]
    .filter((n) => !n.startsWith("<"));
  const key = fc.oneof(fc.constantFrom(...(names.length ? names : ["x"])), fc.string());
  const pair = fc.tuple(key, fc.option(fc.string(), { nil: undefined }));
  const query = fc.array(pair, { maxLength: 4 }).map((ps) =>
    ps.map(([k, v]) => encodeURIComponent(k) + (v === undefined ? "" : `=${encodeURIComponent(v)}`))
      .join("&")
  );
  return {
    id: `random-query:${path}`,
    title: `GET ${path} with random query strings never answers 5xx`,
    rules: existing(input.rules, ...rows.map((r) => r.id)),
    target: "http",
    phase: "read",
    ...(rows[0].requires ? { requires: rows[0].requires } : {}),
    run: async (ctx) => {
      const stream = rows[0].shape === "event-stream";
      const out = await fc.check(
        fc.asyncProperty(query, async (q) => {
          const r = await ctx.http.request("GET", `${path}?${q}`, stream ? { maxBytes: 0 } : {});
          return r.status < 500;
        }),
        { seed: ctx.seed, numRuns: ctx.numRuns },
      );
      if (out.failed) {
        throw new CaseFailure(
          `GET ${path}?<random> answered 5xx`,
          `${path}?${out.counterexample?.[0]}`,
        );
      }
    },
  };
}

/**
 * Builds the endpoint cases from the rows.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function endpointCases(input: BuildInput): Case[] {
  const rows = ENDPOINTS as readonly EndpointRow[];
  const out: Case[] = [];
  for (const row of rows) {
    if (row.method === "GET" && !row.mutating) out.push(readCase(row, input));
    else out.push(postCase(row, input));
  }
  const byPath = new Map<string, EndpointRow[]>();
  for (const r of rows) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  const mutating = [...byPath].filter(([, rs]) => rs.some((r) => r.mutating));
  mutating.sort(([a], [b]) => Number(a === "/quitquitquit") - Number(b === "/quitquitquit"));
  for (const [path, rs] of mutating) out.push(getOnMutatingCase(path, rs, input));
  for (const [path, rs] of byPath) {
    if (rs.every((r) => r.method === "GET" && !r.mutating)) {
      out.push(randomQueryCase(path, rs, input));
    }
  }
  return out.filter((c) => c.rules.length > 0);
}
