/**
 * The specification's own text, read as sections: the rule tables' quotes are checked against it
 * (`spec/spec_test.ts`) and the generated document follows its order (`tools/spec_doc.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSections } from "./source_text.ts";
 * assert.deepEqual(parseSections("# A\nx\n## B\ny\n").map((s) => s.heading), ["A", "B"]);
 * ```
 * @module
 */

/** Where the specification lives, relative to this file: `../shared/seed/` beside the repo. */
export const SPEC_TEXT_URL = new URL("../../shared/seed/000_e4dc442def0e3275.txt", import.meta.url);

/** One heading of the specification and the text under it. */
export interface SpecSection {
  /** The heading text without the `#` marks. */
  heading: string;
  /** Number of `#` marks. */
  level: number;
  /** The text from the line after the heading up to the next heading of the same or a higher
   * level (subsections included). */
  body: string;
  /** The text up to the very next heading (subsections excluded). */
  own: string;
}

/**
 * Reads the specification text, or returns `undefined` when the file is absent.
 *
 * @param url where to read it from (default {@linkcode SPEC_TEXT_URL})
 * @example
 * ```ts
 * import { loadSpecText } from "./source_text.ts";
 * const text = loadSpecText();
 * if (text === undefined) console.warn("specification not found");
 * ```
 */
export function loadSpecText(url: URL = SPEC_TEXT_URL): string | undefined {
  try {
    return Deno.readTextFileSync(url);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

/**
 * Splits the specification into its sections, in order.
 *
 * @param text the specification's Markdown text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSections } from "./source_text.ts";
 * assert.deepEqual(parseSections("# A\nx\n## B\ny\n").map((s) => s.heading), ["A", "B"]);
 * ```
 */
export function parseSections(text: string): SpecSection[] {
  const lines = text.split("\n");
  const heads: { heading: string; level: number; line: number }[] = [];
  lines.forEach((line, i) => {
    const m = /^(#{1,6})\s+(.+?)\s*$/.exec(line);
    if (m) heads.push({ heading: m[2], level: m[1].length, line: i });
  });
  return heads.map((h, k) => {
    const next = heads.slice(k + 1).find((o) => o.level <= h.level);
    const end = next ? next.line : lines.length;
    const ownEnd = k + 1 < heads.length ? heads[k + 1].line : lines.length;
    return {
      heading: h.heading,
      level: h.level,
      body: lines.slice(h.line + 1, end).join("\n"),
      own: lines.slice(h.line + 1, ownEnd).join("\n"),
    };
  });
}
