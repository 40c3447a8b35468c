/**
 * The terminal summary and the progress bar. Failures print the rule, the citation, expected vs
 * actual, the message and a line that reproduces them.
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
import { countByStatus, STATUS_ORDER } from "../types.ts";
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
    out.push(`✗ ${r.rule} (${r.level}): expected ${r.expected}, got ${r.status}`);
    out.push(`  ${r.statement}`);
    out.push(`  cites ${r.section}: "${r.quote}"`);
    for (const l of r.message.split("\n").filter((l) => l !== "")) out.push(`  ${l}`);
    if (r.counterexample) out.push(`  counterexample: ${r.counterexample}`);
    for (const l of r.repro.slice(0, 2)) out.push(`  $ ${l}`);
    out.push("");
  }
  const c = countByStatus(run.results);
  out.push(
    `${run.implementation.name} ${run.implementation.version}: ${run.results.length} rules: ` +
      STATUS_ORDER.map((s) => `${c[s]} ${s}`).join(", "),
  );
  out.push(
    bad.length === 0
      ? "every result matched its expectation"
      : `${bad.length} result(s) did not match their expectation`,
  );
  return out.join("\n");
}

/** A one-line progress bar on stderr, drawn only on a terminal. */
export class ProgressBar {
  #enabled: boolean;
  #width = 30;
  #enc = new TextEncoder();

  /** @param enabled draw at all (usually `Deno.stderr.isTerminal()`) */
  constructor(enabled: boolean) {
    this.#enabled = enabled;
  }

  /**
   * Redraws the bar.
   *
   * @param done finished cases
   * @param total all cases
   * @param label what just finished
   */
  update(done: number, total: number, label: string): void {
    if (!this.#enabled || total === 0) return;
    const filled = Math.round((done / total) * this.#width);
    const bar = "#".repeat(filled) + "-".repeat(this.#width - filled);
    const text = `\r[${bar}] ${done}/${total} ${label}`.slice(0, 110).padEnd(110);
    Deno.stderr.writeSync(this.#enc.encode(text));
  }

  /** Clears the line. */
  done(): void {
    if (this.#enabled) Deno.stderr.writeSync(this.#enc.encode(`\r${" ".repeat(110)}\r`));
  }
}
