/**
 * `deno task fuzz <target> [--runs N] [--seed S]`: runs one fuzz target (`admin`, `http1`,
 * `bootstrap`, `xds`, or `all`) with a fixed seed and prints its figures and failures; exits 1 when a
 * target found a failure. CI runs each target with a small count from `tools/fuzz/fuzz_test.ts`;
 * longer runs are on demand.
 *
 * @example
 * ```ts ignore
 * // deno task fuzz admin --runs 100000 --seed 7
 * ```
 * @module
 */
import { type TargetName, TARGETS } from "./fuzz/targets.ts";
import { formatReport } from "./fuzz/target.ts";

function usage(): string {
  const lines = Object.entries(TARGETS).map(([n, t]) => `  ${n.padEnd(10)} ${t.describe}`);
  return `usage: deno task fuzz <target|all> [--runs N] [--seed S]\ntargets:\n${
    lines.join("\n")
  }\n`;
}

/** Parses the command line and runs; resolves to the exit code. */
export async function fuzzMain(args: string[]): Promise<number> {
  let runs = 1000;
  let seed = 1;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--runs" || a === "--seed") {
      const n = Number(args[++i]);
      if (!Number.isSafeInteger(n) || n < 0) {
        console.error(`${a}: a non-negative integer expected\n${usage()}`);
        return 2;
      }
      if (a === "--runs") runs = n;
      else seed = n;
    } else if (a === "--help" || a === "-h") {
      console.log(usage());
      return 0;
    } else names.push(a);
  }
  const chosen = names.length === 0 || names.includes("all")
    ? Object.keys(TARGETS) as TargetName[]
    : names;
  let failed = false;
  for (const name of chosen) {
    const target = TARGETS[name as TargetName];
    if (!target) {
      console.error(`unknown target ${name}\n${usage()}`);
      return 2;
    }
    const report = await target.run(runs, seed);
    console.log(formatReport(report).trimEnd());
    if (report.failures.length > 0) failed = true;
  }
  return failed ? 1 : 0;
}

if (import.meta.main) Deno.exit(await fuzzMain(Deno.args));
