/**
 * The proxy's modules (`mod.ts`, `src/` and `spec/`, test files aside) are written in Latin-1:
 * no character above U+00FF, in comments as in code (a string that needs one writes it as a
 * `\u` escape, which keeps its value). V8 holds a module's whole text, its inline source map
 * included, at two bytes per character as soon as one character lies beyond Latin-1, so one arrow
 * in a comment doubles what that module keeps resident for the life of the process. Rewriting the
 * 46 such modules the idle proxy loaded took about 0.5 MiB off its idle RSS.
 *
 * Usage: `deno run -A tools/latin1_sources.ts [--root DIR]`; exits 1 and lists every line that
 * holds such a character.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { beyondLatin1 } from "./latin1_sources.ts";
 * assert.deepEqual(beyondLatin1("a\n// x \u2192 y\n\"\\u2192\"\n"), [2]);
 * assert.deepEqual(beyondLatin1("caf\u00e9 \u00d7 2\n"), []);
 * ```
 * @module
 */

/** The 1-based numbers of the lines of `text` that hold a character above U+00FF. */
export function beyondLatin1(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let marked = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      marked = false;
    } else if (c > 0xff && !marked) {
      lines.push(line);
      marked = true;
    }
  }
  return lines;
}

/** The files checked under `root`: `mod.ts` and every non-test `.ts` file of `src/` and `spec/`. */
export async function proxySources(root: string): Promise<string[]> {
  const out = ["mod.ts"];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(`${root}/${dir}`)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) out.push(path);
    }
  };
  await walk("src");
  await walk("spec");
  return out.sort();
}

/** Every `path:line` under `root` that holds a character beyond Latin-1. */
export async function latin1Problems(root: string): Promise<string[]> {
  const problems: string[] = [];
  for (const path of await proxySources(root)) {
    const text = await Deno.readTextFile(`${root}/${path}`);
    for (const line of beyondLatin1(text)) problems.push(`${path}:${line}`);
  }
  return problems;
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--root");
  const root = i >= 0 ? Deno.args[i + 1] : new URL("..", import.meta.url).pathname;
  const problems = await latin1Problems(root.replace(/\/$/, ""));
  for (const p of problems) console.error(`${p}: a character beyond Latin-1`);
  Deno.exit(problems.length === 0 ? 0 : 1);
}
