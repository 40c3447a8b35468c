/**
 * `deno task spec:doc`: renders every rule of every table to `docs/SPEC.md`, grouped by the
 * section of the specification it cites (in the specification's order), with one anchor per rule
 * ID so that `docs/SPEC.md#admin.mutation.get-returns-400` links to the rule. Under each rule it
 * lists, as links, where the rule is implemented, tested and checked by the conformance suite
 * (found by `tools/spec_coverage.ts`), and its support state; a table at the top counts them.
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
import { loadSpecText, parseSections } from "../spec/source_text.ts";
import {
  coverage,
  type CoverageReport,
  type RuleLinks,
  supportOf,
  type TableCoverage,
  totals,
} from "./spec_coverage.ts";

/** Where the document is written. */
export const SPEC_DOC_URL = new URL("../docs/SPEC.md", import.meta.url);

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
/** Support columns are shown on lines of their own. */
const SUPPORT_KEYS: ReadonlySet<string> = new Set(["support", "supportNote"]);

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

/** A link from `docs/` to a file of the repository. */
function fileLink(file: string): string {
  return `[${mdText(file)}](../${file.split("/").map(encodeURIComponent).join("/")})`;
}

const code = (x: string) => "`" + x.replaceAll("`", "'") + "`";

/** The lines that say where a rule is implemented, tested and checked. */
function renderLinks(r: TaggedRule, links: RuleLinks): string[] {
  const out: string[] = [];
  const state = [
    links.implemented.length ? "implemented" : "**not implemented**",
    links.tests.length ? "tested" : "**not tested**",
    links.cases.length ? "checked by conformance" : "**not checked by conformance**",
  ];
  out.push(`- State: ${state.join(", ")}`);
  if (links.implemented.length) {
    const how = (h: string) => h === "id" ? "names the ID" : `reads every row of ${code(r.table)}`;
    out.push(
      `- Implemented in: ${
        links.implemented.map((i) => `${fileLink(i.file)} (${how(i.how)})`).join("; ")
      }`,
    );
  }
  const grouped = <T extends { file: string }>(items: T[], show: (x: T) => string) => {
    const files = [...new Set(items.map((x) => x.file))];
    return files.map((f) =>
      `${fileLink(f)}: ${items.filter((x) => x.file === f).map(show).join("; ")}`
    ).join("; ");
  };
  if (links.tests.length) {
    out.push(`- Tested by: ${grouped(links.tests, (t) => `"${mdText(t.name)}"`)}`);
  }
  if (links.cases.length) {
    out.push(
      `- Conformance: ${grouped(links.cases, (c) => c.id ? code(c.id) : "a `rules` list")}`,
    );
  }
  return out;
}

function renderRule(r: TaggedRule, links?: RuleLinks): string {
  const out = [`<a id="${r.id}"></a>`, "", `### \`${r.id}\``, ""];
  const support = supportOf(r);
  if (support.support === "refused") {
    const note = support.supportNote ? `: ${mdText(support.supportNote)}` : "";
    out.push(`**Refused (not supported by this build${note})**`, "");
  }
  out.push(mdText(r.statement), "");
  out.push(`- Level: **${r.level}**`);
  out.push(`- Table: \`${r.table}\``);
  out.push(`- Check: \`${r.check}\``);
  if (support.support && support.support !== "refused") {
    const note = support.supportNote ? ` (${mdText(support.supportNote)})` : "";
    out.push(`- Support: ${mdText(support.support)}${note}`);
  }
  if (r.envoy) out.push(`- Envoy: ${mdText(r.envoy)}`);
  if (r.unimplemented) out.push(`- Not yet implemented: ${mdText(r.unimplemented)}`);
  const columns = Object.entries(r).filter(([k, v]) =>
    !BASE_KEYS.has(k) && !SUPPORT_KEYS.has(k) && v !== undefined
  );
  if (columns.length) {
    out.push(`- Columns: ${columns.map(([k, v]) => `${k} ${columnValue(v)}`).join("; ")}`);
  }
  if (links) out.push(...renderLinks(r, links));
  out.push("", `> ${mdText(r.cite.quote)}`, "");
  return out.join("\n");
}

