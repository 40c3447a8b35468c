/**
 * Cases for the general rules of the admin interface (`admin.general`, plus the versioning and
 * security rules an HTTP client can see): headers on every answer, unknown and inexact paths,
 * `/help` and home page form, query parsing, `format=json` default omission, thresholds.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { generalCases } from "./admin_general.ts";
 * const cases = generalCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { ENDPOINTS } from "../../spec/mod.ts";
import type { EndpointRow } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import { existing, expect, expectStatus, getJson, preview } from "./util.ts";
import type { BuildInput } from "./util.ts";

const rows = ENDPOINTS as readonly EndpointRow[];
/** Read-only paths every implementation serves (no optional feature, no stream). */
const plainPaths = [
  ...new Set(
    rows.filter((r) =>
      r.method === "GET" && !r.mutating && !r.requires && r.shape !== "event-stream"
    )
      .map((r) => r.path),
  ),
];

function httpCase(
  input: BuildInput,
  id: string,
  title: string,
  ruleIds: string[],
  run: (ctx: CaseContext) => Promise<void>,
): Case {
  return {
    id,
    title,
    rules: existing(input.rules, ...ruleIds),
    target: "http",
    phase: "read",
    run,
  };
}

function defaultsIn(v: unknown, path: string, out: string[]): void {
  if (Array.isArray(v)) {
    if (v.length === 0) out.push(`${path}: []`);
    v.forEach((e, i) => defaultsIn(e, `${path}[${i}]`, out));
  } else if (typeof v === "object" && v !== null) {
    for (const [k, e] of Object.entries(v)) {
      if (e === false || e === "") out.push(`${path}.${k}: ${JSON.stringify(e)}`);
      else if (k === "priority" && e === "DEFAULT") out.push(`${path}.${k}: "DEFAULT"`);
      else defaultsIn(e, `${path}.${k}`, out);
    }
  }
}

