/**
 * Cases generated from `admin.resources` (by their `resource`, `name` and `type` columns): the
 * fields and types of `/server_info`, the per-host statistics and health strings of `/clusters`,
 * the `/runtime` object; plus the server-state rule (`LIVE` ⇒ `/ready` 200) and the limits and
 * versioning rules that read the same outputs.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { resourceCases } from "./admin_resources.ts";
 * const cases = resourceCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { ADMIN_RESOURCES, LIMITS, OPTIONS } from "../../spec/mod.ts";
import type { LimitRow, OptionRow, Rule } from "../../spec/mod.ts";
import { NotApplicable } from "../types.ts";
import type { Case, CaseContext } from "../types.ts";
import { CONFORMANCE_FIXTURE } from "../probe.ts";
import { existing, expect, expectStatus, getJson, hostLines } from "./util.ts";
import type { BuildInput } from "./util.ts";

/** A resources row: the columns this builder reads. */
type ResourceRow = Rule & { resource: string; name: string; type: string };

const VERSION = /^[^/\s]+\/[^/\s]+\/[^/\s]+\/[^/\s]+\/[^/\s]+$/;
const DURATION = /^-?\d+(\.\d+)?s$/;

function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** Checks a value against a `type` column word; null when it fits. */
function checkType(v: unknown, type: string, name: string): string | null {
  const t = type.toLowerCase();
  if (v === undefined) return `${name} is missing`;
  if (t === "duration string") {
    return typeof v === "string" && DURATION.test(v) ? null : `${name} is ${JSON.stringify(v)}`;
  }
  if (t === "integer") return Number.isInteger(v) ? null : `${name} is ${JSON.stringify(v)}`;
  if (["string", "boolean", "object", "array"].includes(t)) {
    return jsonType(v) === t ? null : `${name} should be ${t}, got ${JSON.stringify(v)}`;
  }
  return null;
}

function pick(o: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], o);
}

function serverInfoCase(row: ResourceRow, input: BuildInput): Case {
  return {
    id: `resource:${row.id}`,
    title: `/server_info ${row.name} is ${row.type}`,
    rules: existing(input.rules, row.id, row.name === "version" ? "versioning.version-string" : ""),
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const info = await getJson(ctx, "/server_info");
      const v = pick(info, row.name);
      const bad = checkType(v, row.type, row.name);
      expect(bad === null, `/server_info: ${bad}`);
      if (row.name === "version") {
        expect(VERSION.test(String(v)), `version ${JSON.stringify(v)} has not five parts`);
      }
      if (row.name === "state") {
        const ready = await ctx.http.request("GET", "/ready");
        if (ready.status === 200) expect(v === "LIVE", `/ready is 200 but state is ${v}`);
      }
      if (row.name === "node.user_agent_build_version") {
        const ver = (v as { version?: Record<string, unknown> }).version ?? {};
        for (const k of ["major_number", "minor_number", "patch"]) {
          expect(
            ver[k] === undefined || Number.isInteger(ver[k]),
            `user_agent_build_version.version.${k} is ${JSON.stringify(ver[k])}`,
          );
        }
      }
    },
  };
}

function hostStatCase(row: ResourceRow, input: BuildInput): Case {
  const extra = row.name === "success_rate" ? ["limits.success-rate"] : [];
  return {
    id: `resource:${row.id}`,
    title: `every host in /clusters reports ${row.name}`,
    rules: existing(input.rules, row.id, ...extra),
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const r = await ctx.http.request("GET", "/clusters");
      expectStatus(r, 200, "GET /clusters");
      const lines = hostLines(r.body);
      const hosts = [...new Set(lines.map((l) => `${l.cluster}::${l.host}`))];
      if (hosts.length === 0) throw new NotApplicable("/clusters lists no host (load the fixture)");
      // The specification names the health line `healthy`; Envoy's `health_flags` alone fails.
      const names = [row.name];
      for (const h of hosts) {
        const line = lines.find((l) => `${l.cluster}::${l.host}` === h && names.includes(l.name));
        expect(line !== undefined, `host ${h} has no ${names.join(" or ")} line`);
        const v = line.value;
        const t = row.type.toLowerCase();
        const ok = t === "counter" || t === "gauge"
          ? /^\d+$/.test(v)
          : t === "integer"
          ? /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100
          : t === "boolean"
          ? v === "true" || v === "false"
          : t === "double"
          ? /^-1(\.0+)?$/.test(v) || (/^\d+(\.\d+)?$/.test(v) && Number(v) <= 100)
          : t === "string"
          ? row.name !== "healthy" || /^(healthy|(\/failed_[a-z_]+)+)$/.test(v)
          : true;
        expect(ok, `host ${h}: ${line.name}::${v} is not a valid ${row.type}`);
      }
    },
  };
}

