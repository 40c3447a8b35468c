/**
 * The JUnit XML report: one `<testsuite>` per table, one `<testcase>` per rule ID (the ID is the
 * testcase name, so CI dashboards key on stable IDs). An unexpected result is a `<failure>` (or
 * an `<error>` for ERROR and TIMEOUT; under `--strict` an unlisted NOT_APPLICABLE or NOT_RUN is a
 * `<failure>` too); an expected non-pass and a not-checked rule that matched are `<skipped>` with
 * the reason. Properties on the first suite give the implementation, the seed and how many rules
 * were checked out of how many selected.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJUnit } from "./junit.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * const xml = toJUnit(run);
 * assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites '));
 * ```
 * @module
 */
import type { RuleResult, RunReport } from "../types.ts";
import { summarize } from "../summary.ts";

/**
 * Escapes text for XML content and attribute values.
 *
 * @param s any text
 * @returns the escaped text, with characters XML 1.0 forbids removed
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xmlEscape } from "./junit.ts";
 * assert.equal(xmlEscape(`a<b & "c"`), "a&lt;b &amp; &quot;c&quot;");
 * ```
 */
export function xmlEscape(s: string): string {
  return s
    // deno-lint-ignore no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

function body(r: RuleResult): string {
  const detail = [
    r.message,
    `rule: ${r.rule} (${r.level}) ${r.statement}`,
    `citation: ${r.section}: "${r.quote}"`,
    ...(r.counterexample ? [`counterexample: ${r.counterexample}`] : []),
    ...r.repro.map((l) => `reproduce: ${l}`),
  ].join("\n");
  const head = `expected ${r.expected}, got ${r.status}`;
  if (!r.ok) {
    const tag = r.status === "ERROR" || r.status === "TIMEOUT" ? "error" : "failure";
    return `      <${tag} message="${xmlEscape(head)}" type="${r.status}">${
      xmlEscape(detail)
    }</${tag}>\n`;
  }
  if (r.status === "PASS") return "";
  const why = r.status === r.expected && r.expectedReason
    ? `expected ${r.status}: ${r.expectedReason}`
    : `${r.status}: ${r.message.split("\n")[0]}`;
  return `      <skipped message="${xmlEscape(why)}"/>\n`;
}

/**
 * Renders the JUnit XML document.
 *
 * @param run the finished run
 * @returns the XML text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJUnit } from "./junit.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * const xml = toJUnit(run); // e.g. for `Deno.writeTextFile("junit.xml", xml)`
 * assert.ok(xml.endsWith("</testsuites>\n"));
 * ```
 */
export function toJUnit(run: RunReport): string {
  const tables = new Map<string, RuleResult[]>();
  for (const r of run.results) tables.set(r.table, [...(tables.get(r.table) ?? []), r]);
  const fails = (rs: RuleResult[]) =>
    rs.filter((r) => !r.ok && r.status !== "ERROR" && r.status !== "TIMEOUT").length;
  const errors = (rs: RuleResult[]) =>
    rs.filter((r) => !r.ok && (r.status === "ERROR" || r.status === "TIMEOUT")).length;
  const skipped = (rs: RuleResult[]) => rs.filter((r) => r.ok && r.status !== "PASS").length;
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const summary = summarize(run.results);
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n`;
  out += `<testsuites name="${xmlEscape(run.suite.name)}" tests="${run.results.length}" ` +
    `failures="${fails(run.results)}" errors="${errors(run.results)}" ` +
    `skipped="${skipped(run.results)}">\n`;
  for (const [table, rs] of tables) {
    const time = rs.reduce((n, r) => n + r.durationMs, 0);
    out += `  <testsuite name="${xmlEscape(table)}" tests="${rs.length}" failures="${fails(rs)}" ` +
      `errors="${errors(rs)}" skipped="${skipped(rs)}" time="${secs(time)}" ` +
      `timestamp="${xmlEscape(run.startedAt)}">\n`;
    if (table === [...tables.keys()][0]) {
      out += `    <properties>\n` +
        `      <property name="implementation" value="${xmlEscape(run.implementation.name)} ${
          xmlEscape(run.implementation.version)
        }"/>\n` +
        `      <property name="seed" value="${run.seed}"/>\n` +
        `      <property name="rules_checked" value="${summary.checked}"/>\n` +
        `      <property name="rules_selected" value="${summary.selected}"/>\n` +
        `      <property name="strict" value="${run.strict}"/>\n` +
        `    </properties>\n`;
    }
    for (const r of rs) {
      const inner = body(r);
      const open = `    <testcase classname="conformance.${xmlEscape(table)}" name="${
        xmlEscape(r.rule)
      }" time="${secs(r.durationMs)}"`;
      out += inner === "" ? `${open}/>\n` : `${open}>\n${inner}    </testcase>\n`;
    }
    out += `  </testsuite>\n`;
  }
  return out + `</testsuites>\n`;
}