/**
 * Builds the general-rule cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function generalCases(input: BuildInput): Case[] {
  const c = (id: string, title: string, ids: string[], run: (ctx: CaseContext) => Promise<void>) =>
    httpCase(input, `general:${id}`, title, ids, run);
  const out: Case[] = [
    c("headers-cache-control", "every answer carries Cache-Control", [
      "admin.general.cache-control",
    ], async (ctx) => {
      for (const p of plainPaths) {
        const r = await ctx.http.request("GET", p);
        const cc = r.headers.get("cache-control");
        expect(cc === "no-cache, max-age=0", `GET ${p}: Cache-Control is ${JSON.stringify(cc)}`);
      }
    }),
    c("headers-nosniff", "every answer carries X-Content-Type-Options: nosniff", [
      "admin.general.nosniff",
    ], async (ctx) => {
      for (const p of [...plainPaths, "/conformance-unknown-path"]) {
        const r = await ctx.http.request("GET", p);
        const v = r.headers.get("x-content-type-options");
        expect(v !== null && /nosniff/i.test(v), `GET ${p}: X-Content-Type-Options is ${v}`);
      }
    }),
    c("unknown-path", "an unknown path answers 404 with the help text", [
      "admin.general.unknown-path-404",
      "admin.general.default-content-type",
    ], async (ctx) => {
      const help = await ctx.http.request("GET", "/help");
      const r = await ctx.http.request("GET", "/conformance-unknown-path");
      expectStatus(r, 404, "GET /conformance-unknown-path");
      const ct = r.headers.get("content-type") ?? "";
      expect(
        /^text\/plain;\s*charset=utf-8$/i.test(ct),
        `404 Content-Type is ${JSON.stringify(ct)}`,
      );
      expect(
        r.body.startsWith("invalid path. ") && r.body.includes(help.body.split("\n")[0]),
        `404 body should be "invalid path. " and the /help text, got ${preview(r.body)}`,
      );
    }),
    c("exact-path", "/stats/ and /statsfoo are unknown paths", [
      "admin.general.exact-path-match",
    ], async (ctx) => {
      for (const p of ["/stats/", "/statsfoo", "/help/"]) {
        const r = await ctx.http.request("GET", p);
        expectStatus(r, 404, `GET ${p}`);
      }
    }),
    c("help-format", "/help lists every endpoint path, sorted", [
      "admin.general.help-format",
    ], async (ctx) => {
      const r = await ctx.http.request("GET", "/help");
      const lines = r.body.split("\n");
      expect(lines[0] === "admin commands are:", `first line is ${JSON.stringify(lines[0])}`);
      const listed = lines.slice(1).map((l) => /^ {2}(\/\S*?)(?: \(POST\))?: /.exec(l)?.[1])
        .filter((p): p is string => p !== undefined);
      const sorted = [...listed].sort();
      expect(
        listed.join(" ") === sorted.join(" "),
        `paths are not sorted: ${listed.join(" ")}`,
      );
      const required = [...new Set(rows.filter((x) => !x.requires).map((x) => x.path))];
      const missing = required.filter((p) => !listed.includes(p));
      expect(missing.length === 0, `/help does not list ${missing.join(", ")}`);
    }),
    c("home-page", "the home page links read-only endpoints and POSTs mutating ones", [
      "admin.general.home-page-links",
    ], async (ctx) => {
      const r = await ctx.http.request("GET", "/");
      const missing: string[] = [];
      for (const row of rows.filter((x) => !x.requires && x.path !== "/")) {
        const rel = row.path.slice(1).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const link = new RegExp(`href=['"]/?${rel}['"?]`);
        const form = new RegExp(
          `<form[^>]*action=['"]/?${rel}['"][^>]*method=['"]post['"]|` +
            `<form[^>]*method=['"]post['"][^>]*action=['"]/?${rel}['"]`,
          "i",
        );
        if (!(row.mutating ? form : link).test(r.body)) missing.push(row.path);
      }
      expect(
        missing.length === 0,
        `the home page lacks a link or form for ${[...new Set(missing)]}`,
      );
    }),
    c("query-first-wins", "the first of a repeated query key wins", [
      "admin.general.query-first-wins",
    ], async (ctx) => {
      const r = await ctx.http.request("GET", "/clusters?format=json&format=text");
      expect(r.mediaType === "application/json", `format=json&format=text gave ${r.mediaType}`);
      const t = await ctx.http.request("GET", "/clusters?format=text&format=json");
      expect(t.mediaType !== "application/json", "format=text&format=json gave JSON");
    }),
    c("flag-presence", "a flag parameter is set by presence, whatever its value", [
      "admin.general.flag-presence",
    ], async (ctx) => {
      const types = async (q: string) =>
        ((await getJson(ctx, `/config_dump?${q}`)).configs as Array<Record<string, unknown>>)
          .map((x) => x["@type"]).join(",");
      const set = await types("include_eds");
      for (const q of ["include_eds=false", "include_eds=0"]) {
        const got = await types(q);
        expect(got === set, `/config_dump?${q} dumped ${got}, but ?include_eds dumped ${set}`);
      }
    }),
    c("read-only-any-method", "a read-only endpoint answers POST as it answers GET", [
      "admin.general.read-only-any-method",
    ], async (ctx) => {
      for (const p of ["/ready", "/server_info", "/help"]) {
        const g = await ctx.http.request("GET", p);
        const q = await ctx.http.request("POST", p);
        expect(
          g.status === q.status && g.mediaType === q.mediaType,
          `POST ${p} answered ${q.status} ${q.mediaType}, GET ${g.status} ${g.mediaType}`,
        );
      }
    }),
    c("config-address", "the admin listener binds the bootstrap's admin address", [
      "admin.general.config-address",
    ], async (ctx) => {
      const dump = await getJson(ctx, "/config_dump");
      const boot = (dump.configs as Array<Record<string, unknown>>)
        .find((x) => String(x["@type"]).endsWith("BootstrapConfigDump"));
      const sa = ((boot?.bootstrap as Record<string, unknown>)?.admin as Record<string, unknown>)
        ?.address as { socket_address?: { address?: string; port_value?: number } } | undefined;
      expect(
        sa?.socket_address !== undefined,
        "the bootstrap dump has no admin.address.socket_address",
      );
      const host = new URL(ctx.http.base).hostname.replace(/^\[|\]$/g, "");
      const want = sa.socket_address.address ?? "";
      const any = want === "0.0.0.0" || want === "::" || !/^[\d.:a-f]+$/i.test(host);
      expect(
        any || want === host,
        `admin address is ${want}, but the interface answers on ${host}`,
      );
      const port = Number(new URL(ctx.http.base).port || 80);
      const pv = sa.socket_address.port_value ?? 0;
      expect(pv === 0 || pv === port, `admin port_value is ${pv}, but it answers on ${port}`);
    }),
    c("json-defaults-omitted", "format=json omits default values; thresholds omit DEFAULT", [
      "admin.general.format-json-defaults-omitted",
      "admin.general.thresholds-priority",
      "admin.general.thresholds-fields",
    ], async (ctx) => {
      const v = await getJson(ctx, "/clusters?format=json");
      const found: string[] = [];
      defaultsIn(v, "", found);
      expect(found.length === 0, `default values rendered: ${found.slice(0, 5).join("; ")}`);
      const statuses = (v.cluster_statuses ?? []) as Array<Record<string, unknown>>;
      const ths = statuses.flatMap((s) =>
        ((s.circuit_breakers as { thresholds?: Array<Record<string, unknown>> })?.thresholds) ?? []
      );
      expect(ths.length > 0, "no circuit_breakers.thresholds in /clusters?format=json");
      for (const t of ths) {
        expect(t.priority === undefined || t.priority === "HIGH", `priority ${t.priority}`);
        for (
          const k of ["max_connections", "max_pending_requests", "max_requests", "max_retries"]
        ) {
          expect(
            t[k] === undefined || Number.isInteger(t[k]),
            `thresholds.${k} is ${JSON.stringify(t[k])}, not an integer`,
          );
        }
      }
      expect(ths.some((t) => t.priority === "HIGH"), "no HIGH thresholds entry");
      expect(ths.some((t) => t.priority === undefined), "no DEFAULT (priority omitted) entry");
    }),
    c("no-version-prefix", "admin paths carry no version prefix", [
      "versioning.no-path-prefix",
    ], async (ctx) => {
      const plain = await ctx.http.request("GET", "/server_info");
      expectStatus(plain, 200, "GET /server_info");
      for (const p of ["/v1/server_info", "/v2/server_info", "/v3/server_info"]) {
        const r = await ctx.http.request("GET", p);
        expectStatus(r, 404, `GET ${p}`);
      }
    }),
    c("no-credentials", "the admin interface asks for no credential", [
      "security.no-credentials",
    ], async (ctx) => {
      for (const p of plainPaths) {
        const r = await ctx.http.request("GET", p);
        expect(
          r.status !== 401 && r.status !== 403,
          `GET ${p} asked for credentials (${r.status})`,
        );
      }
    }),
    c("optional-feature-absent", "endpoints of absent optional features do not answer as present", [
      "errors.optional-feature-absent",
    ], async (ctx) => {
      const gated = rows.filter((r) =>
        r.requires && r.method === "GET" && !ctx.features.has(r.requires)
      );
      if (gated.length === 0) {
        throw new NotApplicable("every optional feature with a GET endpoint is present");
      }
      for (const row of gated) {
        const r = await ctx.http.request("GET", row.path, { maxBytes: 0 });
        const asPresent = r.status === 200 &&
          r.mediaType === row.contentType.split(";")[0].toLowerCase();
        expect(
          !asPresent,
          `GET ${row.path} answers as if ${row.requires} were present (${r.status})`,
        );
      }
    }),
    {
      ...c("hystrix-only-stream", "the dashboard stream is the only event stream", [
        "events.hystrix-only-stream",
      ], async (ctx) => {
        const r = await ctx.http.request("GET", "/hystrix_event_stream", { maxBytes: 0 });
        expectStatus(r, 200, "GET /hystrix_event_stream");
        expect(r.mediaType === "text/event-stream", `content type ${r.mediaType}`);
        for (const p of plainPaths) {
          const o = await ctx.http.request("GET", p);
          expect(o.mediaType !== "text/event-stream", `GET ${p} is an event stream too`);
        }
      }),
      requires: "dashboard_sink" as const,
    },
  ];
  return out.filter((x) => x.rules.length > 0);
}
