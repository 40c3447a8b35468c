/**
 * Consistency of the cluster tables: unique IDs, verbatim quotes, enum and type references,
 * defaults inside their ranges, and the 37 Cluster fields of the specification.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CLUSTER_FIELDS } from "./fields.ts";
import { CLUSTER_OBJECTS } from "./objects.ts";
import { CLUSTER_ENUMS } from "./enums.ts";
import { CLUSTER_RULES } from "./rules.ts";

const SPEC_URL = new URL("../../../shared/seed/000_e4dc442def0e3275.txt", import.meta.url);

function readSpec(): string | null {
  try {
    return Deno.readTextFileSync(SPEC_URL);
  } catch {
    return null;
  }
}

/** Splits the specification into sections keyed by heading text. */
function sections(spec: string): Map<string, string> {
  const out = new Map<string, string>();
  let cur = "";
  for (const line of spec.split("\n")) {
    const m = /^#+ (.*)$/.exec(line);
    if (m) {
      cur = m[1];
      out.set(cur, "");
    } else out.set(cur, (out.get(cur) ?? "") + line + "\n");
  }
  return out;
}

const ALL = [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS, ...CLUSTER_ENUMS, ...CLUSTER_RULES];

Deno.test("cluster.fields: the table has the 37 Cluster fields of the specification", () => {
  // The rest (maglev_lb_config, round_robin_lb_config) come from real Envoy.
  assert.equal(CLUSTER_FIELDS.filter((r) => r.check !== "internal").length, 37);
  assert.equal(new Set(CLUSTER_FIELDS.map((r) => r.field)).size, CLUSTER_FIELDS.length);
  assert.ok(CLUSTER_FIELDS.every((r) => r.message === "Cluster"));
});

Deno.test("cluster tables: IDs are unique and well formed", () => {
  const ids = ALL.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, /^cluster\.(fields|objects|enums|rules)\.[a-z0-9.-]+$/);
});

Deno.test({
  name: "cluster tables: every quote occurs verbatim in its section of the specification",
  ignore: readSpec() === null,
  fn() {
    const secs = sections(readSpec()!);
    for (const r of ALL) {
      const body = secs.get(r.cite.section);
      assert.ok(body !== undefined, `${r.id}: no section ${r.cite.section}`);
      assert.ok(body.includes(r.cite.quote), `${r.id}: quote not in ${r.cite.section}`);
    }
  },
});

Deno.test("cluster.enums: every enum a field names exists, and every default is a value", () => {
  const enums = new Map<string, readonly { name: string }[]>(
    CLUSTER_ENUMS.map((e) => [e.name, e.values]),
  );
  for (const e of CLUSTER_ENUMS) assert.ok(e.values.some((v) => v.name === e.default), e.id);
  for (const r of [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS]) {
    if (r.kind !== "enum") continue;
    const values = enums.get((r as { enum?: string }).enum ?? "");
    assert.ok(values, `${r.id}: unknown enum`);
    const d = (r as { default?: unknown }).default;
    if (d !== undefined) assert.ok(values.some((v) => v.name === d), `${r.id}: default ${d}`);
  }
});

Deno.test("cluster.objects: numeric defaults lie inside their ranges", () => {
  for (const r of [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS]) {
    const row = r as { default?: unknown; range?: { min?: number; max?: number } };
    const d = typeof row.default === "number"
      ? row.default
      : (row.default as { value?: number } | undefined)?.value;
    if (typeof d !== "number" || !row.range) continue;
    if (row.range.min !== undefined) assert.ok(d >= row.range.min, r.id);
    if (row.range.max !== undefined) assert.ok(d <= row.range.max, r.id);
  }
});

Deno.test("cluster.rules: every field a rule names is a Cluster field", () => {
  const fields = new Set<string>(CLUSTER_FIELDS.map((r) => r.field));
  for (const r of CLUSTER_RULES) {
    const rule = r.rule as Record<string, unknown>;
    for (const k of ["field", "min", "max", "requires"]) {
      const v = rule[k];
      if (typeof v === "string") assert.ok(fields.has(v.split(".")[0]), `${r.id}: ${v}`);
    }
  }
});
