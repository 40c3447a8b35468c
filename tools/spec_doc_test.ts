import assert from "node:assert/strict";
import fc from "fast-check";
import { allRules, type TaggedRule } from "../spec/mod.ts";
import { loadSpecText, parseSections } from "../spec/source_text.ts";
import { mdText, toSpecMarkdown } from "./spec_doc.ts";

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
