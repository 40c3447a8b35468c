/**
 * `deno task spec:doc`: renders every rule of every table to `docs/SPEC.md`, grouped by the
 * section of the specification it cites (in the specification's order), with one anchor per rule
 * ID so that `docs/SPEC.md#admin.mutation.get-returns-400` links to the rule.
 *
 * Also home to the reader of the specification text ({@linkcode loadSpecText},
 * {@linkcode parseSections}), which the spec tests and the other tools share.
 *
 * Usage: `deno run -A tools/spec_doc.ts [--check]`
 *
 * @example
 * ```ts
 * import { toSpecMarkdown } from "./spec_doc.ts";
 * const md = toSpecMarkdown();
 * console.log(md.includes('<a id="admin.mutation.get-returns-400"></a>')); // true
 * ```
 * @module
 */
import { allRules, type TaggedRule } from "../spec/mod.ts";
import { FIRST_KEYS } from "./spec_json.ts";
import { writeOrCheck } from "./generated_file.ts";

/** Where the specification lives, relative to this file: `../shared/seed/` beside the repo. */
export const SPEC_TEXT_URL = new URL("../../shared/seed/000_e4dc442def0e3275.txt", import.meta.url);

/** Where the document is written. */
export const SPEC_DOC_URL = new URL("../docs/SPEC.md", import.meta.url);

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
 * parseSections("# A\nx\n## B\ny\n").map((s) => s.heading); // ["A", "B"]
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

/**
 * Escapes Markdown outside code spans so statements render as written.
 *
 * @example
 * ```ts
 * mdText("`<x>` <y>"); // "`<x>` &lt;y&gt;"
 * ```
 */
export function mdText(s: string): string {
  return s.split(/(`[^`\n]*`)/).map((part, i) =>
    i % 2 === 1 ? part : part
      .replaceAll("&", "&amp;")
      .replaceAll("<", "&lt;")
      .replaceAll(">", "&gt;")
      .replace(/([\\*_[\]#|])/g, "\\$1")
  ).join("");
}

/** GitHub's heading slug, for the table of contents. */
function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").trim().replace(/\s/g, "-");
}

const BASE_KEYS: ReadonlySet<string> = new Set(FIRST_KEYS);

/** A table's own column value, short enough for one line. */
function columnValue(v: unknown): string {
  const code = (x: string) => "`" + x.replaceAll("`", "'") + "`";
  if (Array.isArray(v)) {
    if (v.length === 0) return "none";
    return v.map((x) =>
      typeof x === "object" && x !== null && "name" in x
        ? code(String((x as { name: unknown }).name))
        : code(typeof x === "string" ? x : JSON.stringify(x))
    ).join(", ");
  }
  if (typeof v === "string") return v === "" ? "(empty)" : code(v);
  const json = JSON.stringify(v);
  return code(json.length > 120 ? json.slice(0, 117) + "..." : json);
}

function renderRule(r: TaggedRule): string {
  const out = [`<a id="${r.id}"></a>`, "", `### \`${r.id}\``, "", mdText(r.statement), ""];
  out.push(`- Level: **${r.level}**`);
  out.push(`- Table: \`${r.table}\``);
  out.push(`- Check: \`${r.check}\``);
  if (r.envoy) out.push(`- Envoy: ${mdText(r.envoy)}`);
  if (r.unimplemented) out.push(`- Not yet implemented: ${mdText(r.unimplemented)}`);
  const columns = Object.entries(r).filter(([k, v]) => !BASE_KEYS.has(k) && v !== undefined);
  if (columns.length) {
    out.push(`- Columns: ${columns.map(([k, v]) => `${k} ${columnValue(v)}`).join("; ")}`);
  }
  out.push("", `> ${mdText(r.cite.quote)}`, "");
  return out.join("\n");
}

/**
 * Renders rules to Markdown, grouped by the section they cite. Sections follow the order of the
 * specification when its text is given, else the order in which the rules first cite them.
 *
 * @param rules the rules (default: every table)
 * @param specText the specification (default: read from {@linkcode SPEC_TEXT_URL} when present)
 * @example
 * ```ts
 * const md = toSpecMarkdown();
 * await Deno.writeTextFile("SPEC.md", md);
 * ```
 */
export function toSpecMarkdown(
  rules: readonly TaggedRule[] = allRules(),
  specText: string | undefined = loadSpecText(),
): string {
  const order: string[] = specText ? parseSections(specText).map((s) => s.heading) : [];
  for (const r of rules) if (!order.includes(r.cite.section)) order.push(r.cite.section);
  const bySection = new Map<string, TaggedRule[]>(order.map((h) => [h, []]));
  for (const r of rules) bySection.get(r.cite.section)!.push(r);
  const used = order.filter((h) => bySection.get(h)!.length > 0);

  const out: string[] = [
    "# proxyspec rules",
    "",
    "Generated by `deno task spec:doc` from the tables in `spec/`; do not edit by hand.",
    "Every rule has a stable ID and an anchor (`SPEC.md#<rule-id>`); the quote under each rule",
    "is the sentence of the specification it encodes.",
    "",
    `${rules.length} rules in ${used.length} sections.`,
    "",
    "## Contents",
    "",
    ...used.map((h) => `- [${mdText(h)}](#${slug(h)}) (${bySection.get(h)!.length})`),
    "",
  ];
  for (const h of used) {
    out.push(`## ${mdText(h)}`, "");
    for (const r of bySection.get(h)!) out.push(renderRule(r));
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

if (import.meta.main) {
  Deno.exit(writeOrCheck(SPEC_DOC_URL, toSpecMarkdown(), {
    name: "docs/SPEC.md",
    task: "spec:doc",
    summary: `${allRules().length} rules`,
  }));
}
