/**
 * The Markdown and HTML reports: one page a person can read, grouped by specification section
 * (in the order the sections first appear in the tables). Both open with the totals (rules
 * checked out of selected, the breakdown, why the rest were not checked) and a table of contents
 * by section; every failure shows the specification's words, what was expected and what happened
 * side by side, and the commands that reproduce it. The HTML page has a "failures only" switch
 * (a checkbox and a few lines of inline script).
 *
 * A failure is a result that did not match its expectation, or a FAIL, ERROR or TIMEOUT even when
 * expected (the implementation still breaks the rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toHtml, toMarkdown } from "./markdown.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * const md = toMarkdown(run);
 * const html = toHtml(run);
 * assert.ok(md.startsWith("# Conformance report: proxy 1.0.0\n"));
 * assert.ok(html.includes("<title>Conformance report: proxy 1.0.0</title>"));
 * ```
 * @module
 */
import { isChecked } from "../types.ts";
import type { RuleResult, RunReport } from "../types.ts";
import { breakdown, summarize, totalsLines } from "../summary.ts";

/**
 * Groups results by specification section, keeping first-appearance order.
 *
 * @param results per-rule results
 * @returns section → results
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bySection } from "./markdown.ts";
 * assert.equal(bySection([]).size, 0);
 * ```
 */
export function bySection(results: readonly RuleResult[]): Map<string, RuleResult[]> {
  const m = new Map<string, RuleResult[]>();
  for (const r of results) m.set(r.section, [...(m.get(r.section) ?? []), r]);
  return m;
}

/**
 * Tells whether a result is a failure: unexpected, or a FAIL, ERROR or TIMEOUT.
 *
 * @example
 * ```ts
 * import { isFailure } from "./markdown.ts";
 * import type { RuleResult } from "../types.ts";
 * declare const r: RuleResult;
 * isFailure(r);
 * ```
 */
export function isFailure(r: RuleResult): boolean {
  return !r.ok || (isChecked(r.status) && r.status !== "PASS");
}

/** One line of counts for a group of results. */
function counts(rs: readonly RuleResult[]): string {
  const s = summarize(rs);
  const failures = rs.filter(isFailure).length;
  return `checked ${s.checked} of ${s.selected}; ${breakdown(s)}; failures ${failures}, ` +
    `unexpected ${s.unexpected}`;
}

/** What was expected of a rule, for a person. */
function expectedText(r: RuleResult): string {
  const why = r.expectedReason ? ` (${r.expectedReason})` : "";
  return `${r.expected}${why}: ${r.statement}`;
}

/** What happened, for a person. */
function actualText(r: RuleResult): string {
  const lines = [`${r.status}${r.message ? `: ${r.message}` : ""}`];
  if (r.counterexample) lines.push(`counterexample: ${r.counterexample}`);
  if (!r.ok && r.expected === "PASS" && !isChecked(r.status)) {
    lines.push("(--strict: not checked and not listed in the expectations file)");
  }
  return lines.join("\n");
}

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", "<br>");

/**
 * A stable anchor for a section heading.
 *
 * @example
 * ```ts
 * import { anchor } from "./markdown.ts";
 * anchor("Command-line options", 2); // "s2-command-line-options"
 * ```
 */
export function anchor(section: string, i: number): string {
  const slug = section.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return `s${i}-${slug}`.slice(0, 60);
}

/**
 * Renders the Markdown page.
 *
 * @param run the finished run
 * @returns Markdown text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toMarkdown } from "./markdown.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * const md = toMarkdown(run); // e.g. for `Deno.writeTextFile("report.md", md)`
 * assert.ok(md.includes("unexpected 0"));
 * ```
 */
export function toMarkdown(run: RunReport): string {
  const lines: string[] = [];
  lines.push(`# Conformance report: ${run.implementation.name} ${run.implementation.version}`);
  lines.push("");
  lines.push(
    `Suite ${run.suite.name} ${run.suite.version}, seed ${run.seed}, ` +
      `${run.numRuns} runs per property, ${run.startedAt} to ${run.finishedAt}.`,
  );
  lines.push("");
  lines.push(`Arguments: \`${run.arguments.join(" ")}\``);
  lines.push("");
  lines.push("```");
  lines.push(...totalsLines(run, 20));
  lines.push("```");
  lines.push("");
  const sections = [...bySection(run.results)];
  lines.push("## Contents");
  lines.push("");
  sections.forEach(([section, rs], i) => {
    const f = rs.filter(isFailure).length;
    lines.push(`- [${section}](#${anchor(section, i)}): ${counts(rs)}${f > 0 ? " ✗" : ""}`);
  });
  lines.push("");
  sections.forEach(([section, rs], i) => {
    lines.push(`<a id="${anchor(section, i)}"></a>`);
    lines.push("");
    lines.push(`## ${section}`);
    lines.push("");
    lines.push(counts(rs));
    lines.push("");
    lines.push("| Rule | Level | Status | Expected | Message |");
    lines.push("|---|---|---|---|---|");
    for (const r of rs) {
      const mark = r.ok ? "" : " ✗";
      lines.push(
        `| \`${r.rule}\` | ${r.level} | ${r.status}${mark} | ${r.expected} | ${
          cell(r.message.split("\n")[0] ?? "")
        } |`,
      );
    }
    lines.push("");
    for (const r of rs.filter(isFailure)) {
      lines.push(`### ${r.rule}`);
      lines.push("");
      lines.push("| Specification (quote) | Expected | Actual |");
      lines.push("|---|---|---|");
      lines.push(
        `| ${r.section}: “${cell(r.quote)}” | ${cell(expectedText(r))} | ${cell(actualText(r))} |`,
      );
      lines.push("");
      if (r.repro.length > 0) {
        lines.push("Reproduce:");
        lines.push("");
        lines.push("```sh");
        for (const l of r.repro) lines.push(l);
        lines.push("```");
        lines.push("");
      }
    }
  });
  if (run.unmatchedExpectations.length > 0) {
    lines.push("## Expectations not reached by this run");
    lines.push("");
    for (const e of run.unmatchedExpectations) lines.push(`- \`${e}\``);
    lines.push("");
  }
  return lines.join("\n");
}

