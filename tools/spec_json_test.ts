import assert from "node:assert/strict";
import { allRules } from "../spec/mod.ts";
import { checkRulesJson, toRulesJson } from "./spec_json.ts";

Deno.test("spec_json: every rule of every table, tagged, with its columns", () => {
  const rows = JSON.parse(toRulesJson()) as Record<string, unknown>[];
  const rules = allRules();
  assert.equal(rows.length, rules.length);
  rows.forEach((row, i) => {
    assert.equal(row.id, rules[i].id);
    assert.equal(row.table, rules[i].table);
    for (const k of ["id", "table", "level", "statement", "cite", "check"]) {
      assert.ok(k in row, `${row.id}: ${k}`);
    }
    assert.deepEqual(Object.keys(row).slice(0, 4), ["id", "table", "level", "statement"]);
  });
  const get400 = rows.find((r) => r.id === "admin.mutation.get-returns-400");
  assert.equal(get400?.table, "admin.general");
  const ready = rows.find((r) => r.id === "admin.endpoints.ready");
  assert.equal(ready?.path, "/ready");
});

Deno.test("spec_json: output is stable and ends with a newline", () => {
  const a = toRulesJson();
  assert.equal(a, toRulesJson());
  assert.ok(a.endsWith("]\n"));
  assert.ok(a.startsWith('[\n  {\n    "id": '));
});

Deno.test("spec_json: --check reports a stale or missing file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const url = new URL(`file://${dir}/rules.json`);
    assert.match(checkRulesJson(url) ?? "", /missing/);
    await Deno.writeTextFile(url, toRulesJson());
    assert.equal(checkRulesJson(url), undefined);
    const rows = JSON.parse(toRulesJson()) as { id: string }[];
    await Deno.writeTextFile(url, JSON.stringify(rows.slice(1), null, 2) + "\n");
    const msg = checkRulesJson(url) ?? "";
    assert.match(msg, /stale/);
    assert.match(msg, /deno task spec:json/);
    assert.ok(msg.includes(rows[0].id), "names the rule that is new");
    await Deno.writeTextFile(url, "{not json");
    assert.match(checkRulesJson(url) ?? "", /not valid JSON/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
