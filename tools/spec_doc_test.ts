import assert from "node:assert/strict";
import fc from "fast-check";
import { allRules, type TaggedRule } from "../spec/mod.ts";
import { loadSpecText, parseSections } from "../spec/source_text.ts";
import { mdText, toSpecMarkdown } from "./spec_doc.ts";
import { coverage, type CoverageReport, type RuleLinks } from "./spec_coverage.ts";

const SPEC = loadSpecText();

Deno.test("spec_doc: one anchor per rule ID, each exactly once", () => {
  const md = toSpecMarkdown();
  for (const r of allRules()) {
    const anchor = `<a id="${r.id}"></a>`;
    const first = md.indexOf(anchor);
    assert.ok(first >= 0, `no anchor for ${r.id}`);
    assert.equal(md.indexOf(anchor, first + 1), -1, `two anchors for ${r.id}`);
  }
  assert.ok(md.includes('<a id="admin.mutation.get-returns-400"></a>'));
  assert.ok(md.includes("method `GET`; path `/ready`"), "endpoint columns are shown");
});

Deno.test({
  name: "spec_doc: sections follow the specification's order",
  ignore: SPEC === undefined,
  fn() {
    const md = toSpecMarkdown();
    const order = parseSections(SPEC!).map((s) => s.heading);
    const shown = order.filter((h) => md.includes(`\n## ${mdText(h)}\n`));
    assert.ok(shown.length > 10);
    const positions = shown.map((h) => md.indexOf(`\n## ${mdText(h)}\n`));
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
    assert.ok(md.indexOf("\n## Endpoints\n") < md.indexOf("\n## Authentication\n"));
  },
});

Deno.test("spec_doc: each rule shows statement, level, quote, check and envoy note", () => {
  const r: TaggedRule = {
    id: "x.y.z",
    table: "errors",
    level: "SHOULD",
    statement: "Answers <400> with `a<b>`.",
    cite: { section: "Made up", quote: "a | b" },
    check: "fixture:demo",
    envoy: "Envoy answers 405.",
  };
  const md = toSpecMarkdown([r], undefined);
  assert.ok(md.includes('<a id="x.y.z"></a>'));
  assert.ok(md.includes("## Made up"));
  assert.ok(md.includes("Answers &lt;400&gt; with `a<b>`."));
  assert.ok(md.includes("**SHOULD**"));
  assert.ok(md.includes("> a \\| b"));
  assert.ok(md.includes("`fixture:demo`"));
  assert.ok(md.includes("Envoy: Envoy answers 405."));
});

Deno.test("spec_doc: mdText leaves no raw angle brackets outside code spans", () => {
  fc.assert(
    fc.property(fc.string().filter((s) => !s.includes("`")), (s) => {
      const out = mdText(s);
      assert.ok(!/[<>]/.test(out), out);
    }),
  );
  assert.equal(mdText("`<x>` <y>"), "`<x>` &lt;y&gt;");
});

Deno.test("spec_doc: parseSections keeps subsections inside their parent", () => {
  const s = parseSections("# A\nx\n## B\ny\n### C\nz\n## D\nw\n");
  assert.deepEqual(s.map((x) => [x.heading, x.level]), [["A", 1], ["B", 2], ["C", 3], ["D", 2]]);
  assert.ok(s[1].body.includes("z"));
  assert.ok(!s[1].own.includes("z"));
  assert.ok(!s[1].body.includes("w"));
});

const ROW: TaggedRule = {
  id: "admin.x.ready",
  table: "admin.endpoints",
  level: "MUST",
  statement: "Answers.",
  cite: { section: "Made up", quote: "q" },
  check: "black-box",
};

function fakeReport(rules: TaggedRule[], links: Partial<RuleLinks>[]): CoverageReport {
  const full = rules.map((rule, i) => ({
    rule,
    links: { implemented: [], tests: [], cases: [], ...links[i] },
  }));
  return {
    tables: [{
      table: "admin.endpoints",
      total: rules.length,
      implemented: full.filter((x) => x.links.implemented.length).length,
      tested: full.filter((x) => x.links.tests.length).length,
      conformance: full.filter((x) => x.links.cases.length).length,
      refused: rules.filter((r) => (r as { support?: string }).support === "refused").length,
      checkable: rules.length,
      checkableCovered: 0,
    }],
    rules: full,
    untested: [],
    uncheckedCheckable: [],
    unknown: [],
    unknownInTests: [],
    warnings: [],
    files: { tests: 0, cases: 0, sources: 0 },
  };
}