/** The per-table counts at the top of the document. */
function renderSummary(report: CoverageReport): string[] {
  const row = (name: string, t: Omit<TableCoverage, "table">) =>
    `| ${name} | ${t.total} | ${t.implemented} | ${t.tested} | ${t.conformance} | ${t.refused} |`;
  return [
    "## Summary",
    "",
    "Where each rule is implemented, tested and checked is listed under the rule. A rule is",
    "*implemented* by a file of `src/` that the proxy loads and that names the rule's ID, or that",
    "imports the rule's table from `spec/` and reads its rows (the doc says which); *tested* by a",
    "unit test whose name begins with the rule's ID (or a glob over IDs) before the first `: `;",
    "*checked by conformance* by a case of `conformance/cases/` whose `rules` name it. A mere",
    "mention of an ID elsewhere does not count. *Refused* rows describe settings this build does",
    "not support and refuses, in `--mode validate` and serve alike.",
    "",
    "| table | rules | implemented | tested | conformance | refused |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...report.tables.map((t) => row(code(t.table), t)),
    row("**total**", totals(report)),
    "",
  ];
}

/**
 * Renders rules to Markdown, grouped by the section they cite. Sections follow the order of the
 * specification when its text is given, else the order in which the rules first cite them.
 *
 * @param rules the rules (default: every table)
 * @param specText the specification (default: read from {@linkcode SPEC_TEXT_URL} when present)
 * @param report where the rules are implemented, tested and checked (from
 *   {@linkcode coverage}); without it the document lists the rules only
 * @example
 * ```ts
 * import { allRules } from "../spec/mod.ts";
 * import { coverage } from "./spec_coverage.ts";
 * import { toSpecMarkdown } from "./spec_doc.ts";
 * const md = toSpecMarkdown(allRules(), undefined, await coverage());
 * console.log(md.includes("- Implemented in: [src/admin/router.ts]")); // true
 * ```
 */
export function toSpecMarkdown(
  rules: readonly TaggedRule[] = allRules(),
  specText: string | undefined = loadSpecText(),
  report?: CoverageReport,
): string {
  const order: string[] = specText ? parseSections(specText).map((s) => s.heading) : [];
  for (const r of rules) if (!order.includes(r.cite.section)) order.push(r.cite.section);
  const bySection = new Map<string, TaggedRule[]>(order.map((h) => [h, []]));
  for (const r of rules) bySection.get(r.cite.section)!.push(r);
  const used = order.filter((h) => bySection.get(h)!.length > 0);
  const links = new Map(report?.rules.map((x) => [x.rule.id, x.links]));

  const out: string[] = [
    "# proxyspec rules",
    "",
    "Generated by `deno task spec:doc` from the tables in `spec/`; do not edit by hand.",
    "Every rule has a stable ID and an anchor (`SPEC.md#<rule-id>`); the quote under each rule",
    "is the sentence of the specification it encodes.",
    "",
    `${rules.length} rules in ${used.length} sections.`,
    "",
    ...(report ? renderSummary(report) : []),
    "## Contents",
    "",
    ...used.map((h) => `- [${mdText(h)}](#${slug(h)}) (${bySection.get(h)!.length})`),
    "",
  ];
  for (const h of used) {
    out.push(`## ${mdText(h)}`, "");
    for (const r of bySection.get(h)!) out.push(renderRule(r, links.get(r.id)));
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

if (import.meta.main) {
  const report = await coverage();
  for (const w of report.warnings) console.error(`warning: ${w}`);
  Deno.exit(writeOrCheck(SPEC_DOC_URL, toSpecMarkdown(allRules(), loadSpecText(), report), {
    name: "docs/SPEC.md",
    task: "spec:doc",
    summary: `${allRules().length} rules`,
  }));
}
