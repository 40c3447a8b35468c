import assert from "node:assert/strict";
import { toJsonReport } from "./report/json.ts";
import { toJUnit, xmlEscape } from "./report/junit.ts";
import { toHtml, toMarkdown } from "./report/markdown.ts";
import { toText } from "./report/text.ts";
import type { RuleResult, RunReport, Status } from "./types.ts";

function rule(id: string, status: Status, expected: Status, ok: boolean): RuleResult {
  return {
    rule: id,
    table: id.split(".")[0],
    level: "MUST",
    statement: `statement of ${id} with <markup> & "quotes"`,
    section: id.startsWith("cli") ? "Command-line options" : "Endpoints",
    quote: "a quote | with pipes",
    status,
    expected,
    ok,
    message: status === "PASS" ? "" : `expected 400, got 200 \u0001 <b>`,
    durationMs: 12,
    repro: ["curl -sS -i 'http://127.0.0.1:1/x'"],
    cases: [{ caseId: `case:${id}`, title: "t", status, message: "", durationMs: 12, repro: [] }],
    ...(status === "FAIL" ? { counterexample: "/stats?%00" } : {}),
  };
}

export const SAMPLE: RunReport = {
  suite: { name: "proxyspec-conformance", version: "0.1.0" },
  implementation: { name: "impl", version: "x/1.0.0/Clean/RELEASE/lib", source: "/server_info" },
  arguments: ["--base-url", "http://127.0.0.1:1"],
  seed: 42,
  numRuns: 5,
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:01.000Z",
  results: [
    rule("admin.a", "PASS", "PASS", true),
    rule("admin.b", "FAIL", "PASS", false),
    rule("admin.c", "FAIL", "FAIL", true),
    rule("admin.d", "PASS", "FAIL", false),
    rule("cli.e", "ERROR", "PASS", false),
    rule("cli.f", "SKIP", "PASS", true),
    rule("cli.g", "PRECONDITION_FAILED", "PASS", true),
  ],
  unmatchedExpectations: ["gone.rule"],
};

/** A small XML well-formedness check: balanced tags, quoted attributes, known entities. */
function assertWellFormed(xml: string): void {
  assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/);
  const body = xml.replace(/^<\?xml[^>]*\?>/, "");
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null;
  let roots = 0;
  while ((m = token.exec(body)) !== null) {
    if (m[6]) assert.fail(`stray "<" at ${m.index}: ${body.slice(m.index, m.index + 40)}`);
    const text = m[5] ?? m[3] ?? "";
    for (const e of text.matchAll(/&([^;\s]*);?/g)) {
      assert.match(e[0], /^&(amp|lt|gt|quot|apos);$/, `bad entity ${e[0]}`);
    }
    // deno-lint-ignore no-control-regex
    assert.equal(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text), false, "control character");
    if (m[5] !== undefined) {
      if (stack.length === 0) assert.equal(m[5].trim(), "", "text outside the root");
      continue;
    }
    if (m[1] === "/") assert.equal(stack.pop(), m[2], `unbalanced </${m[2]}>`);
    else if (m[4] !== "/") {
      if (stack.length === 0) roots++;
      stack.push(m[2]);
    } else if (stack.length === 0) roots++;
  }
  assert.deepEqual(stack, []);
  assert.equal(roots, 1);
}

Deno.test("runner JUnit report: well-formed, one testcase per rule ID", () => {
  const xml = toJUnit(SAMPLE);
  assertWellFormed(xml);
  const names = [...xml.matchAll(/<testcase [^>]*name="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(names, SAMPLE.results.map((r) => r.rule));
  assert.match(xml, /<testsuites [^>]*tests="7" failures="2" errors="1" skipped="3"/);
  assert.match(xml, /name="admin\.d"[^>]*>\s*<failure message="expected FAIL, got PASS"/);
  assert.match(xml, /name="cli\.e"[^>]*>\s*<error /);
  assert.equal(xmlEscape(`<&>"'`), "&lt;&amp;&gt;&quot;&apos;");
});

Deno.test("runner JSON report: identity, arguments, seed and per-rule fields", () => {
  const j = JSON.parse(JSON.stringify(toJsonReport(SAMPLE)));
  for (const k of ["suite", "implementation", "arguments", "seed", "results", "summary"]) {
    assert.ok(k in j, `missing ${k}`);
  }
  assert.equal(j.implementation.version, SAMPLE.implementation.version);
  assert.equal(j.seed, 42);
  assert.equal(j.summary.unexpected, 3);
  assert.equal(j.summary.total, 7);
  for (const r of j.results) {
    for (
      const k of ["rule", "status", "expected", "message", "citation", "duration_ms", "reproduce"]
    ) {
      assert.ok(k in r, `result ${r.rule} lacks ${k}`);
    }
    assert.equal(typeof r.citation.section, "string");
    assert.equal(typeof r.citation.quote, "string");
    assert.ok(
      Array.isArray(r.reproduce) && r.reproduce.every((l: string) => l.startsWith("curl ")),
    );
  }
  assert.equal(j.results[1].counterexample, "/stats?%00");
});

Deno.test("runner Markdown and HTML reports: grouped by section with counts", () => {
  const md = toMarkdown(SAMPLE);
  assert.match(md, /^## Endpoints$/m);
  assert.match(md, /^## Command-line options$/m);
  assert.ok(md.indexOf("## Endpoints") < md.indexOf("## Command-line options"));
  assert.match(md, /FAIL 2, PASS 2; unexpected 2/);
  assert.match(md, /a quote \| with pipes|### admin\.b/);
  const html = toHtml(SAMPLE);
  assert.match(html, /<h2>Endpoints<\/h2>/);
  assert.equal(html.includes("<markup>"), false, "statements are escaped");
  assert.match(html, /id="admin\.b" class="bad"/);
});

Deno.test("runner text summary: failures show rule, citation, expected vs actual, repro", () => {
  const t = toText(SAMPLE);
  assert.match(t, /✗ admin\.b \(MUST\): expected PASS, got FAIL/);
  assert.match(t, /cites Endpoints: "a quote \| with pipes"/);
  assert.match(t, /\$ curl -sS -i/);
  assert.match(t, /3 result\(s\) did not match their expectation/);
  assert.equal(t.includes("admin.a (MUST)"), false);
});