/** Escapes text for HTML, dropping control characters a page cannot show. */
const esc = (s: string) =>
  // deno-lint-ignore no-control-regex
  s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "")
    .replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

const STYLE = "body{font-family:sans-serif;margin:2em;max-width:90em}" +
  "table{border-collapse:collapse;width:100%}" +
  "td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top;text-align:left}" +
  ".PASS{color:#070}.FAIL,.ERROR,.TIMEOUT{color:#b00}.NOT_APPLICABLE,.NOT_RUN{color:#777}" +
  "tr.failure{background:#fee}pre{white-space:pre-wrap;margin:0}" +
  ".side{display:grid;grid-template-columns:1fr 1fr 1fr;gap:.5em;margin:.3em 0}" +
  ".side>div{border:1px solid #ddd;padding:.4em;background:#fff}" +
  ".side h4{margin:0 0 .3em 0;font-size:.85em;color:#555}" +
  "nav li.has-failures>a{color:#b00;font-weight:bold}" +
  "body.only-failures tr.good,body.only-failures section.clean," +
  "body.only-failures nav li.clean{display:none}";

const SCRIPT = "document.getElementById('only-failures').addEventListener('change'," +
  "function(e){document.body.classList.toggle('only-failures',e.target.checked);});";

/** The failure's quote, expected and actual side by side, then its reproduction commands. */
function failureDetail(r: RuleResult): string {
  const repro = r.repro.length === 0
    ? ""
    : `<h4>Reproduce</h4><pre>${r.repro.map((l) => esc(l)).join("\n")}</pre>`;
  return `<div class="side">` +
    `<div><h4>Specification (${esc(r.section)})</h4>“${esc(r.quote)}”</div>` +
    `<div><h4>Expected</h4><pre>${esc(expectedText(r))}</pre></div>` +
    `<div><h4>Actual</h4><pre>${esc(actualText(r))}</pre></div></div>${repro}`;
}

/**
 * Renders the HTML page (self-contained: inline style and a few lines of script for the
 * "failures only" checkbox; without script every result shows).
 *
 * @param run the finished run
 * @returns HTML text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toHtml } from "./markdown.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * const html = toHtml(run); // e.g. for `Deno.writeTextFile("report.html", html)`
 * assert.ok(html.startsWith("<!doctype html>"));
 * ```
 */
export function toHtml(run: RunReport): string {
  const title = `Conformance report: ${run.implementation.name} ${run.implementation.version}`;
  const sections = [...bySection(run.results)];
  const out: string[] = [];
  out.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>`,
  );
  out.push(`<style>${STYLE}</style>`);
  out.push(`</head><body><h1>${esc(title)}</h1>`);
  out.push(
    `<p>Suite ${esc(run.suite.name)} ${esc(run.suite.version)}, seed ${run.seed}, ` +
      `${run.numRuns} runs per property, ${esc(run.startedAt)} to ${esc(run.finishedAt)}; ` +
      `<code>${esc(run.arguments.join(" "))}</code></p>`,
  );
  out.push(`<pre id="totals"><strong>${esc(totalsLines(run, 20).join("\n"))}</strong></pre>`);
  const failures = run.results.filter(isFailure).length;
  out.push(
    `<p><label><input type="checkbox" id="only-failures"> show failures only ` +
      `(${failures})</label></p>`,
  );
  out.push(`<nav><h2>Contents</h2><ul>`);
  sections.forEach(([section, rs], i) => {
    const f = rs.filter(isFailure).length;
    out.push(
      `<li class="${f > 0 ? "has-failures" : "clean"}"><a href="#${anchor(section, i)}">` +
        `${esc(section)}</a>: ${esc(counts(rs))}</li>`,
    );
  });
  out.push(`</ul></nav>`);
  sections.forEach(([section, rs], i) => {
    const f = rs.filter(isFailure).length;
    out.push(
      `<section id="${anchor(section, i)}" class="${f > 0 ? "has-failures" : "clean"}">` +
        `<h2>${esc(section)}</h2><p>${esc(counts(rs))}</p>`,
    );
    out.push(
      "<table><tr><th>Rule</th><th>Level</th><th>Status</th><th>Expected</th>" +
        "<th>Detail</th></tr>",
    );
    for (const r of rs) {
      const bad = isFailure(r);
      const detail = bad
        ? failureDetail(r)
        : r.status === "PASS"
        ? ""
        : `<pre>${esc(r.message)}</pre>`;
      out.push(
        `<tr id="${esc(r.rule)}" class="${bad ? "failure" : "good"}"><td><code>` +
          `${esc(r.rule)}</code><br><small>${esc(r.statement)}</small></td><td>${r.level}</td>` +
          `<td class="${r.status}">${r.status}${r.ok ? "" : " ✗"}</td><td>${r.expected}</td>` +
          `<td>${detail}</td></tr>`,
      );
    }
    out.push("</table></section>");
  });
  if (run.unmatchedExpectations.length > 0) {
    out.push("<h2>Expectations not reached by this run</h2><ul>");
    for (const e of run.unmatchedExpectations) out.push(`<li><code>${esc(e)}</code></li>`);
    out.push("</ul>");
  }
  out.push(`<script>${SCRIPT}</script>`);
  out.push("</body></html>\n");
  return out.join("\n");
}
