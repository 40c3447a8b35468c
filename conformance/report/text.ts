/**
 * The terminal summary. Results that did not match their expectation print the rule, the
 * citation, expected vs actual, the message and a line that reproduces them; the totals (rules
 * checked out of selected, the breakdown, why the rest were not checked) close it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toText } from "./text.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * assert.ok(toText(run).startsWith("proxy 1.0.0: 0 rules: "));
 * ```
 * @module
 */
import { totalsLines } from "../summary.ts";
import { isChecked } from "../types.ts";
import type { RunReport } from "../types.ts";

/**
 * Renders the readable summary.
 *
 * @param run the finished run
 * @returns text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toText } from "./text.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * assert.ok(toText(run).startsWith("proxy 1.0.0: 0 rules: "));
 * ```
 */
export function toText(run: RunReport): string {
  const out: string[] = [];
  const bad = run.results.filter((r) => !r.ok);
  for (const r of bad) {
    const strict = run.strict && r.expected === "PASS" && !isChecked(r.status)
      ? " (--strict: not checked and not listed in the expectations file)"
      : "";
    out.push(`✗ ${r.rule} (${r.level}): expected ${r.expected}, got ${r.status}${strict}`);
    out.push(`  ${r.statement}`);
    out.push(`  cites ${r.section}: "${r.quote}"`);
    for (const l of r.message.split("\n").filter((l) => l !== "")) out.push(`  ${l}`);
    if (r.counterexample) out.push(`  counterexample: ${r.counterexample}`);
    for (const l of r.repro.slice(0, 2)) out.push(`  $ ${l}`);
    out.push("");
  }
  out.push(...totalsLines(run));
  return out.join("\n");
}
