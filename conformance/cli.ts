/**
 * The conformance runner: `deno task conformance -- --base-url URL --command "CMD" [SELECTOR...]`.
 * It selects rules, builds the cases from the spec tables, probes the target, runs the cases,
 * compares each rule's result with the expectations file, prints a summary and writes reports.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runConformance } from "./cli.ts";
 * const code = await runConformance(["--list", "admin.endpoints.*"]); // prints the selection
 * assert.equal(code, 0);
 * ```
 * @module
 */
import { allRules } from "../spec/mod.ts";
import type { TaggedRule } from "../spec/mod.ts";
import { parseRunnerArgs, USAGE, UsageError } from "./args.ts";
import type { RunnerArgs } from "./args.ts";
import { buildCases } from "./cases/mod.ts";
import { validatePlanned } from "./cases/cluster_validate.ts";
import { CommandClient } from "./command_client.ts";
import {
  expectationFor,
  loadExpectations,
  renderExpectations,
  updateExpectations,
} from "./expectations.ts";
import type { Expectation } from "./expectations.ts";
import { matchesAny } from "./glob.ts";
import { HttpClient } from "./http_client.ts";
import { probeTarget } from "./probe.ts";
import { profile } from "./profile.ts";
import { planCases, runSuite } from "./runner.ts";
import { shellSplit } from "./shell_split.ts";
import { toJsonReport } from "./report/json.ts";
import { toJUnit } from "./report/junit.ts";
import { toHtml, toMarkdown } from "./report/markdown.ts";
import { toText } from "./report/text.ts";
import { progressBar, sectionLines } from "./report/progress.ts";
import { totalsLines } from "./summary.ts";
import type { Case, RunReport } from "./types.ts";

/** The suite's own version; bump it when the meaning of a case changes. */
export const SUITE_VERSION = "0.1.0";

/** Where output goes (tests pass their own). */
export interface RunnerIo {
  out(text: string): void;
  err(text: string): void;
  /** Draw a progress bar (stderr is a terminal). */
  progress: boolean;
}

const defaultIo: RunnerIo = {
  out: (t) => console.log(t),
  err: (t) => console.error(t),
  progress: Deno.stderr.isTerminal(),
};

/**
 * Runs the suite as the command line asks.
 *
 * @param argv the runner arguments
 * @param io output sinks
 * @returns the exit code: 0 all matched, 1 some did not, 2 usage or connection error
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runConformance } from "./cli.ts";
 * const out: string[] = [];
 * const io = { out: (t: string) => out.push(t), err: () => {}, progress: false };
 * assert.equal(await runConformance(["--list", "cli.options.*"], io), 0);
 * assert.ok(out.join("\n").includes("cli.options."));
 * ```
 */
