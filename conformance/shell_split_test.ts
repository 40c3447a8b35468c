import assert from "node:assert/strict";
import fc from "fast-check";
import { shellJoin, shellSplit } from "./shell_split.ts";

Deno.test("runner --command: words split like a shell", () => {
  assert.deepEqual(shellSplit("deno run -A mod.ts"), ["deno", "run", "-A", "mod.ts"]);
  assert.deepEqual(shellSplit(`a "b c" 'd e' f\\ g ""`), ["a", "b c", "d e", "f g", ""]);
  assert.deepEqual(shellSplit(`x "a\\"b"`), ["x", 'a"b']);
  assert.deepEqual(shellSplit("  a   b  "), ["a", "b"]);
});

Deno.test("runner --command: unterminated quotes are errors that say so", () => {
  assert.throws(() => shellSplit(`a "b`), /unterminated double quote/);
  assert.throws(() => shellSplit(`a 'b`), /unterminated single quote/);
  assert.throws(() => shellSplit(`a \\`), /trailing backslash/);
});

Deno.test("runner --command: shellJoin round-trips through shellSplit", () => {
  fc.assert(fc.property(fc.array(fc.string(), { minLength: 1 }), (words) => {
    assert.deepEqual(shellSplit(shellJoin(words)), words);
  }));
});
