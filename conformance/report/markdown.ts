/**
 * The Markdown and HTML reports: one page a person can read, grouped by specification section
 * (in the order the sections first appear in the tables), with pass/fail counts per section and
 * the detail of every result that did not pass.
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
import { countByStatus, STATUS_ORDER } from "../types.ts";
import type { RuleResult, RunReport } from "../types.ts";

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

function counts(rs: readonly RuleResult[]): string {
  const c = countByStatus(rs);
  const parts = STATUS_ORDER.filter((s) => c[s] > 0).map((s) => `${s} ${c[s]}`);
  const bad = rs.filter((r) => !r.ok).length;
  return `${parts.join(", ") || "no rules"}; unexpected ${bad}`;
}

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", "<br>");

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
  lines.push(`**Total ${run.results.length}: ${counts(run.results)}.**`);
  lines.push("");
  for (const [section, rs] of bySection(run.results)) {
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
    for (const r of rs.filter((r) => r.status !== "PASS" && r.status !== "SKIP")) {
      lines.push(`### ${r.rule}`);
      lines.push("");
      lines.push(`${r.statement} — ${r.section}: “${r.quote}”`);
      lines.push("");
      lines.push("```");
      lines.push(r.message);
      if (r.counterexample) lines.push(`counterexample: ${r.counterexample}`);
      for (const l of r.repro) lines.push(`$ ${l}`);
      lines.push("```");
      lines.push("");
    }
  }
  if (run.unmatchedExpectations.length > 0) {
    lines.push("## Expectations not reached by this run");
    lines.push("");
    for (const e of run.unmatchedExpectations) lines.push(`- \`${e}\``);
    lines.push("");
  }
  return lines.join("\n");
}

const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll(
    '"',
    "&quot;",
  );

/**
 * Renders the HTML page (self-contained, no scripts).
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
  const out: string[] = [];
  out.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>`,
  );
  out.push(
    "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}" +
      "td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}.PASS{color:#070}" +
      ".FAIL,.ERROR,.TIMEOUT{color:#b00}.bad{background:#fee}pre{white-space:pre-wrap}</style>",
  );
  out.push(`</head><body><h1>${esc(title)}</h1>`);
  out.push(
    `<p>Suite ${esc(run.suite.name)} ${esc(run.suite.version)}, seed ${run.seed}; ` +
      `<code>${esc(run.arguments.join(" "))}</code></p>`,
  );
  out.push(`<p><strong>Total ${run.results.length}: ${esc(counts(run.results))}</strong></p>`);
  for (const [section, rs] of bySection(run.results)) {
    out.push(`<h2>${esc(section)}</h2><p>${esc(counts(rs))}</p>`);
    out.push(
      "<table><tr><th>Rule</th><th>Level</th><th>Status</th><th>Expected</th>" +
        "<th>Detail</th></tr>",
    );
    for (const r of rs) {
      const detail = r.status === "PASS"
        ? ""
        : `<pre>${esc(r.message)}${
          r.counterexample ? esc(`\ncounterexample: ${r.counterexample}`) : ""
        }${r.repro.map((l) => esc(`\n$ ${l}`)).join("")}</pre>`;
      out.push(
        `<tr id="${esc(r.rule)}"${r.ok ? "" : ' class="bad"'}><td><code>${esc(r.rule)}</code>` +
          `<br><small>${esc(r.statement)}</small></td><td>${r.level}</td>` +
          `<td class="${r.status}">${r.status}</td><td>${r.expected}</td><td>${detail}</td></tr>`,
      );
    }
    out.push("</table>");
  }
  out.push("</body></html>\n");
  return out.join("\n");
}
