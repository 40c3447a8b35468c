/**
 * The JSON report: implementation identity, suite version, arguments, seed, and per rule the
 * status, the expectation, the message, the citation, the duration, a counterexample and the
 * lines that reproduce it. Shaped after WPT's wptreport (`results[{test, status, expected,
 * message, duration}]`), keyed by rule ID.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJsonReport } from "./json.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * const text = JSON.stringify(toJsonReport(run), null, 2);
 * assert.equal(JSON.parse(text).summary.total, 0);
 * ```
 * @module
 */
import type { RunReport } from "../types.ts";
import { summarize } from "../summary.ts";

/** One rule in the JSON report. */
export interface JsonRuleEntry {
  rule: string;
  table: string;
  level: string;
  statement: string;
  status: string;
  expected: string;
  expected_reason?: string;
  ok: boolean;
  message: string;
  citation: { section: string; quote: string };
  duration_ms: number;
  counterexample?: string;
  reproduce: string[];
  cases: { id: string; title: string; status: string; message: string; duration_ms: number }[];
}

/** The whole JSON report. */
export interface JsonReport {
  suite: { name: string; version: string };
  implementation: { name: string; version: string; source: string };
  arguments: string[];
  seed: number;
  num_runs: number;
  time_start: string;
  time_end: string;
  /**
   * Rules per status, `total` (selected), `checked` (PASS + FAIL + ERROR + TIMEOUT),
   * `unexpected`, and whether `--strict` was on.
   */
  summary: Record<string, number | boolean> & {
    total: number;
    checked: number;
    unexpected: number;
    strict: boolean;
  };
  /** Not-checked rules grouped by status and reason. */
  not_checked: { status: string; reason: string; count: number }[];
  unmatched_expectations: string[];
  results: JsonRuleEntry[];
}

/**
 * Builds the JSON report object.
 *
 * @param run the finished run
 * @returns a plain object ready for `JSON.stringify`
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toJsonReport } from "./json.ts";
 * import type { RunReport } from "../types.ts";
 * const run: RunReport = {
 *   suite: { name: "proxyspec-conformance", version: "0.1.0" },
 *   implementation: { name: "proxy", version: "1.0.0", source: "/server_info" },
 *   arguments: [], seed: 1, numRuns: 1, results: [], unmatchedExpectations: [],
 *   startedAt: "2026-01-01T00:00:00Z", finishedAt: "2026-01-01T00:00:01Z",
 * };
 * assert.equal(toJsonReport(run).summary.unexpected, 0);
 * ```
 */
export function toJsonReport(run: RunReport): JsonReport {
  const s = summarize(run.results);
  return {
    suite: run.suite,
    implementation: run.implementation,
    arguments: run.arguments,
    seed: run.seed,
    num_runs: run.numRuns,
    time_start: run.startedAt,
    time_end: run.finishedAt,
    summary: {
      ...s.counts,
      total: s.selected,
      checked: s.checked,
      unexpected: s.unexpected,
      strict: run.strict,
    },
    not_checked: s.notChecked,
    unmatched_expectations: run.unmatchedExpectations,
    results: run.results.map((r) => {
      const e: JsonRuleEntry = {
        rule: r.rule,
        table: r.table,
        level: r.level,
        statement: r.statement,
        status: r.status,
        expected: r.expected,
        ok: r.ok,
        message: r.message,
        citation: { section: r.section, quote: r.quote },
        duration_ms: r.durationMs,
        reproduce: r.repro,
        cases: r.cases.map((c) => ({
          id: c.caseId,
          title: c.title,
          status: c.status,
          message: c.message,
          duration_ms: c.durationMs,
        })),
      };
      if (r.expectedReason !== undefined) e.expected_reason = r.expectedReason;
      if (r.counterexample !== undefined) e.counterexample = r.counterexample;
      return e;
    }),
  };
}
