import assert from "node:assert/strict";
import type { TaggedRule } from "../spec/mod.ts";
import {
  coverage,
  formatCoverage,
  globToRegExp,
  idTokens,
  ruleListEntries,
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

async function fakeRepo(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return dir;
}

Deno.test("spec_coverage: finds IDs in test names and in conformance rule lists and globs", async () => {
  const dir = await fakeRepo({
    "src/a_test.ts": `Deno.test("limits.socket-mode: default 600", () => {});`,
    "src/b.ts": `// "admin.endpoints.tap" in a non-test file does not count`,
    "conformance/cases/admin.ts": `export const C = [{ id: "x", rules: ["admin.endpoints.*"] }];`,
    "node_modules/x_test.ts": `"cli.options.mode"`,
  });
  try {
    const r = await coverage({ root: new URL(`file://${dir}/`), rules: RULES });
    assert.deepEqual(r.files, { tests: 1, cases: 1 });
    const byTable = Object.fromEntries(r.tables.map((t) => [t.table, t]));
    assert.equal(byTable["admin.endpoints"].named, 3);
    assert.equal(byTable["admin.endpoints"].conformance, 3);
    assert.equal(byTable["admin.endpoints"].checkableCovered, 2);
    assert.equal(byTable["limits"].named, 1);
    assert.equal(byTable["limits"].conformance, 0);
    assert.deepEqual(r.unnamed.map((x) => x.id), ["cli.options.mode"]);
    assert.deepEqual(r.uncheckedCheckable.map((x) => x.id), ["cli.options.mode"]);
    assert.deepEqual(r.unknown, []);
    const text = formatCoverage(r, true);
    assert.match(text, /admin\.endpoints\s+3\s+3\s+3\s+2\s+2/);
    assert.match(text, /cli\.options\.mode \[command\]/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spec_coverage: a conformance case naming an unknown rule ID is reported", async () => {
  const dir = await fakeRepo({
    "conformance/cases/bad.ts":
      `export const C = [{ rules: ["admin.endpoints.nope", "cli.*", "admin.zzz.*"] }];`,
  });
  try {
    const r = await coverage({ root: new URL(`file://${dir}/`), rules: RULES });
    assert.deepEqual(r.unknown.map((u) => u.name), ["admin.endpoints.nope", "admin.zzz.*"]);
    assert.equal(r.unknown[0].file, "conformance/cases/bad.ts");
    assert.match(formatCoverage(r), /unknown rule ID in conformance\/cases\/bad\.ts/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spec_coverage: reads rule lists from conformance/cases/mod.ts builders", async () => {
  const dir = await fakeRepo({
    "conformance/cases/mod.ts": `export function buildCases(input: { rules: { id: string }[] }) {
      return [{ rules: input.rules.filter((r) => r.id.startsWith("cli.")).map((r) => r.id) },
              { rules: ["cli.options.gone"] }];
    }`,
  });
  try {
    const r = await coverage({ root: new URL(`file://${dir}/`), rules: RULES });
    const cli = r.tables.find((t) => t.table === "cli.options")!;
    assert.equal(cli.conformance, 1);
    assert.deepEqual(r.unknown.map((u) => u.name), ["cli.options.gone"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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
    "conformance/cases/a.ts": `x({ rules: ["admin.endpoints.nope"] })`,
  });
  const good = await fakeRepo({
    "conformance/cases/a.ts": `x({ rules: ["admin.endpoints.ready"] })`,
  });
  try {
    const b = await run(bad);
    assert.equal(b.code, 1);
    assert.match(b.err, /unknown rule ID/);
    assert.equal((await run(good)).code, 0);
    const strict = await run(good, "--strict");
    assert.equal(strict.code, 1);
    assert.match(strict.err, /have no conformance case/);
  } finally {
    await Deno.remove(bad, { recursive: true });
    await Deno.remove(good, { recursive: true });
  }
});

Deno.test("spec_coverage: tokens, rule lists and globs", () => {
  assert.deepEqual(idTokens(`t("admin.endpoints.ready: x", 'cli.options.mode')`), [
    "admin.endpoints.ready",
    "cli.options.mode",
  ]);
  assert.deepEqual(ruleListEntries(`{ rules: ["a.b", 'c.*'], other: ["d.e"] }`), ["a.b", "c.*"]);
  assert.ok(globToRegExp("admin.*").test("admin.endpoints.ready"));
  assert.ok(!globToRegExp("admin.?").test("admin.endpoints"));
  assert.ok(!globToRegExp("cli.options").test("cli.optionsX"));
});
