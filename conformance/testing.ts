/**
 * Test support for the suite's own tests: quiet runner output, a fake binary's `--version`
 * line, and a run of the suite whose JSON report is read back per rule.
 *
 * @example Not run: it runs the suite against a binary (`cmd`) in a directory (`dir`).
 * ```ts ignore
 * import { runForReport } from "./testing.ts";
 * const { code, results } = await runForReport(["--command", cmd, "cli.constraints.mode"], dir);
 * results.get("cli.constraints.mode")?.status; // "PASS"
 * ```
 * @module
 */
import { runConformance, type RunnerIo } from "./cli.ts";

/** Runner output that goes nowhere. */
export const QUIET: RunnerIo = { out: () => {}, err: () => {}, progress: false };

/** A statement of a fake binary's source that prints a `--version` answer the probe accepts. */
export const FAKE_VERSION_PRINT = `console.log("\\nfake  version: ${
  "0".repeat(40)
}/1.0.0/Clean/RELEASE/none\\n");`;

/**
 * The source of a fake binary: answers `--version` as the probe expects, else runs `body` (lines
 * of TypeScript that can read the arguments as `a`).
 */
export function fakeBinarySource(body: readonly string[]): string {
  return [
    `const a = Deno.args;`,
    `if (a.includes("--version")) {`,
    `  ${FAKE_VERSION_PRINT}`,
    `  Deno.exit(0);`,
    `}`,
    ...body,
  ].join("\n");
}

/** One rule's result as `report.json` holds it. */
export interface ReportedResult {
  rule: string;
  status: string;
  message: string;
  /** The rule's cases and how each ended. */
  cases: { id: string; status: string; message: string }[];
}

/**
 * Runs the suite quietly with `args`, writing reports (`formats`, JSON at least) to `dir`.
 *
 * @returns the exit code and the results by rule ID
 */
export async function runForReport(
  args: readonly string[],
  dir: string,
  formats = "json",
): Promise<{ code: number; results: Map<string, ReportedResult> }> {
  const code = await runConformance([...args, "--report", formats, "--report-dir", dir], QUIET);
  const j = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
  return { code, results: new Map(j.results.map((r: ReportedResult) => [r.rule, r])) };
}

/** {@linkcode runForReport}, as rule ID → status, with the exit code under `exit`. */
export async function statuses(args: readonly string[], dir: string): Promise<Map<string, string>> {
  const { code, results } = await runForReport(args, dir);
  const out = new Map([...results].map(([id, r]) => [id, r.status]));
  out.set("exit", String(code));
  return out;
}
