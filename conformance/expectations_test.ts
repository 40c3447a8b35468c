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
    check: rule === "internal" ? "internal" : "black-box",
    message,
    durationMs: 1,
    repro: [],
    cases: [],
  };
}

Deno.test("runner expectations: entries parse and bad ones name the file and entry", () => {
  const list = parseExpectations(
    "- {rule: a.b, status: FAIL, reason: known}\n- rule: c.*\n  status: NOT_APPLICABLE\n",
    "x.yaml",
  );
  assert.equal(list.length, 2);
  assert.equal(list[1].reason, "");
  assert.equal(list[1].status, "NOT_APPLICABLE");
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

Deno.test("runner expectations: the old names SKIP and PRECONDITION_FAILED are read as NOT_RUN and NOT_APPLICABLE", () => {
  const list = parseExpectations(
    "- {rule: a, status: SKIP, reason: old}\n- {rule: b, status: PRECONDITION_FAILED}\n",
    "old.yaml",
  );
  assert.deepEqual(list.map((e) => e.status), ["NOT_RUN", "NOT_APPLICABLE"]);
  assert.throws(() => parseExpectations("- {rule: a, status: skip}", "x"), /"status" must be/);
});

Deno.test("runner expectations: an unexpected PASS fails, unlisted not-checked rules pass only without --strict", () => {
  const fail = { rule: "a", status: "FAIL" as const, reason: "" };
  assert.equal(meets("PASS", fail), false);
  assert.equal(meets("FAIL", fail), true);
  assert.equal(meets("NOT_RUN", fail), false);
  assert.equal(meets("PASS", undefined), true);
  assert.equal(meets("NOT_RUN", undefined), true);
  assert.equal(meets("NOT_APPLICABLE", undefined), true);
  assert.equal(meets("FAIL", undefined), false);
  assert.equal(meets("ERROR", undefined), false);
  assert.equal(meets("TIMEOUT", undefined), false);
  const strict = { strict: true };
  assert.equal(meets("PASS", undefined, strict), true);
  assert.equal(meets("NOT_RUN", undefined, strict), false);
  assert.equal(meets("NOT_APPLICABLE", undefined, strict), false);
  assert.equal(meets("NOT_RUN", undefined, { strict: true, internal: true }), true);
  assert.equal(meets("NOT_APPLICABLE", undefined, { strict: true, internal: true }), false);
  const listed = { rule: "a", status: "NOT_APPLICABLE" as const, reason: "no EDS" };
  assert.equal(meets("NOT_APPLICABLE", listed, strict), true);
  assert.equal(meets("PASS", listed, strict), false, "a listed not-checked rule that passes");
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
    result("d", "NOT_RUN", "not run: no --command given"),
    result("e", "NOT_APPLICABLE", "[case:e] absent"),
    result("internal", "NOT_RUN", "internal"),
  ]);
  assert.deepEqual(next, [
    { rule: "a", status: "FAIL", reason: "kept reason" },
    { rule: "b", status: "ERROR", reason: "boom" },
    { rule: "d", status: "NOT_RUN", reason: "not run: no --command given" },
    { rule: "e", status: "NOT_APPLICABLE", reason: "[case:e] absent" },
    { rule: "z", status: "FAIL", reason: "not run" },
  ]);
  const text = renderExpectations(next, "header");
  assert.match(text, /^# header\n/);
  assert.deepEqual(parseExpectations(text, "round trip"), next);
  assert.equal(renderExpectations([]), "[]\n");
});

Deno.test("runner expectations: the shipped files parse; proxyspec's lists only not-checked rules, envoy's names real rules", async () => {
  const { allRules } = await import("../spec/mod.ts");
  const { loadExpectations } = await import("./expectations.ts");
  const dir = new URL("./expectations/", import.meta.url).pathname;
  const ids = new Set(allRules().map((r) => r.id));
  const ours = await loadExpectations(`${dir}proxyspec.yaml`);
  for (const e of ours) {
    assert.ok(ids.has(e.rule), `proxyspec.yaml names an unknown rule ${e.rule}`);
    assert.ok(["NOT_RUN", "NOT_APPLICABLE"].includes(e.status), `${e.rule}: ${e.status}`);
    assert.ok(e.reason.length > 10, `${e.rule} gives no reason`);
  }
  const envoy = await loadExpectations(`${dir}envoy.yaml`);
  assert.ok(envoy.length > 10);
  for (const e of envoy) {
    assert.ok(ids.has(e.rule), `envoy.yaml names an unknown rule ${e.rule}`);
    // Each claim says where it comes from (documentation or Envoy's source) and that no run made it.
    assert.match(
      e.reason,
      /^derived from (documentation|Envoy's source \([^)]+\)), not from a run: /,
    );
  }
  assert.equal(envoy.find((e) => e.rule === "admin.mutation.get-returns-400")?.status, "FAIL");
});

Deno.test("runner expectations: every entry of envoy.yaml names its source, a reference section that exists or a file of envoyproxy/envoy", async () => {
  const { loadExpectations } = await import("./expectations.ts");
  const root = new URL("../", import.meta.url).pathname;
  const envoy = await loadExpectations(`${root}conformance/expectations/envoy.yaml`);
  const texts = new Map<string, string>();
  for (const e of envoy) {
    const source = e.source ?? "";
    const ref = /^reference\/([a-z-]+\.md) §(\d+(?:\.\d+)?)/.exec(source);
    if (ref) {
      const file = `${root}../shared/reference/${ref[1]}`;
      if (!texts.has(file)) texts.set(file, await Deno.readTextFile(file));
      const heading = new RegExp(`^#{2,3} (PART \\d+ — )?${ref[2].replace(".", "\\.")}[ .]`, "m");
      assert.match(texts.get(file)!, heading, `${e.rule}: ${ref[1]} has no section ${ref[2]}`);
    } else {
      assert.match(
        source,
        /^envoyproxy\/envoy (test|source)\/\S+\.(cc|h|sh)\b/,
        `${e.rule}: ${source}`,
      );
    }
  }
});

Deno.test("runner expectations: an entry's source survives parsing, updating with the same status, and rendering", () => {
  const list = parseExpectations(
    '- {rule: a.b, status: FAIL, reason: known, source: "reference/x.md §1"}',
    "source.yaml",
  );
  assert.equal(list[0].source, "reference/x.md §1");
  const next = updateExpectations(list, [result("a.b", "FAIL", "still")]);
  assert.equal(next[0].source, "reference/x.md §1");
  assert.equal(parseExpectations(renderExpectations(next), "again")[0].source, "reference/x.md §1");
  const changed = updateExpectations(list, [result("a.b", "ERROR", "other")]);
  assert.equal(changed[0].source, undefined, "a claim whose status changed keeps no old source");
  assert.throws(() => parseExpectations("- {rule: a, status: FAIL, source: 3}", "f"), /"source"/);
});
