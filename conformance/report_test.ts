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
    check: "black-box",
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
    rule("cli.f", "NOT_RUN", "PASS", true),
    rule("cli.g", "NOT_APPLICABLE", "PASS", true),
  ],
  unmatchedExpectations: ["gone.rule"],
  strict: false,
};

/** The same run under --strict: the two not-checked rules no longer match. */
const STRICT: RunReport = {
  ...SAMPLE,
  strict: true,
  results: SAMPLE.results.map((r) =>
    r.status === "NOT_RUN" || r.status === "NOT_APPLICABLE" ? { ...r, ok: false } : r
  ),
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
  assert.match(xml, /name="cli\.f"[^>]*>\s*<skipped message="NOT_RUN: /);
  assert.match(xml, /<property name="rules_checked" value="5"\/>/);
  assert.match(xml, /<property name="rules_selected" value="7"\/>/);
  assert.equal(xmlEscape(`<&>"'`), "&lt;&amp;&gt;&quot;&apos;");
  const strict = toJUnit(STRICT);
  assertWellFormed(strict);
  assert.match(strict, /failures="4" errors="1" skipped="1"/);
  assert.match(
    strict,
    /name="cli\.g"[^>]*>\s*<failure message="expected PASS, got NOT_APPLICABLE"/,
  );
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
  assert.equal(j.summary.checked, 5);
  assert.equal(j.summary.NOT_RUN, 1);
  assert.equal(j.summary.NOT_APPLICABLE, 1);
  assert.equal(j.summary.strict, false);
  assert.equal(j.not_checked.length, 2);
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

Deno.test("runner Markdown report: totals, contents by section, failures with quote, expected, actual and repro", () => {
  const md = toMarkdown(SAMPLE);
  assert.match(md, /^## Endpoints$/m);
  assert.match(md, /^## Command-line options$/m);
  assert.ok(md.indexOf("## Endpoints") < md.indexOf("## Command-line options"));
  assert.match(md, /checked 5 of 7 selected rules/);
  const toc = md.slice(md.indexOf("## Contents"), md.indexOf("## Endpoints"));
  assert.match(
    toc,
    /- \[Endpoints\]\(#s0-endpoints\): checked 4 of 4; .*failures 3, unexpected 2 ✗/,
  );
  assert.match(toc, /- \[Command-line options\]\(#s1-command-line-options\): checked 1 of 3/);
  assert.match(md, /<a id="s0-endpoints"><\/a>\n\n## Endpoints/);
  const b = md.slice(md.indexOf("### admin.b"), md.indexOf("### admin.c"));
  assert.match(b, /\| Specification \(quote\) \| Expected \| Actual \|/);
  assert.match(
    b,
    /\| Endpoints: “a quote \\\| with pipes” \| PASS: statement of admin\.b .*\| FAIL: expected 400, got 200/,
  );
  assert.match(b, /```sh\ncurl -sS -i 'http:\/\/127\.0\.0\.1:1\/x'\n```/);
  assert.equal(md.includes("### admin.a"), false, "a pass has no failure detail");
  assert.equal(md.includes("### cli.f"), false, "a matching NOT_RUN has no failure detail");
  assert.match(toMarkdown(STRICT), /### cli\.f[\s\S]*--strict: not checked and not listed/);
});

Deno.test("runner HTML report: contents, a failures-only switch, failures side by side with repro", () => {
  const html = toHtml(SAMPLE);
  assert.equal(html.includes("<markup>"), false, "statements are escaped");
  assert.match(html, /<pre id="totals"><strong>impl [^<]*checked 5 of 7 selected rules/);
  const nav = html.slice(html.indexOf("<nav>"), html.indexOf("</nav>"));
  const hrefs = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(hrefs, ["s0-endpoints", "s1-command-line-options"]);
  for (const h of hrefs) assert.match(html, new RegExp(`<section id="${h}" class="has-failures">`));
  assert.match(html, /<input type="checkbox" id="only-failures"> show failures only \(4\)/);
  assert.match(html, /<script>document\.getElementById\('only-failures'\)/);
  assert.match(html, /body\.only-failures tr\.good[^{]*\{display:none\}/);
  const rows = [...html.matchAll(/<tr id="([^"]+)" class="(\w+)">/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, [
    ["admin.a", "good"],
    ["admin.b", "failure"],
    ["admin.c", "failure"],
    ["admin.d", "failure"],
    ["cli.e", "failure"],
    ["cli.f", "good"],
    ["cli.g", "good"],
  ]);
  const b = html.slice(html.indexOf('<tr id="admin.b"'), html.indexOf('<tr id="admin.c"'));
  assert.match(
    b,
    /<div class="side"><div><h4>Specification \(Endpoints\)<\/h4>“a quote \| with pipes”<\/div>/,
  );
  assert.match(b, /<div><h4>Expected<\/h4><pre>PASS: statement of admin\.b with &lt;markup&gt;/);
  assert.match(
    b,
    /<div><h4>Actual<\/h4><pre>FAIL: expected 400, got 200 {2}&lt;b&gt;\ncounterexample: \/stats\?%00/,
  );
  assert.match(b, /<h4>Reproduce<\/h4><pre>curl -sS -i 'http:\/\/127\.0\.0\.1:1\/x'<\/pre>/);
  const clean = toHtml({ ...SAMPLE, results: [SAMPLE.results[0]] });
  assert.match(clean, /<li class="clean">/);
  assert.match(clean, /<section id="s0-endpoints" class="clean">/);
});

Deno.test("runner text summary: failures show rule, citation, expected vs actual, repro", () => {
  const t = toText(SAMPLE);
  assert.match(t, /✗ admin\.b \(MUST\): expected PASS, got FAIL/);
  assert.match(t, /cites Endpoints: "a quote \| with pipes"/);
  assert.match(t, /\$ curl -sS -i/);
  assert.match(t, /3 result\(s\) did not match their expectation/);
  assert.equal(t.includes("admin.a (MUST)"), false);
  assert.match(t, /impl [^:]*: checked 5 of 7 selected rules \(71%\); 2 not checked/);
  assert.match(t, /PASS 2, FAIL 2, ERROR 1, TIMEOUT 0, NOT_APPLICABLE 1, NOT_RUN 1/);
  assert.match(t, /--strict makes them count/);
  const s = toText(STRICT);
  assert.match(s, /✗ cli\.f \(MUST\): expected PASS, got NOT_RUN \(--strict: not checked/);
  assert.match(s, /5 result\(s\) did not match their expectation \(--strict/);
});
