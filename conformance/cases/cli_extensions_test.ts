/**
 * The cases of `cli_extensions.ts` can fail: a binary that accepts everything silently fails
 * both, one that rejects `--disable-extensions` without naming the extension fails both; this
 * implementation passes them.
 */
import assert from "node:assert/strict";
import { allRules } from "../../spec/mod.ts";
import { fakeBinarySource, statuses } from "../testing.ts";
import { cliExtensionCases } from "./cli_extensions.ts";

const root = new URL("../../", import.meta.url).pathname;
const RULES = ["cli.constraints.disabled-extension", "cli.constraints.disable-extensions-unknown"];

/** A fake binary: prints a version; exits `withOption` when `--disable-extensions` is given. */
function fakeSource(withOption: number): string {
  return fakeBinarySource([
    `const code = a.includes("--disable-extensions") ? ${withOption} : 0;`,
    `console.error(code ? "error: something is wrong" : "OK");`,
    `Deno.exit(code);`,
  ]);
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
        const s = await statuses([
          "--command",
          `${Deno.execPath()} run -A ${dir}/fake.ts`,
          ...RULES,
        ], dir);
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
      const s = await statuses(
        ["--command", `${Deno.execPath()} run -A ${root}mod.ts`, ...RULES],
        dir,
      );
      for (const id of RULES) assert.equal(s.get(id), "PASS", id);
      assert.equal(s.get("exit"), "0");
    });
  },
);
