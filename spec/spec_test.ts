/**
 * Checks over every table: IDs, citations against the specification text, the columns each
 * table needs, and row counts against the specification's own tables and numbered rules.
 *
 * The specification is read from `../shared/seed/000_e4dc442def0e3275.txt` (beside the repo);
 * when it is absent the citation and count tests are ignored and say so.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { allRules, row, type Rule, ruleById, type TableName, TABLES } from "./mod.ts";
import { ADMIN_GENERAL } from "./admin/general.ts";
import { type AdminEndpointRow, type EndpointPath, ENDPOINTS } from "./admin/endpoints.ts";
import { STATS_SHAPES } from "./admin/stats_shapes.ts";
import { LIMITS } from "./limits.ts";
import { ADMIN_RESOURCES } from "./admin/resources.ts";
import { loadSpecText, parseSections, type SpecSection } from "./source_text.ts";

const SPEC = loadSpecText();
const SECTIONS: SpecSection[] = SPEC ? parseSections(SPEC) : [];
const NO_SPEC = SPEC === undefined;
if (NO_SPEC) {
  console.warn(
    "spec_test: ../shared/seed/000_e4dc442def0e3275.txt not found; citation and count tests are SKIPPED",
  );
}

const ID_RE = /^[a-z0-9_]+(\.[a-z0-9_-]+)+$/;
const CHECK_RE = /^(black-box|command|internal|fixture:[a-z0-9]+(-[a-z0-9]+)*)$/;
const ALL = allRules();

function section(heading: string): SpecSection {
  const s = SECTIONS.find((x) => x.heading === heading);
  assert.ok(s, `no section "${heading}" in the specification`);
  return s;
}

/** The table lines (`| ... |`) of a section, header and separator rows left out. */
function tableLines(heading: string): string[] {
  const lines = section(heading).own.split("\n").filter((l) => l.startsWith("|"));
  return lines.slice(2);
}

/** The numbered rules (`1. ...`) of a text. */
function numberedRules(text: string): string[] {
  return text.split("\n").filter((l) => /^\d+\. /.test(l));
}

/** Rows whose quote lies in one of `lines`, with the index of that line. */
function rowsOnLines(rows: readonly Rule[], lines: readonly string[]): Map<number, Rule[]> {
  const out = new Map<number, Rule[]>();
  for (const r of rows) {
    const i = lines.findIndex((l) => l.includes(r.cite.quote));
    if (i >= 0) out.set(i, [...(out.get(i) ?? []), r]);
  }
  return out;
}

Deno.test("rules: IDs are unique and well-formed across all tables", () => {
  const seen = new Map<string, string>();
  for (const r of ALL) {
    assert.match(r.id, ID_RE, `${r.table}: malformed ID ${JSON.stringify(r.id)}`);
    assert.ok(!seen.has(r.id), `${r.id} is in ${seen.get(r.id)} and ${r.table}`);
    seen.set(r.id, r.table);
  }
});

Deno.test("rules: IDs of the admin and general tables start with their table name", () => {
  const own: TableName[] = [
    "admin.endpoints",
    "admin.resources",
    "admin.stats_shapes",
    "admin.states",
    "errors",
    "limits",
    "versioning",
    "security",
    "events",
  ];
  for (const t of own) {
    for (const r of TABLES[t]) assert.ok(r.id.startsWith(`${t}.`), `${r.id} is not under ${t}.`);
  }
  for (const r of ADMIN_GENERAL) {
    assert.match(r.id, /^admin\.(general|mutation)\./, `${r.id} is not under admin.general.`);
  }
});

