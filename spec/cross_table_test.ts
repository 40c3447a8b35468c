/**
 * Checks that tables agree with each other where they describe the same thing: limits against
 * the cluster and command-line rows they bound, `/server_info`'s `command_line_options` against
 * the options that fill them, and state transitions against the endpoint rows that trigger them.
 * A check whose other table is still empty passes without comparing (it says so in the name).
 *
 * @module
 */
import assert from "node:assert/strict";
import { TABLES } from "./mod.ts";
import { ENDPOINTS } from "./admin/endpoints.ts";
import { ADMIN_RESOURCES } from "./admin/resources.ts";
import { STATES } from "./admin/states.ts";
import { type LimitRef, LIMITS } from "./limits.ts";

/** A default or bound in proto3 JSON form, as a number in `unit` (durations: `ms` or `s`). */
function normalize(v: unknown, unit?: string): unknown {
  if (typeof v === "object" && v !== null && "value" in v) return (v as { value: unknown }).value;
  if (typeof v !== "string") return v;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(v);
  if (!m) return v;
  const ms = Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2]]!;
  return unit === "s" ? ms / 1000 : ms;
}

function referenced(ref: LimitRef): Record<string, unknown> | undefined {
  const rows = "option" in ref
    ? TABLES["cli.options"].filter((r) => (r as unknown as { long: string }).long === ref.option)
    : [...TABLES["cluster.fields"], ...TABLES["cluster.objects"]].filter((r) => {
      const f = r as unknown as { message: string; field: string };
      return f.message === ref.message && f.field === ref.field;
    });
  return rows[0] as unknown as Record<string, unknown> | undefined;
}

Deno.test("limits: defaults and bounds agree with the cluster and command-line tables", () => {
  const bad: string[] = [];
  const checkOne = (
    id: string,
    value: { default?: unknown; min?: number; max?: number; unit?: string },
    ref: LimitRef,
  ) => {
    const table = "option" in ref ? "cli.options" : "cluster.*";
    if (
      "option" in ref ? TABLES["cli.options"].length === 0 : TABLES["cluster.fields"].length === 0
    ) {
      return;
    }
    const row = referenced(ref);
    if (!row) return void bad.push(`${id}: no row for ${JSON.stringify(ref)} in ${table}`);
    if (value.default !== undefined && value.default !== null) {
      const theirs = normalize(row.default, value.unit);
      if (theirs !== value.default) {
        bad.push(
          `${id}: default ${value.default} but ${row.id} says ${JSON.stringify(row.default)}`,
        );
      }
    }
    const range = row.range as { min?: number; max?: number } | undefined;
    for (const k of ["min", "max"] as const) {
      if (value[k] !== undefined && range?.[k] !== undefined && range[k] !== value[k]) {
        bad.push(`${id}: ${k} ${value[k]} but ${row.id} says ${range[k]}`);
      }
    }
  };
  for (const r of LIMITS) {
    if ("ref" in r && r.ref) checkOne(r.id, r.value, r.ref);
    if ("parts" in r && r.parts) {
      for (const [name, part] of Object.entries(r.parts)) {
        if (part.ref) checkOne(`${r.id} (${name})`, part, part.ref);
      }
    }
  }
  assert.deepEqual(bad, []);
});

Deno.test("admin.resources.command_line_options: each field is filled by a command-line option", () => {
  const options = TABLES["cli.options"] as unknown as {
    long: string;
    field?: string;
    fieldKind?: string;
  }[];
  if (options.length === 0) return;
  const kinds: Record<string, string[]> = {
    string: ["string", "uint64-string"],
    integer: ["integer"],
    boolean: ["boolean"],
    "duration string": ["duration-s", "duration-ms"],
  };
  const rows = ADMIN_RESOURCES.filter((r) =>
    r.id.startsWith("admin.resources.command_line_options.")
  );
  assert.equal(rows.length, 23);
  for (const r of rows) {
    const field = r.name.slice("command_line_options.".length);
    const option = options.find((o) => o.field === field);
    assert.ok(option, `${r.id}: no option fills ${field}`);
    assert.ok(
      kinds[r.type]?.includes(option.fieldKind ?? "string"),
      `${r.id}: ${r.type} vs ${option.long} fieldKind ${option.fieldKind}`,
    );
  }
});

Deno.test("admin.states: each transition's trigger is a row of the endpoint table", () => {
  for (const s of STATES.filter((r) => r.trigger.startsWith("POST "))) {
    const [method, path] = s.trigger.split(" ");
    const row = ENDPOINTS.find((e) => e.method === method && e.path === path);
    assert.ok(row, `${s.id}: ${s.trigger} is not an endpoint`);
    assert.ok(row.mutating, `${s.id}: ${s.trigger} changes state but is not mutating`);
  }
});
