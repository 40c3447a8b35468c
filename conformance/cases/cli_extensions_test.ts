/**
 * The cases of `cli_extensions.ts` can fail: a binary that accepts everything silently fails
 * both, one that rejects `--disable-extensions` without naming the extension fails both; this
 * implementation passes them.
 */
import assert from "node:assert/strict";
import { runConformance } from "../cli.ts";
import type { RunnerIo } from "../cli.ts";
import { allRules } from "../../spec/mod.ts";
import { cliExtensionCases } from "./cli_extensions.ts";

const quiet: RunnerIo = { out: () => {}, err: () => {}, progress: false };
const root = new URL("../../", import.meta.url).pathname;
const RULES = ["cli.constraints.disabled-extension", "cli.constraints.disable-extensions-unknown"];

/** A fake binary: prints a version; exits `withOption` when `--disable-extensions` is given. */
function fakeSource(withOption: number): string {
  return [
    `const a = Deno.args;`,
    `if (a.includes("--version")) {`,
    `  console.log("\\nfake  version: ${"0".repeat(40)}/1.0.0/Clean/RELEASE/none\\n");`,
    `  Deno.exit(0);`,
    `}`,
    `const code = a.includes("--disable-extensions") ? ${withOption} : 0;`,
    `console.error(code ? "error: something is wrong" : "OK");`,
    `Deno.exit(code);`,
  ].join("\n");
}

async function statuses(command: string, dir: string): Promise<Map<string, string>> {
  const code = await runConformance(
    ["--command", command, "--report", "json", "--report-dir", dir, ...RULES],
    quiet,
  );
  const j = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  const out = new Map<string, string>(
    j.results.map((r: { rule: string; status: string }) => [r.rule, r.status]),
  );
  out.set("exit", String(code));
  return out;
}

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "cli-extensions-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("cli.constraints.disabled-extension, cli.constraints.disable-extensions-unknown: one case each", () => {
  const cases = cliExtensionCases({ rules: allRules(), variant: "new" });
  for (const id of RULES) assert.ok(cases.some((c) => c.rules.includes(id)), id);
});

for (const withOption of [0, 1]) {
  Deno.test(
    `cli.constraints.disabled-extension, cli.constraints.disable-extensions-unknown: a binary exiting ${withOption} on --disable-extensions without the messages fails both`,
    async () => {
      await withDir(async (dir) => {
        await Deno.writeTextFile(`${dir}/fake.ts`, fakeSource(withOption));
        const s = await statuses(`${Deno.execPath()} run -A ${dir}/fake.ts`, dir);
        assert.equal(s.get("exit"), "1");
        for (const id of RULES) assert.equal(s.get(id), "FAIL", id);
      });
    },
  );
}

Deno.test(
  "cli.constraints.disabled-extension, cli.constraints.disable-extensions-unknown: this implementation passes both",
  async () => {
    await withDir(async (dir) => {
      const s = await statuses(`${Deno.execPath()} run -A ${root}mod.ts`, dir);
      for (const id of RULES) assert.equal(s.get(id), "PASS", id);
      assert.equal(s.get("exit"), "0");
    });
  },
);
