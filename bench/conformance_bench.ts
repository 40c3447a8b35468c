/**
 * Duration of the conformance suite against our own proxy: starts `mod.ts` on
 * `fixtures/conformance/bootstrap.yaml` (free ports, `--enable-mutex-tracing`, admin address read
 * from `--admin-address-path`, as the self test does), then times
 *
 * 1. one run per group of rules (each table of `spec/`), so the slow groups show;
 * 2. the whole suite in one run, the figure that counts.
 *
 * Every run is `deno run -A conformance/cli.ts --base-url ... --command "deno run -A mod.ts"` in
 * its own process (cold caches, as a user runs it), with `expectations/proxyspec.yaml` and without
 * `--destructive`, so the server survives every run.
 *
 * Target: the whole suite under 60 s on a 2-core machine. A report, not a test: it prints the
 * figures and exits 0, or 1 when a run did not match its expectations (the times are then still
 * printed, but mean little).
 *
 * Run: `deno run -A bench/conformance_bench.ts [--seed N] [--num-runs N] [--no-groups]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rulesByTable } from "./conformance_bench.ts";
 * assert.ok(rulesByTable().get("admin.endpoints")!.length > 0);
 * ```
 * @module
 */
import { allRules } from "../spec/mod.ts";
import { selfTargetArgs, startSelfTarget } from "../conformance/self_target.ts";

const root = new URL("../", import.meta.url).pathname;

/** The rule IDs of every table of `spec/`, in table order. */
export function rulesByTable(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of allRules()) out.set(r.table, [...(out.get(r.table) ?? []), r.id]);
  return out;
}

/** One timed run of the suite. */
interface Timed {
  code: number;
  seconds: number;
  summary: Record<string, number>;
  output: string[];
  /** Summed case time per table and the slowest cases, from the JSON report. */
  spent: { tables: [string, number][]; cases: [string, number][] };
}

/**
 * Where a run's time went, from its JSON report: the summed duration of the cases of each table
 * (a case counted once, under the table of its first rule) and the slowest cases, longest first.
 *
 * @param report the parsed `report.json`
 * @param top how many of each to keep
 * @returns tables and cases with their milliseconds
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { timeSpent } from "./conformance_bench.ts";
 * const spent = timeSpent({
 *   results: [{ table: "t", cases: [{ id: "a", duration_ms: 5 }, { id: "b", duration_ms: 9 }] }],
 * }, 1);
 * assert.deepEqual(spent, { tables: [["t", 14]], cases: [["b", 9]] });
 * ```
 */
export function timeSpent(
  report: { results?: { table: string; cases: { id: string; duration_ms: number }[] }[] },
  top = 5,
): Timed["spent"] {
  const seen = new Map<string, number>();
  const tables = new Map<string, number>();
  for (const r of report.results ?? []) {
    for (const c of r.cases) {
      if (seen.has(c.id)) continue;
      seen.set(c.id, c.duration_ms);
      tables.set(r.table, (tables.get(r.table) ?? 0) + c.duration_ms);
    }
  }
  const longest = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top) as [string, number][];
  return { tables: longest(tables), cases: longest(seen) };
}

/** Runs `conformance/cli.ts` in its own process (cold, as a user runs it) and times it. */
async function timedRun(args: string[], reportDir: string): Promise<Timed> {
  const started = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${root}conformance/cli.ts`,
      ...args,
      "--report",
      "text,json",
      "--report-dir",
      reportDir,
    ],
    cwd: root,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const dec = new TextDecoder();
  const output = [dec.decode(out.stdout), dec.decode(out.stderr)];
  let summary: Record<string, number> = {};
  let spent: Timed["spent"] = { tables: [], cases: [] };
  try {
    const report = JSON.parse(await Deno.readTextFile(`${reportDir}/report.json`));
    summary = report.summary ?? {};
    spent = timeSpent(report);
  } catch { /* no report: the output says why */ }
  return { code: out.code, seconds, summary, output, spent };
}

function flag(argv: string[], name: string, fallback: string): string {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);

function line(name: string, rules: number, t: Timed): string {
  const s = t.summary;
  return `${pad(name, 20)}${lpad(rules, 6)}${lpad(s.checked ?? 0, 8)}${lpad(s.PASS ?? 0, 6)}${
    lpad(s.FAIL ?? 0, 6)
  }${lpad(s.NOT_APPLICABLE ?? 0, 6)}${lpad(s.NOT_RUN ?? 0, 8)}${lpad(t.seconds.toFixed(2), 10)}${
    t.code === 0 ? "" : `  (exit ${t.code})`
  }`;
}

async function main(argv: string[]): Promise<number> {
  const seed = flag(argv, "--seed", "20261121");
  const numRuns = flag(argv, "--num-runs", "");
  const dir = await Deno.makeTempDir({ prefix: "conformance-bench-" });
  const target = await startSelfTarget(dir, 15_000);
  let failed = false;
  try {
    const address = target.address;
    if (address === null) {
      console.error("conformance bench: mod.ts did not write an admin address within 15 s");
      return 2;
    }
    const base = [
      ...selfTargetArgs(address, seed),
      ...(numRuns ? ["--num-runs", numRuns] : []),
    ];
    console.log(`conformance suite against mod.ts at ${address}, seed ${seed}`);
    console.log(
      `${pad("group", 20)}${lpad("rules", 6)}${lpad("checked", 8)}${lpad("pass", 6)}${
        lpad("fail", 6)
      }${lpad("n/a", 6)}${lpad("not run", 8)}${lpad("wall s", 10)}`,
    );
    const tables = rulesByTable();
    if (!argv.includes("--no-groups")) {
      let sum = 0;
      for (const [table, ids] of tables) {
        const t = await timedRun([...base, ...ids], `${dir}/${table}`);
        sum += t.seconds;
        if (t.code !== 0) failed = true;
        console.log(line(table, ids.length, t));
        if (t.code !== 0) console.error(t.output.join("\n"));
      }
      console.log(`${pad("sum of groups", 60)}${lpad(sum.toFixed(2), 10)}`);
    }
    const whole = await timedRun(base, `${dir}/whole`);
    if (whole.code !== 0) failed = true;
    const total = [...tables.values()].reduce((n, ids) => n + ids.length, 0);
    console.log(line("whole suite", total, whole));
    const ms = ([id, n]: [string, number]) => `${id} ${(n / 1000).toFixed(1)} s`;
    console.log(
      `case time by table (summed, cases run concurrently): ${
        whole.spent.tables.map(ms).join(", ")
      }`,
    );
    console.log(`slowest cases: ${whole.spent.cases.map(ms).join(", ")}`);
    console.log(
      `total wall time ${whole.seconds.toFixed(2)} s (target under 60 s: ${
        whole.seconds < 60 ? "met" : "NOT met"
      })`,
    );
    if (failed) {
      console.error("some results did not match the expectations; the runner said:");
      console.error(whole.output.join("\n"));
    }
    return failed ? 1 : 0;
  } finally {
    await target.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