Deno.test("rules: every row has id, level, one-sentence statement, cite and check", () => {
  for (const r of ALL) {
    const where = `${r.table} ${r.id}`;
    assert.ok(["MUST", "SHOULD", "MAY"].includes(r.level), `${where}: level ${r.level}`);
    assert.equal(typeof r.statement, "string", `${where}: statement`);
    assert.ok(r.statement.trim().length > 0, `${where}: empty statement`);
    assert.match(r.statement.trim(), /[.!?`)"]$/, `${where}: statement is not a sentence`);
    assert.ok(r.cite.section.trim().length > 0, `${where}: empty cite.section`);
    assert.ok(r.cite.quote.trim().length > 0, `${where}: empty cite.quote`);
    assert.match(r.check, CHECK_RE, `${where}: check ${JSON.stringify(r.check)}`);
    if (r.envoy !== undefined) assert.ok(r.envoy.trim().length > 0, `${where}: empty envoy`);
  }
});

Deno.test({
  name: "rules: every cite.section is a heading of the specification",
  ignore: NO_SPEC,
  fn() {
    const headings = new Set(SECTIONS.map((s) => s.heading));
    const bad = ALL.filter((r) => !headings.has(r.cite.section)).map((r) =>
      `${r.id}: "${r.cite.section}"`
    );
    assert.deepEqual(bad, [], "sections that are not headings");
  },
});

Deno.test({
  name: "rules: every cite.quote occurs verbatim in its section of the specification",
  ignore: NO_SPEC,
  fn() {
    const bad: string[] = [];
    for (const r of ALL) {
      const s = SECTIONS.find((x) => x.heading === r.cite.section);
      if (s?.body.includes(r.cite.quote)) continue;
      const elsewhere = SPEC!.includes(r.cite.quote) ? " (found in another section)" : "";
      bad.push(`${r.id}: ${JSON.stringify(r.cite.quote)}${elsewhere}`);
    }
    assert.deepEqual(bad, [], "quotes not found verbatim");
  },
});

/** The columns each table needs, as predicates over a row. */
const REQUIRED: Record<TableName, Record<string, (v: unknown) => boolean>> = (() => {
  const str = (v: unknown) => typeof v === "string";
  const nonEmpty = (v: unknown) => typeof v === "string" && v.length > 0;
  const bool = (v: unknown) => typeof v === "boolean";
  const arr = (v: unknown) => Array.isArray(v);
  const obj = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  const present = (v: unknown) => v !== undefined;
  return {
    "admin.endpoints": {
      method: (v) => v === "GET" || v === "POST",
      path: (v) => typeof v === "string" && v.startsWith("/") && !v.includes("?"),
      query: (v) => typeof v === "string" && !v.startsWith("?"),
      params: arr,
      mutating: bool,
      contentType: nonEmpty,
      shape: nonEmpty,
      help: nonEmpty,
    },
    "admin.general": {},
    "admin.resources": { resource: nonEmpty, name: nonEmpty, type: nonEmpty },
    "admin.stats_shapes": { format: nonEmpty },
    "admin.states": { from: str, trigger: nonEmpty, condition: str, to: nonEmpty, effects: str },
    "errors": { condition: nonEmpty, result: nonEmpty },
    "limits": { item: nonEmpty, value: obj },
    "versioning": {},
    "security": {},
    "events": {},
    "cluster.fields": { message: nonEmpty, field: nonEmpty, kind: nonEmpty },
    "cluster.objects": { message: nonEmpty, field: nonEmpty, kind: nonEmpty },
    "cluster.enums": { name: nonEmpty, values: arr, default: nonEmpty },
    "cluster.rules": { rule: obj, message: str },
    "cli.options": {
      long: (v) => typeof v === "string" && v.startsWith("--"),
      arg: nonEmpty,
      default: present,
      variant: (v) => v === "both" || v === "new",
    },
    "cli.constraints": { options: arr, message: nonEmpty },
    "cli.log_format": {
      flags: (v) => Array.isArray(v) && v.length > 0,
      variant: (v) => v === "both" || v === "new",
      meaning: nonEmpty,
    },
  };
})();

Deno.test("rules: every row has the columns its table requires", () => {
  const bad: string[] = [];
  for (const [table, rows] of Object.entries(TABLES) as [TableName, readonly Rule[]][]) {
    for (const row of rows) {
      for (const [col, ok] of Object.entries(REQUIRED[table])) {
        const v = (row as unknown as Record<string, unknown>)[col];
        if (!ok(v)) bad.push(`${table} ${row.id}: column ${col} = ${JSON.stringify(v)}`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

Deno.test({
  name: "admin.endpoints: 51 rows, in the order of the specification's Endpoints table",
  ignore: NO_SPEC,
  fn() {
    const lines = tableLines("Endpoints");
    assert.equal(lines.length, 51, "the specification's Endpoints table");
    assert.equal(ENDPOINTS.length, 51);
    ENDPOINTS.forEach((row, i) => {
      const cells = lines[i].split("|").map((c) => c.trim());
      assert.ok(lines[i].includes(row.cite.quote), `${row.id} does not quote row ${i + 1}`);
      assert.equal(row.method, cells[1], `${row.id}: method`);
      const request = row.path + (row.query ? `?${row.query}` : "");
      const alias = "alias" in row ? row.alias : undefined;
      const spelled = alias ? `${alias.path}?${alias.query} or GET ${request}` : request;
      assert.equal(spelled, cells[2], `${row.id}: path and query`);
    });
  },
});

Deno.test("admin.endpoints: methods, help, parameters and features agree per path", () => {
  const byPath = Map.groupBy(ENDPOINTS as readonly AdminEndpointRow[], (r) => r.path);
  const types = new Set([
    "text/plain; charset=UTF-8",
    "application/json",
    "text/html; charset=UTF-8",
    "text/event-stream",
  ]);
  for (const [path, rows] of byPath) {
    for (const r of rows) {
      assert.equal(r.mutating, r.method === "POST", `${r.id}: mutating iff POST`);
      assert.equal(r.help, rows[0].help, `${r.id}: help differs within ${path}`);
      assert.deepEqual(r.params, rows[0].params, `${r.id}: params differ within ${path}`);
      assert.equal(r.requires, rows[0].requires, `${r.id}: feature differs within ${path}`);
      assert.ok(types.has(r.contentType), `${r.id}: content type ${r.contentType}`);
      for (const p of r.params) {
        if (p.kind === "enum") assert.ok((p.values?.length ?? 0) > 0, `${r.id}: ${p.name}`);
      }
      for (const pair of r.query.split("&").filter(Boolean)) {
        const name = pair.split("=")[0];
        if (r.params.some((p) => p.kind === "pairs")) continue;
        assert.ok(r.params.some((p) => p.name === name), `${r.id}: ${name} is not a parameter`);
      }
    }
  }
  const ready: EndpointPath = "/ready"; // the path union is derived from the rows
  assert.ok(byPath.has(ready));
});

Deno.test("admin.mutation.get-returns-400: the general table holds the rule the design cites", () => {
  const row = ruleById("admin.mutation.get-returns-400");
  assert.equal(row?.table, "admin.general");
  assert.equal(row?.level, "MUST");
  assert.ok(row?.envoy?.includes("405"));
});

Deno.test({
  name: "admin.general: every general rule of the administration interface has a row",
  ignore: NO_SPEC,
  fn() {
    const text = section("What the service does").own;
    const general = numberedRules(text.slice(text.indexOf("General rules")));
    assert.equal(general.length, 4);
    general.forEach((line, i) => {
      const rows = ADMIN_GENERAL.filter((r) => line.includes(r.cite.quote));
      assert.ok(rows.length > 0, `general rule ${i + 1} has no row`);
    });
  },
});

/** Counts rows that quote distinct lines of the named section's table. */
function tableRowCount(table: TableName, heading: string): { rows: number; lines: number } {
  const lines = tableLines(heading);
  const hit = rowsOnLines(TABLES[table], lines);
  return { rows: [...hit.values()].flat().length, lines: hit.size };
}

for (
  const [table, heading, expected] of [
    ["errors", "Errors", 9],
    ["limits", "Limits", 18],
    ["admin.states", "States and transitions", 8],
  ] as const
) {
  Deno.test({
    name: `${table}: one row per row of the ${heading} table (${expected})`,
    ignore: NO_SPEC,
    fn() {
      assert.equal(tableLines(heading).length, expected, `the specification's ${heading} table`);
      assert.deepEqual(tableRowCount(table, heading), { rows: expected, lines: expected });
    },
  });
}

Deno.test({
  name: "admin.states.server-live-ready: the server-state sentence has its row",
  ignore: NO_SPEC,
  fn() {
    const prose = TABLES["admin.states"].filter((r) => r.cite.quote.includes("`LIVE`"));
    assert.equal(prose.length, 1);
    assert.equal(prose[0].id, "admin.states.server-live-ready");
  },
});

for (
  const [table, heading, expected] of [
    ["versioning", "Versioning", 7],
    ["security", "Authentication", 5],
    ["events", "Events", 2],
  ] as const
) {
  Deno.test({
    name: `${table}: one row per numbered rule of ${heading} (${expected})`,
    ignore: NO_SPEC,
    fn() {
      const rules = numberedRules(section(heading).own);
      assert.equal(rules.length, expected, `numbered rules of ${heading}`);
      assert.equal(TABLES[table].length, expected);
      rules.forEach((line, i) => {
        assert.ok(TABLES[table][i].cite.quote.length > 0);
        assert.ok(line.includes(TABLES[table][i].cite.quote), `rule ${i + 1} of ${heading}`);
      });
    },
  });
}

for (
  const [table, heading, expected] of [
    ["cli.options", "Command-line options", 37],
    ["cli.log_format", "Command-line options", 34],
    ["cluster.fields", "Cluster (configuration object)", 37],
    ["cluster.enums", "Enumerations", 7],
  ] as const
) {
  const empty = TABLES[table].length === 0;
  Deno.test({
    name: `${table}: ${expected} rows quote the ${heading} table${empty ? " (table empty)" : ""}`,
    ignore: NO_SPEC || empty,
    fn() {
      const rows = TABLES[table].filter((r) => r.cite.section === heading);
      const lines = section(heading).own.split("\n").filter((l) => l.startsWith("|"));
      const onTable = rows.filter((r) => lines.some((l) => l.includes(r.cite.quote)));
      assert.equal(onTable.length, expected, `${table} rows that quote a table row`);
    },
  });
}

Deno.test("limits: default values lie within their bounds", () => {
  for (const r of LIMITS) {
    const { default: d, min, max } = r.value as { default?: unknown; min?: number; max?: number };
    if (typeof d !== "number") continue;
    if (min !== undefined) assert.ok(d >= min, `${r.id}: default ${d} < min ${min}`);
    if (max !== undefined) assert.ok(d <= max, `${r.id}: default ${d} > max ${max}`);
  }
});

Deno.test("admin.stats_shapes.text-quantiles: each text quantile is a supported JSON quantile", () => {
  const text = STATS_SHAPES.find((r) => r.id === "admin.stats_shapes.text-quantiles")!;
  const json = STATS_SHAPES.find((r) => r.id === "admin.stats_shapes.json-supported-quantiles")!;
  assert.equal(text.values?.length, 8);
  const supported = new Set<string | number>(json.values);
  for (const q of text.values ?? []) assert.ok(supported.has(Number(String(q).slice(1))), `${q}`);
});

Deno.test("rules: ruleById finds every rule with its table", () => {
  fc.assert(
    fc.property(fc.constantFrom(...ALL), (r) => {
      assert.deepEqual(ruleById(r.id), r);
    }),
  );
  assert.equal(ruleById("no.such.rule"), undefined);
});

Deno.test("rules: row(TABLE, id) returns that table's row and refuses an unknown ID", () => {
  for (const [name, rows] of Object.entries(TABLES)) {
    for (const r of rows) assert.equal(row(rows, r.id), r, `${name} ${r.id}`);
  }
  assert.equal(row(LIMITS, "limits.stats-flush-interval").value.default, 5000);
  // @ts-expect-error an ID of another table is not an ID of LIMITS
  assert.throws(() => row(LIMITS, "admin.endpoints.stats"), /no row admin\.endpoints\.stats/);
});

Deno.test({
  name: "admin.resources: one row per per-host statistic, server info, option and node field",
  ignore: NO_SPEC,
  fn() {
    const count = (prefix: string) => ADMIN_RESOURCES.filter((r) => r.id.startsWith(prefix)).length;
    const host = tableLines("Per-host statistics (GET /clusters)");
    assert.equal(host.length, 13);
    host.forEach((line) => {
      const name = line.split("|")[1].trim();
      assert.ok(ADMIN_RESOURCES.some((r) => r.id === `admin.resources.host-stat.${name}`), name);
    });
    assert.equal(count("admin.resources.host-stat."), 13);
    const info = section("Server info (GET /server_info)").own;
    assert.equal(
      count("admin.resources.server_info.") - 1,
      tableLines("Server info (GET /server_info)").length,
    );
    const list = (label: string) => {
      const line = info.split("\n").find((l) => l.startsWith(label))!;
      return [...line.slice(label.length).matchAll(/(\w+) \(/g)].map((m) => m[1]);
    };
    const cli = list("command_line_options fields:");
    const node = list("node fields:");
    assert.deepEqual([cli.length, node.length], [23, 8]);
    for (const f of cli) {
      assert.ok(ADMIN_RESOURCES.some((r) => r.name === `command_line_options.${f}`), f);
    }
    for (const f of node) assert.ok(ADMIN_RESOURCES.some((r) => r.name === `node.${f}`), f);
    assert.equal(count("admin.resources.command_line_options."), 23);
    assert.equal(count("admin.resources.node."), 8);
  },
});