function clustersCase(row: ResourceRow, input: BuildInput): Case | null {
  if (row.id.endsWith("version_info-static")) {
    return {
      id: `resource:${row.id}`,
      title: "/clusters prints version_info::static without CDS",
      rules: existing(input.rules, row.id),
      target: "http",
      phase: "read",
      run: async (ctx) => {
        const dump = await ctx.http.request("GET", "/config_dump");
        const cds = /"cds_config"/.test(dump.body);
        const r = await ctx.http.request("GET", "/clusters");
        const first = r.body.split("\n")[0];
        expect(
          cds ? first.startsWith("version_info::") : first === "version_info::static",
          `first line of /clusters is ${JSON.stringify(first)}`,
        );
      },
    };
  }
  if ((row.type === "health-flag" && row.name === "healthy") || row.name === "health_flags") {
    return {
      id: `resource:${row.id}`,
      title: "host health strings are healthy or /failed_* flags",
      rules: existing(input.rules, row.id),
      target: "http",
      phase: "read",
      run: async (ctx) => {
        const r = await ctx.http.request("GET", "/clusters");
        const health = hostLines(r.body).filter((l) => /^(health_flags|healthy)$/.test(l.name));
        if (health.length === 0) throw new NotApplicable("/clusters lists no host health");
        for (const l of health) {
          expect(/^(healthy|(\/failed_[a-z_]+)+)$/.test(l.value), `${l.host}: ${l.value}`);
          if (l.cluster === CONFORMANCE_FIXTURE.cluster) {
            expect(
              l.value === "healthy",
              `fixture host ${l.host} (no health checks) is ${l.value}`,
            );
          }
        }
      },
    };
  }
  return null;
}

async function runtimeOf(ctx: CaseContext) {
  const v = await getJson(ctx, "/runtime");
  const layers = v.layers as unknown[];
  const entries = v.entries as Record<string, { layer_values?: unknown; final_value?: unknown }>;
  expect(Array.isArray(layers) && layers.every((l) => typeof l === "string"), "layers");
  expect(typeof entries === "object" && entries !== null, "entries is not an object");
  return { layers: layers as string[], entries };
}

function runtimeCase(row: ResourceRow, input: BuildInput): Case {
  return {
    id: `resource:${row.id}`,
    title: `/runtime ${row.name} has its shape`,
    rules: existing(input.rules, row.id),
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const { layers, entries } = await runtimeOf(ctx);
      if (row.name === "layers" && layers.includes(CONFORMANCE_FIXTURE.staticLayer)) {
        const a = layers.indexOf(CONFORMANCE_FIXTURE.staticLayer);
        const b = layers.indexOf(CONFORMANCE_FIXTURE.adminLayer);
        expect(b < 0 || a < b, `layers out of configuration order: ${layers.join(", ")}`);
      }
      for (const [k, e] of Object.entries(entries)) {
        const lv = e.layer_values;
        expect(Array.isArray(lv) && lv.every((x) => typeof x === "string"), `${k}.layer_values`);
        expect(
          lv.length === layers.length,
          `${k}: ${lv.length} layer_values, ${layers.length} layers`,
        );
        expect(typeof e.final_value === "string", `${k}.final_value is not a string`);
        const last = [...lv].reverse().find((x) => x !== "") ?? "";
        expect(e.final_value === last, `${k}: final_value ${e.final_value}, top layer has ${last}`);
      }
      if (row.name === "entries" && layers.includes(CONFORMANCE_FIXTURE.staticLayer)) {
        const e = entries[CONFORMANCE_FIXTURE.runtimeKey];
        expect(e?.final_value === "static-value", `fixture key shows ${JSON.stringify(e)}`);
      }
    },
  };
}

function limitDefaultCase(row: LimitRow, input: BuildInput): Case | null {
  const opt = (OPTIONS as readonly OptionRow[]).find((o) => o.long === row.item);
  if (!opt?.field || row.value.default === undefined || row.value.default === null) return null;
  const n = Number(row.value.default);
  const want = opt.fieldKind === "duration-s"
    ? `${n}s`
    : opt.fieldKind === "duration-ms"
    ? `${n / 1000}s`
    : row.value.default;
  return {
    id: `limit:${row.id}`,
    title: `/server_info shows ${row.item} at its default`,
    rules: existing(input.rules, row.id),
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const info = await getJson(ctx, "/server_info");
      const v = pick(info, `command_line_options.${opt.field}`);
      expect(v === want, `command_line_options.${opt.field} is ${JSON.stringify(v)}, want ${want}`);
    },
  };
}

/**
 * Builds the resource cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function resourceCases(input: BuildInput): Case[] {
  const out: Case[] = [];
  for (const row of ADMIN_RESOURCES as readonly ResourceRow[]) {
    if (row.check === "internal") continue;
    if (row.resource === "/server_info") out.push(serverInfoCase(row, input));
    else if (row.resource === "/runtime") out.push(runtimeCase(row, input));
    else if (row.resource === "/clusters" && row.id.includes("host-stat")) {
      out.push(hostStatCase(row, input));
    } else if (row.resource === "/clusters") {
      const c = clustersCase(row, input);
      if (c) out.push(c);
    }
  }
  for (const row of LIMITS as readonly LimitRow[]) {
    if (row.check !== "black-box") continue;
    const c = limitDefaultCase(row, input);
    if (c) out.push(c);
  }
  out.push({
    id: "state:live-ready",
    title: "while state is LIVE, /ready answers 200",
    rules: existing(input.rules, "admin.states.server-live-ready", "errors.ready-live"),
    target: "http",
    phase: "read",
    run: async (ctx) => {
      const info = await getJson(ctx, "/server_info");
      const r = await ctx.http.request("GET", "/ready");
      if (info.state !== "LIVE") throw new NotApplicable(`the server is ${info.state}, not LIVE`);
      expectStatus(r, 200, "GET /ready while LIVE");
      expect(r.body.includes("LIVE"), `/ready body is ${JSON.stringify(r.body)}`);
    },
  });
  return out.filter((c) => c.rules.length > 0);
}