Deno.test("spec_doc: under each rule, links to where it is implemented, tested and checked", () => {
  const report = fakeReport([ROW], [{
    implemented: [
      { file: "src/admin/router.ts", how: "table" },
      { file: "src/admin/server_info_handler.ts", how: "id" },
    ],
    tests: [
      { file: "src/admin/router_test.ts", name: "admin.x.ready: answers <200>" },
      { file: "src/admin/router_test.ts", name: "admin.x.*: every row" },
    ],
    cases: [{ file: "conformance/cases/admin_endpoints.ts", id: "endpoint:admin.x.ready" }],
  }]);
  const md = toSpecMarkdown([ROW], undefined, report);
  assert.ok(md.includes("- State: implemented, tested, checked by conformance"));
  assert.ok(md.includes(
    "- Implemented in: [src/admin/router.ts](../src/admin/router.ts) (reads every row of " +
      "`admin.endpoints`); [src/admin/server\\_info\\_handler.ts](../src/admin/server_info_handler.ts)" +
      " (names the ID)",
  ));
  assert.ok(md.includes(
    '- Tested by: [src/admin/router\\_test.ts](../src/admin/router_test.ts): "admin.x.ready: ' +
      'answers &lt;200&gt;"; "admin.x.\\*: every row"',
  ));
  assert.ok(md.includes(
    "- Conformance: [conformance/cases/admin\\_endpoints.ts](../conformance/cases/admin_endpoints.ts)" +
      ": `endpoint:admin.x.ready`",
  ));
  assert.match(md, /\| `admin\.endpoints` \| 1 \| 1 \| 1 \| 1 \| 0 \|/);
  assert.ok(md.indexOf("## Summary") < md.indexOf("## Contents"));
});

Deno.test("spec_doc: a rule nothing implements, tests or checks says so", () => {
  const md = toSpecMarkdown([ROW], undefined, fakeReport([ROW], [{}]));
  assert.ok(md.includes(
    "- State: **not implemented**, **not tested**, **not checked by conformance**",
  ));
  assert.ok(!md.includes("- Implemented in:"));
  assert.ok(!md.includes("- Tested by:"));
});

Deno.test("spec_doc: a refused row says so above its statement, and is counted", () => {
  const refused = { ...ROW, support: "refused" as const, supportNote: "no health checker yet" };
  const partly = {
    ...ROW,
    id: "admin.x.other",
    support: "default-only" as const,
    supportNote: "0 only",
  };
  const md = toSpecMarkdown(
    [refused, partly],
    undefined,
    fakeReport([refused, partly], [{}, {}]),
  );
  const at = md.indexOf('<a id="admin.x.ready"></a>');
  const banner = md.indexOf(
    "**Refused (not supported by this build: no health checker yet)**",
    at,
  );
  assert.ok(
    banner > at && banner < md.indexOf("Answers.", at),
    "the banner precedes the statement",
  );
  assert.ok(md.includes("- Support: default-only (0 only)"));
  assert.ok(!md.includes("supportNote"), "support is not repeated among the columns");
  assert.match(md, /\| `admin\.endpoints` \| 2 \| 0 \| 0 \| 0 \| 1 \|/);
});

Deno.test("spec_doc: the document built from the repository links rules to code, tests and cases", async () => {
  const report = await coverage();
  const md = toSpecMarkdown(allRules(), SPEC, report);
  assert.equal(md, toSpecMarkdown(allRules(), SPEC, report), "deterministic");
  const ready = md.slice(md.indexOf('<a id="admin.endpoints.ready"></a>'));
  const section = ready.slice(0, ready.indexOf("<a id=", 10));
  assert.match(
    section,
    /Implemented in: .*\[src\/admin\/router\.ts\]\(\.\.\/src\/admin\/router\.ts\)/,
  );
  assert.match(section, /Tested by: .*\(\.\.\/src\/admin\/server_info_handler_test\.ts\)/);
  assert.match(section, /Conformance: .*`endpoint:admin\.endpoints\.ready`/);
  for (const r of allRules()) {
    const at = md.indexOf(`<a id="${r.id}"></a>`);
    const next = md.indexOf("<a id=", at + 10);
    assert.ok(md.slice(at, next < 0 ? undefined : next).includes("- State: "), r.id);
  }
});