export async function runConformance(argv: readonly string[], io = defaultIo): Promise<number> {
  let args: RunnerArgs;
  try {
    args = parseRunnerArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`conformance: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    io.out(USAGE);
    return 0;
  }
  const every = allRules();
  const rules = every.filter((r) => matchesAny(r.id, args.selectors));
  if (rules.length === 0) {
    io.err(`conformance: no rule matches ${args.selectors.join(" ")}`);
    return 2;
  }
  const cases = buildCases({ rules: every, variant: args.variant });
  let expectations: Expectation[] = [];
  if (args.expectations !== null) {
    try {
      const missing = args.updateExpectations &&
        !(await Deno.stat(args.expectations).then(() => true, () => false));
      expectations = missing ? [] : await loadExpectations(args.expectations);
    } catch (e) {
      io.err(`conformance: ${(e as Error).message}`);
      return 2;
    }
  }
  if (args.list) {
    io.out(listing(rules, cases, args, expectations));
    return 0;
  }
  let commandArgv: string[] | null = null;
  if (args.command !== null) {
    try {
      commandArgv = shellSplit(args.command);
    } catch (e) {
      io.err(`conformance: --command: ${(e as Error).message}`);
      return 2;
    }
  }
  const http = new HttpClient(args.baseUrl, Math.min(args.timeoutMs, 15_000));
  const command = new CommandClient(commandArgv, args.timeoutMs);
  const identity = await identify(http, command, io);
  if (identity === null) return 2;
  const startedAt = new Date().toISOString();
  const probe = await probeTarget(http);
  const tableOf = new Map(every.map((r) => [r.id, r.table]));
  const sectionOf = (c: Case) => tableOf.get(c.rules[0]) ?? c.rules[0] ?? c.id;
  const progress = io.progress ? progressBar(sectionOf) : sectionLines((l) => io.err(l), sectionOf);
  const results = await runSuite({
    rules,
    cases,
    http,
    command,
    profile: profile(args.profile),
    variant: args.variant,
    seed: args.seed,
    numRuns: args.numRuns,
    timeoutMs: args.timeoutMs,
    destructive: args.destructive,
    expectations,
    probe,
    strict: args.strict,
    concurrency: args.concurrency,
    prepare: async (cmd) => {
      const dir = await Deno.makeTempDir({ prefix: "conformance-" });
      try {
        await validatePlanned({ command: cmd.fork(), tempDir: () => Promise.resolve(dir) });
      } finally {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    },
    onPlan: (plan) => progress.start(plan),
    onProgress: (done, total, c, r) => progress.update(done, total, c, r),
  });
  progress.stop();
  const reached = new Set(results.map((r) => r.rule));
  const run: RunReport = {
    suite: { name: "proxyspec-conformance", version: SUITE_VERSION },
    implementation: identity,
    arguments: [...argv],
    seed: args.seed,
    numRuns: args.numRuns,
    startedAt,
    finishedAt: new Date().toISOString(),
    results,
    unmatchedExpectations: expectations.map((e) => e.rule).filter((id) =>
      !/[*?]/.test(id) && !reached.has(id)
    ),
    strict: args.strict,
  };
  try {
    await writeReports(run, args, io);
  } catch (e) {
    io.err(`conformance: cannot write the reports to ${args.reportDir}: ${(e as Error).message}`);
    return 2;
  }
  io.out(args.reports.includes("text") ? toText(run) : totalsLines(run).join("\n"));
  io.out(`seed ${args.seed} (rerun with --seed ${args.seed})`);
  if (args.updateExpectations && args.expectations !== null) {
    const next = updateExpectations(expectations, results);
    try {
      await Deno.writeTextFile(
        args.expectations,
        renderExpectations(
          next,
          `Expectations of ${identity.name}, written by --update-expectations.`,
        ),
      );
    } catch (e) {
      io.err(`conformance: cannot write ${args.expectations}: ${(e as Error).message}`);
      return 2;
    }
    io.out(`wrote ${next.length} expectation(s) to ${args.expectations}`);
    return 0;
  }
  return results.every((r) => r.ok) ? 0 : 1;
}

async function identify(
  http: HttpClient,
  command: CommandClient,
  io: RunnerIo,
): Promise<RunReport["implementation"] | null> {
  let found: RunReport["implementation"] = { name: "unknown", version: "unknown", source: "none" };
  if (http.available) {
    try {
      const r = await http.request("GET", "/server_info");
      try {
        const v = JSON.parse(r.body);
        if (typeof v?.version === "string") {
          const agent = v?.node?.user_agent_name;
          const name = typeof agent === "string" && agent !== "" ? agent : "implementation";
          found = { name, version: v.version, source: "/server_info" };
        }
      } catch { /* not JSON: the identity stays unknown */ }
    } catch (e) {
      io.err(`conformance: cannot connect to ${http.base}: ${(e as Error).message}`);
      return null;
    }
  }
  if (command.available) {
    try {
      const r = await command.run(["--version"]);
      const m = /(\S+)\s+version:\s*(\S+)/.exec(r.stdout + r.stderr);
      if (found.source === "none" && m) {
        found = { name: m[1].split("/").at(-1) ?? m[1], version: m[2], source: "--version" };
      }
    } catch (e) {
      io.err(`conformance: cannot run the --command: ${(e as Error).message}`);
      return null;
    }
  }
  return found;
}

async function writeReports(run: RunReport, args: RunnerArgs, io: RunnerIo): Promise<void> {
  const files: Array<[string, string]> = [];
  for (const f of args.reports) {
    if (f === "json") files.push(["report.json", JSON.stringify(toJsonReport(run), null, 2)]);
    if (f === "junit") files.push(["junit.xml", toJUnit(run)]);
    if (f === "md") files.push(["report.md", toMarkdown(run)]);
    if (f === "html") files.push(["report.html", toHtml(run)]);
  }
  if (files.length === 0) return;
  await Deno.mkdir(args.reportDir, { recursive: true });
  for (const [name, text] of files) {
    const path = `${args.reportDir}/${name}`;
    await Deno.writeTextFile(path, text);
    io.err(`wrote ${path}`);
  }
}

/**
 * Renders `--list`: every selected rule with the cases that would run it, or why none would.
 *
 * @returns the listing text
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listing } from "./cli.ts";
 * const text = listing([], [], { baseUrl: null, command: null, destructive: false }, []);
 * assert.equal(text, "0 rule(s) selected, 0 would run, 0 case(s)");
 * ```
 */
export function listing(
  rules: readonly TaggedRule[],
  cases: readonly Case[],
  args: Pick<RunnerArgs, "baseUrl" | "command" | "destructive">,
  expectations: readonly Expectation[],
): string {
  const lines: string[] = [];
  const plan = planCases(cases, new Set(rules.map((r) => r.id)));
  let runnable = 0;
  for (const r of rules) {
    const mine = plan.filter((c) => c.rules.includes(r.id));
    const exp = expectationFor(expectations, r.id);
    const tail = exp ? `  (expected ${exp.status}: ${exp.reason})` : "";
    if (r.check === "internal") {
      lines.push(`NOT_RUN ${r.id}: internal, cannot be checked from outside${tail}`);
      continue;
    }
    if (mine.length === 0) {
      lines.push(`NOT_RUN ${r.id}: no conformance case yet${tail}`);
      continue;
    }
    const why = mine.map((c) => {
      if (c.target === "http" && args.baseUrl === null) return "needs --base-url";
      if (c.target === "command" && args.command === null) return "needs --command";
      if (c.phase === "destructive" && !args.destructive) return "needs --destructive";
      return null;
    });
    const runs = why.filter((w) => w === null).length;
    if (runs > 0) runnable++;
    const state = runs > 0 ? "RUN" : "NOT_RUN";
    const reasons = [...new Set(why.filter((w) => w !== null))].join(", ");
    lines.push(
      `${state} ${r.id} [${r.check}] ${mine.length} case(s): ${
        mine.map((c) => `${c.id} (${c.phase})`).join(", ")
      }${reasons ? `; ${reasons}` : ""}${tail}`,
    );
  }
  lines.push(`${rules.length} rule(s) selected, ${runnable} would run, ${plan.length} case(s)`);
  return lines.join("\n");
}

if (import.meta.main) {
  Deno.exit(await runConformance(Deno.args));
}
