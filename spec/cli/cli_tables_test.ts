import assert from "node:assert/strict";
import { OPTION_CONSTRAINTS, OPTIONS } from "./options.ts";
import { LOG_FLAGS } from "./log_format.ts";

const SPEC = new URL("../../../shared/seed/000_e4dc442def0e3275.txt", import.meta.url);
let specText: string | null = null;
try {
  specText = Deno.readTextFileSync(SPEC);
} catch {
  specText = null;
}

Deno.test("cli.options: the table has the 37 options of the specification with 23 server_info fields", () => {
  assert.equal(OPTIONS.length, 37);
  assert.equal(OPTIONS.filter((o) => "field" in o).length, 23);
  assert.equal(new Set(OPTIONS.map((o) => o.long)).size, 37);
  assert.deepEqual(OPTIONS.filter((o) => "short" in o).map((o) => o.long), [
    "--config-path",
    "--log-level",
  ]);
});

Deno.test("cli.log_format: the table has the 34 flag rows of the specification", () => {
  assert.equal(LOG_FLAGS.length, 34);
  const flags = LOG_FLAGS.flatMap((r) => r.flags as readonly string[]);
  assert.equal(new Set(flags).size, flags.length);
  for (const r of LOG_FLAGS) for (const f of r.flags) assert.match(f, /^%.$/);
});

Deno.test("cli tables: IDs are unique slugs and every quote occurs verbatim in the specification", {
  ignore: specText === null,
}, () => {
  const rows = [...OPTIONS, ...OPTION_CONSTRAINTS, ...LOG_FLAGS];
  assert.equal(new Set(rows.map((r) => r.id)).size, rows.length);
  for (const r of rows) {
    assert.match(r.id, /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/, r.id);
    assert.ok(specText!.includes(r.cite.quote), `${r.id}: quote not in the specification`);
    assert.ok(specText!.includes(`# ${r.cite.section}`), `${r.id}: no section ${r.cite.section}`);
  }
});

Deno.test("cli.options: options marked (new) in the specification are variant new", {
  ignore: specText === null,
}, () => {
  for (const o of OPTIONS) {
    const isNew = specText!.includes(`| ${o.long} (new) |`) ||
      specText!.includes(`, ${o.long} (new) |`);
    assert.equal(o.variant === "new", isNew, o.long);
  }
});
