import assert from "node:assert/strict";
import {
  expectationFor,
  meets,
  parseExpectations,
  renderExpectations,
  updateExpectations,
} from "./expectations.ts";
import type { RuleResult, Status } from "./types.ts";

function result(rule: string, status: Status, message = ""): RuleResult {
  return {
    rule,
    table: "t",
    level: "MUST",
    statement: "s",
    section: "S",
    quote: "q",
    status,
    expected: "PASS",
    ok: true,
    message,
    durationMs: 1,
    repro: [],
    cases: [],
  };
}

Deno.test("runner expectations: entries parse and bad ones name the file and entry", () => {
  const list = parseExpectations(
    "- {rule: a.b, status: FAIL, reason: known}\n- rule: c.*\n  status: PRECONDITION_FAILED\n",
    "x.yaml",
  );
  assert.equal(list.length, 2);
  assert.equal(list[1].reason, "");
  assert.deepEqual(parseExpectations("", "e.yaml"), []);
  assert.deepEqual(parseExpectations("[]", "e.yaml"), []);
  assert.throws(
    () => parseExpectations("- {rule: a, status: BROKEN}", "x.yaml"),
    /x\.yaml: entry 0 \(a\): "status"/,
  );
  assert.throws(
    () => parseExpectations("- {rule: a, status: FAIL, why: x}", "x.yaml"),
    /unknown key "why"/,
  );
  assert.throws(() => parseExpectations("rule: a", "x.yaml"), /expected a list/);
  assert.throws(() => parseExpectations("- [", "x.yaml"), /x\.yaml: not valid YAML/);
});

Deno.test("runner expectations: an exact entry wins over a glob", () => {
  const list = parseExpectations(
    "- {rule: 'a.*', status: FAIL, reason: g}\n- {rule: a.b, status: ERROR, reason: e}",
    "x",
  );
  assert.equal(expectationFor(list, "a.b")?.status, "ERROR");
  assert.equal(expectationFor(list, "a.c")?.status, "FAIL");
  assert.equal(expectationFor(list, "b.c"), undefined);
});

Deno.test("runner expectations: an unexpected PASS fails, unlisted non-runs do not", () => {
  const fail = { rule: "a", status: "FAIL" as const, reason: "" };
  assert.equal(meets("PASS", fail), false);
  assert.equal(meets("FAIL", fail), true);
  assert.equal(meets("SKIP", fail), false);
  assert.equal(meets("PASS", undefined), true);
  assert.equal(meets("SKIP", undefined), true);
  assert.equal(meets("PRECONDITION_FAILED", undefined), true);
  assert.equal(meets("FAIL", undefined), false);
  assert.equal(meets("ERROR", undefined), false);
  assert.equal(meets("TIMEOUT", undefined), false);
});

Deno.test("runner expectations: updating lists what did not pass and keeps unreached rules", () => {
  const old = parseExpectations(
    "- {rule: a, status: FAIL, reason: kept reason}\n- {rule: z, status: FAIL, reason: not run}",
    "x",
  );
  const next = updateExpectations(old, [
    result("a", "FAIL", "new message"),
    result("b", "ERROR", "boom\nmore"),
    result("c", "PASS"),
    result("d", "SKIP"),
    result("e", "PRECONDITION_FAILED", "absent"),
  ]);
  assert.deepEqual(next, [
    { rule: "a", status: "FAIL", reason: "kept reason" },
    { rule: "b", status: "ERROR", reason: "boom" },
    { rule: "z", status: "FAIL", reason: "not run" },
  ]);
  const text = renderExpectations(next, "header");
  assert.match(text, /^# header\n/);
  assert.deepEqual(parseExpectations(text, "round trip"), next);
  assert.equal(renderExpectations([]), "[]\n");
});

Deno.test("runner expectations: the shipped files parse; proxyspec's is empty, envoy's names real rules", async () => {
  const { allRules } = await import("../spec/mod.ts");
  const { loadExpectations } = await import("./expectations.ts");
  const dir = new URL("./expectations/", import.meta.url).pathname;
  assert.deepEqual(await loadExpectations(`${dir}proxyspec.yaml`), []);
  const envoy = await loadExpectations(`${dir}envoy.yaml`);
  const ids = new Set(allRules().map((r) => r.id));
  assert.ok(envoy.length > 10);
  for (const e of envoy) {
    assert.ok(ids.has(e.rule), `envoy.yaml names an unknown rule ${e.rule}`);
    assert.match(e.reason, /^derived from documentation, not from a run: /);
  }
  assert.equal(envoy.find((e) => e.rule === "admin.mutation.get-returns-400")?.status, "FAIL");
});
