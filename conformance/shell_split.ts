/**
 * Splits a command string the way a POSIX shell splits words: whitespace separates words,
 * single quotes keep everything literally, double quotes keep spaces and honour `\"`, `\\`, and a
 * backslash outside quotes escapes the next character. No expansion of any kind is done.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellSplit } from "./shell_split.ts";
 * assert.deepEqual(
 *   shellSplit(`deno run -A "my dir/mod.ts"`),
 *   ["deno", "run", "-A", "my dir/mod.ts"],
 * );
 * ```
 * @module
 */

/**
 * Splits `input` into words.
 *
 * @param input the command line
 * @returns the words
 * @throws {Error} on an unterminated quote or a trailing backslash
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellSplit } from "./shell_split.ts";
 * assert.deepEqual(shellSplit("envoy --concurrency 1"), ["envoy", "--concurrency", "1"]);
 * ```
 */
export function shellSplit(input: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (ch === "'") {
      const end = input.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote at column ${i + 1} of the command`);
      word += input.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      inWord = true;
      while (true) {
        if (i >= input.length) throw new Error("unterminated double quote in the command");
        const c = input[i];
        if (c === '"') break;
        if (c === "\\" && i + 1 < input.length && '"\\$`'.includes(input[i + 1])) {
          word += input[i + 1];
          i += 2;
        } else {
          word += c;
          i++;
        }
      }
      i++;
    } else if (ch === "\\") {
      if (i + 1 >= input.length) throw new Error("trailing backslash in the command");
      word += input[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else {
      word += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * Quotes words for a POSIX shell, so a reproduction line can be pasted.
 *
 * @param words the argv
 * @returns one line
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellJoin } from "./shell_split.ts";
 * assert.equal(shellJoin(["echo", "a b"]), "echo 'a b'");
 * ```
 */
export function shellJoin(words: readonly string[]): string {
  return words.map((w) =>
    /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`
  )
    .join(" ");
}
