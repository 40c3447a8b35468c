import assert from "node:assert/strict";
import type { TaggedRule } from "../spec/mod.ts";
import {
  caseIdPrefixes,
  coverage,
  declaredRules,
  formatCoverage,
  globToRegExp,
  idTokens,
  importsOf,
  prefixedIds,
  readsRows,
  ruleListEntries,
  stripComments,
  supportOf,
} from "./spec_coverage.ts";

const RULES: TaggedRule[] = [
  ["admin.endpoints.ready", "admin.endpoints", "black-box"],
  ["admin.endpoints.stats", "admin.endpoints", "black-box"],
  ["admin.endpoints.tap", "admin.endpoints", "internal"],
  ["cli.options.mode", "cli.options", "command"],
  ["limits.socket-mode", "limits", "internal"],
].map(([id, table, check]) => ({
  id,
  table: table as TaggedRule["table"],
  level: "MUST",
  statement: "A rule.",
  cite: { section: "S", quote: "q" },
  check: check as TaggedRule["check"],
}));

const CONSTANTS = { ENDPOINTS: ["admin.endpoints"], OPTIONS: ["cli.options"] } as const;

async function fakeRepo(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return dir;
}

async function withRepo(
  files: Record<string, string>,
  fn: (root: URL) => Promise<void>,
): Promise<void> {
  const dir = await fakeRepo(files);
  try {
    await fn(new URL(`file://${dir}/`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("spec_coverage: a test is credited only by the rule list that begins its name", async () => {
  await withRepo({
    "src/a_test.ts": `
      Deno.test("limits.socket-mode, cli.options.mode: default 600", () => {});
      Deno.test("router: admin.endpoints.ready is served", () => {
        const id = "admin.endpoints.stats"; // admin.endpoints.tap
      });`,
    "src/rows_test.ts": `
      for (const id of ["admin.endpoints.tap"]) Deno.test(\`\${id}: built from a row\`, () => {});
      Deno.test({ name: "admin.endpoints.*: every endpoint row", fn() {} });`,
    "node_modules/x_test.ts": `Deno.test("cli.options.mode: not scanned", () => {});`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    assert.deepEqual(r.files.tests, 2);
    const tested = r.rules.filter((x) => x.links.tests.length).map((x) => x.rule.id);
    assert.deepEqual(tested.sort(), [
      "admin.endpoints.ready",
      "admin.endpoints.stats",
      "admin.endpoints.tap",
      "cli.options.mode",
      "limits.socket-mode",
    ]);
    const tap = r.rules.find((x) => x.rule.id === "admin.endpoints.tap")!.links.tests;
    assert.deepEqual(tap, [
      { file: "src/rows_test.ts", name: "admin.endpoints.*: every endpoint row" },
      { file: "src/rows_test.ts", name: "admin.endpoints.tap: built from a row" },
    ]);
    const ready = r.rules.find((x) => x.rule.id === "admin.endpoints.ready")!.links.tests;
    assert.deepEqual(ready.map((t) => t.name), ["admin.endpoints.*: every endpoint row"]);
    assert.deepEqual(r.warnings, []);
  });
});

Deno.test("spec_coverage: a mention in a test body or comment earns no credit", async () => {
  await withRepo({
    "src/a_test.ts": `// "limits.socket-mode"
      Deno.test("socket: the mode is applied", () => { check("limits.socket-mode"); });`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    assert.equal(r.tables.find((t) => t.table === "limits")!.tested, 0);
    assert.deepEqual(r.untested.map((x) => x.id).includes("limits.socket-mode"), true);
  });
});

Deno.test("spec_coverage: a test name declaring an unknown rule ID is noted", async () => {
  await withRepo({
    "src/a_test.ts": `Deno.test("admin.endpoints.gone, cli.options: renamed", () => {});`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    assert.deepEqual(r.unknownInTests, [{ file: "src/a_test.ts", name: "admin.endpoints.gone" }]);
    assert.match(formatCoverage(r), /declares admin\.endpoints\.gone, which is no rule/);
  });
});

Deno.test("spec_coverage: conformance credit comes from case rule lists and builders", async () => {
  await withRepo({
    "conformance/cases/admin.ts": `export const C = [{ id: "x", rules: ["admin.endpoints.*"] }];`,
    "conformance/cases/helper.ts": `export function one(id: string) {
      return { id: \`cli:one:\${id}\`, rules: [id] };
    }`,
    "conformance/cases/cli.ts": `import { one } from "./helper.ts";
      export function cliCases(input: { rules: { id: string }[] }) {
        return input.rules.filter((r) => r.id.startsWith("cli.")).map((r) => one(r.id));
      }`,
    "conformance/cases/mod.ts": `import { cliCases } from "./cli.ts";
      export function buildCases(input: { rules: { id: string }[] }) { return cliCases(input); }`,
    "conformance/cases/cli_test.ts":
      `Deno.test("x", () => { const c = { rules: ["limits.socket-mode"] }; });`,
    "conformance/cases/notes.ts":
      `// "limits.socket-mode" is not checked here; "admin.endpoints.tap"`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    assert.equal(r.files.cases, 5);
    const byTable = Object.fromEntries(r.tables.map((t) => [t.table, t]));
    assert.equal(byTable["admin.endpoints"].conformance, 3);
    assert.equal(byTable["admin.endpoints"].checkableCovered, 2);
    assert.equal(byTable["limits"].conformance, 0, "a test file or a comment is not a case");
    const mode = r.rules.find((x) => x.rule.id === "cli.options.mode")!.links.cases;
    assert.deepEqual(mode, [{
      file: "conformance/cases/helper.ts",
      id: "cli:one:cli.options.mode",
    }]);
    assert.deepEqual(r.uncheckedCheckable, []);
    assert.deepEqual(r.unknown, []);
  });
});

Deno.test("spec_coverage: a conformance case naming an unknown rule ID is reported", async () => {
  await withRepo({
    "conformance/cases/bad.ts":
      `export const C = [{ rules: ["admin.endpoints.nope", "cli.*", "admin.zzz.*"] }];`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    assert.deepEqual(r.unknown.map((u) => u.name), ["admin.endpoints.nope", "admin.zzz.*"]);
    assert.equal(r.unknown[0].file, "conformance/cases/bad.ts");
    assert.match(formatCoverage(r), /unknown rule ID in conformance\/cases\/bad\.ts/);
  });
});

Deno.test("spec_coverage: reads rule lists from conformance/cases/mod.ts builders", async () => {
  await withRepo({
    "conformance/cases/mod.ts": `export function buildCases(input: { rules: { id: string }[] }) {
      return [{ id: "a", rules: input.rules.filter((r) => r.id.startsWith("cli.")).map((r) => r.id) },
              { id: "b", rules: ["cli.options.gone"] }];
    }`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    const cli = r.tables.find((t) => t.table === "cli.options")!;
    assert.equal(cli.conformance, 1);
    assert.deepEqual(r.unknown.map((u) => u.name), ["cli.options.gone"]);
  });
});

Deno.test("spec_coverage: implemented by production files naming the ID or reading the table", async () => {
  await withRepo({
    "mod.ts": `export * from "./src/a.ts";\nimport "./src/router.ts";\nimport "./src/lookup.ts";`,
    "spec/endpoints.ts": `export const ENDPOINTS = [];`,
    "src/a.ts": `export const x = "limits.socket-mode"; // "cli.options.mode"`,
    "src/router.ts": `import {\n  ENDPOINTS,\n  type Other,\n} from "../spec/endpoints.ts";
      for (const row of ENDPOINTS) serve(row);`,
    "src/lookup.ts": `import { ENDPOINTS as E } from "../spec/endpoints.ts";
      export const r = (E as readonly { id: string }[]).find((x) => x.id === "admin.endpoints.stats");`,
    "src/unused.ts": `export const y = "admin.endpoints.tap";`,
    "src/a_test.ts": `const z = "cli.options.mode";`,
  }, async (root) => {
    const r = await coverage({ root, rules: RULES, tableConstants: CONSTANTS });
    const impl = Object.fromEntries(r.rules.map((x) => [x.rule.id, x.links.implemented]));
    assert.deepEqual(impl["limits.socket-mode"], [{ file: "src/a.ts", how: "id" }]);
    assert.deepEqual(impl["cli.options.mode"], []);
    assert.deepEqual(impl["admin.endpoints.tap"], [{ file: "src/router.ts", how: "table" }]);
    assert.deepEqual(impl["admin.endpoints.stats"], [
      { file: "src/lookup.ts", how: "id" },
      { file: "src/router.ts", how: "table" },
    ]);
    assert.equal(r.files.sources, 3, "src/unused.ts is not loaded by mod.ts");
  });
});

Deno.test("spec_coverage: refused rows are counted and listed", async () => {
  const rules = RULES.map((r) =>
    r.id === "cli.options.mode"
      ? { ...r, support: "refused" as const, supportNote: "one mode only" }
      : r
  );
  await withRepo({ "README.md": "" }, async (root) => {
    const r = await coverage({ root, rules, tableConstants: CONSTANTS });
    assert.equal(r.tables.find((t) => t.table === "cli.options")!.refused, 1);
    assert.match(formatCoverage(r, true), /cli\.options\.mode .*refused: one mode only/);
    assert.match(formatCoverage(r, true), /limits\.socket-mode\s+\[internal\]\s+----\s+----/);
  });
  assert.deepEqual(supportOf({ support: "default-only", supportNote: 3 }), {
    support: "default-only",
  });
  assert.deepEqual(supportOf({}), {});
});

Deno.test("spec_coverage: --check exits 1 on an unknown ID, --strict on an unchecked rule", async () => {
  const tool = new URL("./spec_coverage.ts", import.meta.url).pathname;
  const run = async (root: string, ...flags: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", tool, "--check", ...flags, "--root", root],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, err: new TextDecoder().decode(out.stderr) };
  };
  const bad = await fakeRepo({
    "conformance/cases/a.ts": `export const C = [{ id: "c", rules: ["admin.endpoints.nope"] }];`,
  });
  const good = await fakeRepo({
    "conformance/cases/a.ts": `export const C = [{ id: "c", rules: ["admin.endpoints.ready"] }];`,
  });
  const broken = await fakeRepo({
    "conformance/cases/a.ts": `export const C = [{ id: "c", rules: ["admin.endpoints.ready"] }];`,
    "conformance/cases/b.ts": `throw new Error("cannot load");`,
  });
  try {
    const b = await run(bad);
    assert.equal(b.code, 1);
    assert.match(b.err, /unknown rule ID/);
    assert.equal((await run(good)).code, 0);
    const strict = await run(good, "--strict");
    assert.equal(strict.code, 1);
    assert.match(strict.err, /have no conformance case/);
    const unreadable = await run(broken);
    assert.equal(unreadable.code, 1);
    assert.match(unreadable.err, /could not be read/);
  } finally {
    for (const dir of [bad, good, broken]) await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spec_coverage: the repository's own black-box and command rules all have cases", async () => {
  const r = await coverage();
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.unknown, []);
  assert.deepEqual(r.uncheckedCheckable.map((x) => x.id), []);
  const ready = r.rules.find((x) => x.rule.id === "admin.endpoints.ready")!.links;
  assert.ok(ready.implemented.some((i) => i.file === "src/admin/router.ts" && i.how === "table"));
  assert.ok(ready.cases.some((c) => c.file === "conformance/cases/admin_endpoints.ts"));
  const flag = r.rules.find((x) => x.rule.id === "cli.log-format.message")!.links;
  assert.ok(flag.tests.some((t) => t.file === "src/server/log_format_test.ts"));
});

Deno.test("spec_coverage: tokens, rule lists, test names and globs", () => {
  assert.deepEqual(idTokens(`t("admin.endpoints.ready: x", 'cli.options.mode') // "a.b"`), [
    "admin.endpoints.ready",
    "cli.options.mode",
  ]);
  assert.deepEqual(ruleListEntries(`{ rules: ["a.b", 'c.*'], other: ["d.e"] }`), ["a.b", "c.*"]);
  assert.deepEqual(ruleListEntries(`// rules: ["a.b"]`), []);
  assert.deepEqual(declaredRules("a.b, c.*: does x: y"), ["a.b", "c.*"]);
  assert.deepEqual(declaredRules("cds (no table row yet): a.b"), []);
  assert.deepEqual(declaredRules("a.b checks c"), []);
  assert.ok(globToRegExp("admin.*").test("admin.endpoints.ready"));
  assert.ok(!globToRegExp("admin.?").test("admin.endpoints"));
  assert.ok(!globToRegExp("cli.options").test("cli.optionsX"));
});

Deno.test("spec_coverage: comments, imports and row reads", () => {
  assert.equal(stripComments(`a("http://x") /* "b.c"\n */ // d\ne`), `a("http://x") \n \ne`);
  const imps = importsOf(`import { A as B, type C, D } from "./x.ts";
    import type { E } from "./y.ts";
    import * as ns from "../spec/mod.ts";
    export { F } from "./z.ts";`);
  assert.deepEqual(imps.map((i) => [i.from, [...i.names], i.namespace, i.typeOnly]), [
    ["./x.ts", [["A", "B"], ["D", "D"]], undefined, false],
    ["./y.ts", [["E", "E"]], undefined, true],
    ["../spec/mod.ts", [], "ns", false],
    ["./z.ts", [["F", "F"]], undefined, false],
  ]);
  assert.equal(readsRows(`T.map((r) => r.id)`, "T"), true);
  assert.equal(readsRows(`type X = (typeof T)[number]["id"];`, "T"), true);
  assert.equal(readsRows(`const r = T.find((x) => x.id === "a"); type I = typeof T;`, "T"), false);
  assert.equal(
    readsRows(`f(() => { const rows = T as readonly R[]; rows.find(p); });`, "T"),
    false,
  );
  assert.equal(readsRows(`f(() => { const rows = T; for (const r of rows) g(r); });`, "T"), true);
  assert.deepEqual(
    prefixedIds(
      'const f = (id) => `cli.constraints.${id}`;\nf("mode"); f("nope");',
      new Set(["cli.constraints.mode"]),
    ),
    ["cli.constraints.mode"],
  );
  assert.deepEqual(caseIdPrefixes('out.push({ id: `cli:constraint:${k}` }, { id: "a:b" })'), [
    { text: "cli:constraint:", template: true },
    { text: "a:b", template: false },
  ]);
});
