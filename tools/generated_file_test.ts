import assert from "node:assert/strict";
import { writeOrCheck } from "./generated_file.ts";

Deno.test("generated files: written without --check; with it, stale or missing is exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "generated-file-" });
  try {
    const url = new URL(`file://${dir}/sub/out.md`);
    const file = { name: "sub/out.md", task: "spec:doc", summary: "1 rule" };
    assert.equal(writeOrCheck(url, "a\n", file, ["--check"]), 1);
    assert.equal(writeOrCheck(url, "a\n", file, []), 0);
    assert.equal(Deno.readTextFileSync(url), "a\n");
    assert.equal(writeOrCheck(url, "a\n", file, ["--check"]), 0);
    assert.equal(writeOrCheck(url, "b\n", file, ["--check"]), 1);
    assert.equal(Deno.readTextFileSync(url), "a\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
