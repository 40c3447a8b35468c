import assert from "node:assert/strict";
import { beyondLatin1, latin1Problems, proxySources } from "./latin1_sources.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

Deno.test("beyondLatin1: the lines with a character above U+00FF, each once", () => {
  assert.deepEqual(beyondLatin1(""), []);
  assert.deepEqual(beyondLatin1("plain\ncaf\u00e9 \u00b2 \u00d7\n"), []);
  assert.deepEqual(beyondLatin1("a \u2192 b \u2264 c\nok\n\u201cq\u201d"), [1, 3]);
  // An escape is plain text: the value it writes is not in the source.
  assert.deepEqual(beyondLatin1('"\\u2248v1.25"'), []);
});

Deno.test("proxySources: mod.ts and the non-test modules of src/ and spec/", async () => {
  const files = await proxySources(ROOT);
  assert.ok(files.includes("mod.ts"));
  assert.ok(files.includes("src/cli/main.ts"));
  assert.ok(files.includes("spec/admin/endpoints.ts"));
  assert.ok(!files.some((f) => f.endsWith("_test.ts")));
  assert.ok(!files.some((f) => f.startsWith("tools/") || f.startsWith("conformance/")));
});

Deno.test("the proxy's modules are written in Latin-1 (V8 keeps them at one byte a character)", async () => {
  assert.deepEqual(await latin1Problems(ROOT), []);
});
