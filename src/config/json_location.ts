/**
 * Where a JSON syntax error is. V8 names the position of most errors (`at position 8 (line 1
 * column 9)`) but not of an unexpected token such as `NaN` or `Infinity`, which it reports only
 * as `Unexpected token 'N', "..." is not valid JSON`. {@linkcode parseJsonLocated} adds the
 * line and column in that case, found by scanning for the first occurrence of the token outside
 * string literals (everything before it parsed, so that is where parsing stopped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonLocated } from "./json_location.ts";
 * assert.throws(() => parseJsonLocated('{\n  "a": NaN\n}'), /line 2 column 8/);
 * ```
 * @module
 */

function tokenOffset(text: string, token: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === token) return i;
  }
  return -1;
}

function lineColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return `at position ${offset} (line ${line} column ${offset - start + 1})`;
}

/** Deepest nesting of objects and lists a JSON bootstrap may have (as YAML and proto files). */
export const MAX_JSON_NESTING = 100;

/** The path of the first value nested deeper than `max`, or null (an iterative walk). */
function tooDeep(root: unknown, max: number): string | null {
  const stack: [unknown, string, number][] = [[root, "", 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= max) return path || "(root)";
    if (Array.isArray(v)) v.forEach((c, i) => stack.push([c, `${path}[${i}]`, depth + 1]));
    else {
      for (const [k, c] of Object.entries(v)) {
        // A key that is not a plain name is quoted, so the path stays one readable token.
        const step = /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)
          ? (path ? `.${k}` : k)
          : `[${JSON.stringify(k)}]`;
        stack.push([c, `${path}${step}`, depth + 1]);
      }
    }
  }
  return null;
}

/**
 * `JSON.parse(text)`, whose `SyntaxError` always names a position; a value nested deeper than
 * {@linkcode MAX_JSON_NESTING} levels is a `SyntaxError` naming its path.
 */
export function parseJsonLocated(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError) || /at position \d+/.test(e.message)) throw e;
    const m = /^Unexpected token '(.)'/.exec(e.message);
    const at = m ? tokenOffset(text, m[1]) : -1;
    const where = at >= 0 ? lineColumn(text, at) : `at position ${text.length} (end of input)`;
    const first = e.message.split(",")[0];
    throw new SyntaxError(`${first} in JSON ${where}`);
  }
  const deep = tooDeep(value, MAX_JSON_NESTING);
  if (deep !== null) {
    throw new SyntaxError(
      `${deep}: objects and lists nested deeper than ${MAX_JSON_NESTING} levels`,
    );
  }
  return value;
}
