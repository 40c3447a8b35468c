/**
 * The shape of a fuzz target: `run(runs, seed)` feeds `runs` generated inputs (fast-check, fixed
 * `seed`, so a run is reproducible) to one part of the proxy and reports what it saw. A failure
 * carries the input that caused it, printed so it can become a regression test.
 *
 * @module
 */

/** One input that broke an expectation. */
export interface FuzzFailure {
  /** The input, printable (JSON or a short description). */
  input: string;
  /** What went wrong. */
  error: string;
}

/** What one fuzz run saw. */
export interface FuzzReport {
  target: string;
  runs: number;
  seed: number;
  /** Figures worth printing, by name (`requests`, `5xx`, `crashes`, ...). */
  figures: Record<string, number>;
  /** The first failures found (at most {@linkcode MAX_FAILURES}). */
  failures: FuzzFailure[];
}

/** How many failures a report keeps. */
export const MAX_FAILURES = 20;

/** A fuzz target. */
export interface FuzzTarget {
  /** One line for `--help`. */
  describe: string;
  run(runs: number, seed: number): Promise<FuzzReport>;
}

/**
 * Keeps failures up to {@linkcode MAX_FAILURES}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordFailure } from "./target.ts";
 * const list: { input: string; error: string }[] = [];
 * recordFailure(list, "x", new Error("boom"));
 * assert.equal(list[0].error, "Error: boom");
 * ```
 */
export function recordFailure(list: FuzzFailure[], input: string, error: unknown): void {
  if (list.length >= MAX_FAILURES) return;
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  list.push({ input: input.length > 2000 ? `${input.slice(0, 2000)}...` : input, error: text });
}

/**
 * A report as text: one line of figures, then each failure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatReport } from "./target.ts";
 * const text = formatReport({ target: "t", runs: 3, seed: 1, figures: { inputs: 3 }, failures: [] });
 * assert.equal(text, "t (seed 1): 3 inputs\n");
 * ```
 */
export function formatReport(r: FuzzReport): string {
  const figures = Object.entries(r.figures).map(([k, v]) => `${v} ${k}`).join(" / ");
  let out = `${r.target} (seed ${r.seed}): ${figures}${r.failures.length ? " / FAILED" : ""}\n`;
  for (const f of r.failures) out += `  FAIL ${f.error}\n    input: ${f.input}\n`;
  return out;
}
