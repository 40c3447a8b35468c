/**
 * Runs cases against a target and turns case outcomes into one result per rule. Read-only cases
 * against the server run first (a few at a time), then mutating ones one by one (each undoes its
 * change), then the destructive ones, only with `destructive`. Read-only command-line cases share
 * nothing with the server and run beside all of these in a pool of their own; given `prepare`,
 * they are first rehearsed (run against clients that reach nothing) so that work they share can
 * be done ahead in fewer processes. A rule ends with its cases combined by `STATUS_ORDER`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSuite } from "./runner.ts";
 * import { HttpClient } from "./http_client.ts";
 * import { CommandClient } from "./command_client.ts";
 * import { profile } from "./profile.ts";
 * const results = await runSuite({
 *   rules: [], cases: [], http: new HttpClient(null), command: new CommandClient(null),
 *   profile: profile("seed"), variant: "new", seed: 1, numRuns: 10, timeoutMs: 1000,
 *   destructive: false, expectations: [],
 * });
 * assert.deepEqual(results, []); // no rules selected
 * ```
 * @module
 */
import { AssertionError } from "node:assert";
import { allRules } from "../spec/mod.ts";
import type { TaggedRule } from "../spec/mod.ts";
import { expectationFor, meets } from "./expectations.ts";
import type { Expectation } from "./expectations.ts";
import { missingFixture, probeTarget } from "./probe.ts";
import type { ProbeResult } from "./probe.ts";
import { CaseFailure, NotApplicable, NotRun, STATUS_ORDER } from "./types.ts";
import type { CommandClient } from "./command_client.ts";
import { HttpClient } from "./http_client.ts";
import type { Case, CaseContext, CaseResult, Phase, RuleResult, Status } from "./types.ts";

/** Inputs of a run: the clients, profile, variant and fast-check settings every case gets, and more. */
export interface RunOptions
  extends Pick<CaseContext, "http" | "command" | "profile" | "variant" | "seed" | "numRuns"> {
  /** The selected rules. */
  rules: readonly TaggedRule[];
  /** Every case; those naming no selected rule are left out. */
  cases: readonly Case[];
  timeoutMs: number;
  destructive: boolean;
  expectations: readonly Expectation[];
  /** Called once with the cases about to run, in order. */
  onPlan?: (plan: readonly Case[]) => void;
  /** Called after each case. */
  onProgress?: (done: number, total: number, c: Case, r: CaseResult) => void;
  /** A probe done earlier (the CLI probes once to learn the identity); probed here otherwise. */
  probe?: ProbeResult;
  /** How many of the server's read-only cases run at once (default 8). */
  concurrency?: number;
  /**
   * How many read-only command-line cases run at once (default: the CPU count plus one, at most
   * `concurrency`): each starts processes, so more than the machine runs only makes each slower.
   */
  commandConcurrency?: number;
  /** A not-checked rule that the expectations do not list is unexpected (`--strict`). */
  strict?: boolean;
  /**
   * Does ahead what a rehearsal of the read-only command-line cases planned ({@linkcode rehearse}:
   * e.g. the validations they expect to be accepted, checked together in a few runs), before those
   * cases run for real. Without it there is no rehearsal.
   */
  prepare?: (command: CommandClient) => Promise<void>;
}

const PHASES: readonly Phase[] = ["read", "mutating", "destructive"];

/**
 * Orders the cases that name a selected rule: read, mutating, destructive; stable otherwise.
 *
 * @param cases every case
 * @param ruleIds the selected rule IDs
 * @returns the cases to run, in order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planCases } from "./runner.ts";
 * assert.deepEqual(planCases([], new Set(["admin.endpoints.ready"])), []);
 * ```
 */
export function planCases(cases: readonly Case[], ruleIds: ReadonlySet<string>): Case[] {
  const chosen = cases.filter((c) => c.rules.some((r) => ruleIds.has(r)));
  // Anything that may end the server (a wrong GET /quitquitquit, or the real one) goes last.
  const last = (c: Case) => Number(c.id.includes("quitquitquit"));
  return PHASES.flatMap((p) =>
    chosen.filter((c) => c.phase === p).sort((a, b) => last(a) - last(b))
  );
}

/**
 * Tells whether a case may end the server or take its listeners: a destructive one, or one about
 * /quitquitquit (a wrong GET of it ends a broken target).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mayEndServer } from "./runner.ts";
 * assert.equal(mayEndServer({ id: "x", title: "", rules: [], target: "http", phase: "read", run: async () => {} }), false);
 * ```
 */
export function mayEndServer(c: Case): boolean {
  return c.phase === "destructive" || c.id.includes("quitquitquit");
}

/** The CPU count plus one (a process that waits on I/O leaves a CPU to another). */
function defaultCommandConcurrency(): number {
  return (navigator.hardwareConcurrency || 1) + 1;
}

/**
 * Splits a plan into what may run concurrently and what must run alone, keeping plan order in
 * each list: read-only command-line cases that start a serving target (`serves`: mostly waiting),
 * the other read-only command-line cases (their own processes and files: they share nothing
 * with each other, and read only constant answers of the server), read-only cases against the
 * server, the mutating ones (alone), and those that may end the server (alone, after all else).
 *
 * @param plan the planned cases, as {@linkcode planCases} orders them
 * @returns the five lists
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { schedule } from "./runner.ts";
 * assert.deepEqual(schedule([]).last, []);
 * ```
 */
export function schedule(plan: readonly Case[]): {
  serving: Case[];
  commandReads: Case[];
  httpReads: Case[];
  mutating: Case[];
  last: Case[];
} {
  const read = (c: Case) => c.phase === "read" && !mayEndServer(c);
  return {
    serving: plan.filter((c) => read(c) && c.target === "command" && c.serves === true),
    commandReads: plan.filter((c) => read(c) && c.target === "command" && c.serves !== true),
    httpReads: plan.filter((c) => read(c) && c.target !== "command"),
    mutating: plan.filter((c) => !read(c) && !mayEndServer(c)),
    last: plan.filter(mayEndServer),
  };
}

/**
 * Why a case cannot run against this target, or null when it can.
 *
 * @returns a status and reason, or null
 */
export function gate(
  c: Case,
  opts: Pick<RunOptions, "http" | "command" | "destructive">,
  probe: ProbeResult,
  rulesById: ReadonlyMap<string, TaggedRule>,
): { status: Status; message: string } | null {
  if (c.target === "http" && !opts.http.available) {
    return { status: "NOT_RUN", message: "not run: no --base-url given" };
  }
  if (c.target === "command" && !opts.command.available) {
    return { status: "NOT_RUN", message: "not run: no --command given" };
  }
  if (c.phase === "destructive" && !opts.destructive) {
    return { status: "NOT_RUN", message: "not run: destructive, needs --destructive" };
  }
  if (c.requires && probe.decided.has(c.requires) && !probe.features.has(c.requires)) {
    return {
      status: "NOT_APPLICABLE",
      message: `the target lacks the optional feature ${c.requires}`,
    };
  }
  // A rule checked only where a named fixture is loaded gates the cases against the server; a
  // command case starts the target on a configuration of its own, which is that fixture.
  for (const id of c.target === "http" ? c.rules : []) {
    const check = rulesById.get(id)?.check ?? "";
    if (check.startsWith("fixture:")) {
      const why = missingFixture(probe, check.slice("fixture:".length));
      if (why) return { status: "NOT_APPLICABLE", message: why };
    }
  }
  return null;
}

/**
 * Runs one case with a timeout and its undos.
 *
 * @returns the case result
 */
export async function runCase(
  c: Case,
  opts: RunOptions,
  features: ReadonlySet<string>,
): Promise<CaseResult> {
  const started = performance.now();
  const ac = new AbortController();
  const http = opts.http.fork(ac.signal);
  const command = opts.command.fork(ac.signal);
  const undos: Array<() => Promise<void>> = [];
  const dirs: string[] = [];
  const ctx: CaseContext = {
    http,
    command,
    profile: opts.profile,
    variant: opts.variant,
    seed: opts.seed,
    numRuns: opts.numRuns,
    signal: ac.signal,
    onUndo: (fn) => void undos.push(fn),
    tempDir: async () => {
      const d = await Deno.makeTempDir({ prefix: "conformance-" });
      dirs.push(d);
      return d;
    },
    features: features as CaseContext["features"],
  };
  let status: Status = "PASS";
  let message = "";
  let counterexample: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), opts.timeoutMs);
  });
  try {
    const outcome = await Promise.race([c.run(ctx).then(() => "done" as const), timeout]);
    if (outcome === "timeout") {
      status = "TIMEOUT";
      message = `the case did not finish within ${opts.timeoutMs} ms`;
      ac.abort();
    }
  } catch (e) {
    ({ status, message, counterexample } = classify(e));
  } finally {
    clearTimeout(timer);
  }
  for (const undo of undos.reverse()) {
    try {
      await undo();
    } catch (e) {
      if (status === "PASS") status = "ERROR";
      message += `${message ? "\n" : ""}undo failed: ${(e as Error).message}`;
    }
  }
  for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  const result: CaseResult = {
    caseId: c.id,
    title: c.title,
    status,
    message,
    durationMs: Math.round(performance.now() - started),
    repro: [...command.log, ...http.log].reverse().slice(0, 5),
  };
  if (counterexample !== undefined) result.counterexample = counterexample;
  return result;
}

/**
 * Runs cases with clients that reach nothing (a rehearsal): the command client runs no process
 * and the HTTP client has no base URL, so a case goes only as far as it can without the target.
 * Shared helpers a case calls on the way may note what it will need (`validate` in
 * `cases/cluster_validate.ts` notes the bootstraps it expects to be accepted), so that
 * {@linkcode RunOptions.prepare} can do that work ahead in fewer runs. Outcomes are discarded;
 * each case has `ms` at most.
 *
 * @param cases the cases to rehearse
 * @param opts the run's options
 * @param features the target's optional features
 * @param ms the longest a case's rehearsal may take
 * @example
 * ```ts
 * import { rehearse } from "./runner.ts";
 * import { HttpClient } from "./http_client.ts";
 * import { CommandClient } from "./command_client.ts";
 * import { profile } from "./profile.ts";
 * await rehearse([], {
 *   rules: [], cases: [], http: new HttpClient(null), command: new CommandClient(null),
 *   profile: profile("seed"), variant: "new", seed: 1, numRuns: 10, timeoutMs: 1000,
 *   destructive: false, expectations: [],
 * }, new Set());
 * ```
 */
export async function rehearse(
  cases: readonly Case[],
  opts: RunOptions,
  features: ReadonlySet<string>,
  ms = 2000,
): Promise<void> {
  const quiet: RunOptions = {
    ...opts,
    http: new HttpClient(null),
    command: opts.command.fork(undefined, true),
    timeoutMs: ms,
  };
  for (const c of cases) await runCase(c, quiet, features);
}

function classify(e: unknown): { status: Status; message: string; counterexample?: string } {
  if (e instanceof NotApplicable) return { status: "NOT_APPLICABLE", message: e.message };
  if (e instanceof NotRun) return { status: "NOT_RUN", message: e.message };
  if (e instanceof CaseFailure) {
    return { status: "FAIL", message: e.message, counterexample: e.counterexample };
  }
  if (e instanceof AssertionError) return { status: "FAIL", message: e.message };
  if (e instanceof DOMException && (e.name === "TimeoutError" || e.name === "AbortError")) {
    return { status: "TIMEOUT", message: `a request timed out: ${e.message}` };
  }
  const err = e as Error;
  return { status: "ERROR", message: `${err?.name ?? "Error"}: ${err?.message ?? String(e)}` };
}

/**
 * Runs the suite and returns one result per selected rule.
 *
 * @param opts what to run and against what
 * @returns per-rule results, in rule order
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runSuite } from "./runner.ts";
 * import { HttpClient } from "./http_client.ts";
 * import { CommandClient } from "./command_client.ts";
 * import { profile } from "./profile.ts";
 * const results = await runSuite({
 *   rules: [], cases: [], http: new HttpClient(null), command: new CommandClient(null),
 *   profile: profile("seed"), variant: "new", seed: 1, numRuns: 10, timeoutMs: 1000,
 *   destructive: false, expectations: [],
 * });
 * assert.equal(results.length, 0);
 * ```
 */
export async function runSuite(opts: RunOptions): Promise<RuleResult[]> {
  const probe = opts.probe ?? await probeTarget(opts.http);
  // A case's fixture gate reads every rule it names, selected or not: GET /tap names the tap
  // endpoint's rule (fixture:tap) and the general mutation rules, and must be gated alike.
  const rulesById = new Map([...allRules(), ...opts.rules].map((r) => [r.id, r]));
  const runnable = opts.rules.filter((r) => r.check !== "internal").map((r) => r.id);
  const plan = planCases(opts.cases, new Set(runnable));
  opts.onPlan?.(plan);
  const caseResults = new Map<string, CaseResult>();
  let done = 0;
  const finish = (c: Case, r: CaseResult) => {
    caseResults.set(c.id, r);
    opts.onProgress?.(++done, plan.length, c, r);
  };
  const one = async (c: Case) => {
    const g = gate(c, opts, probe, rulesById);
    if (g) {
      finish(c, { caseId: c.id, title: c.title, ...g, durationMs: 0, repro: [] });
    } else {
      finish(c, await runCase(c, opts, probe.features));
    }
  };
  const { serving, commandReads, httpReads, mutating, last } = schedule(plan);
  const pool = async (list: readonly Case[], width: number) => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.max(1, width) }, async () => {
      while (next < list.length) await one(list[next++]);
    }));
  };
  const width = opts.concurrency ?? 8;
  const processes = Math.min(width, opts.commandConcurrency ?? defaultCommandConcurrency());
  // Command-line cases start their own processes on their own files and change nothing on the
  // server: they run in their own pool beside the server's cases. Those that serve traffic spend
  // most of their time waiting (intervals, timeouts), so they get a pool of their own too. The
  // server's read-only cases come first, then the mutating ones one at a time; whatever may end
  // the server waits for all.
  await Promise.all([
    pool(serving, processes),
    (async () => {
      if (opts.prepare && opts.command.available) {
        const runnable = commandReads.filter((c) => gate(c, opts, probe, rulesById) === null);
        await rehearse(runnable, opts, probe.features);
        await opts.prepare(opts.command);
      }
      await pool(commandReads, processes);
    })(),
    (async () => {
      await pool(httpReads, width);
      for (const c of mutating) await one(c);
    })(),
  ]);
  for (const c of last) await one(c);
  return opts.rules.map((rule) =>
    ruleResult(rule, plan, caseResults, opts.expectations, opts.strict ?? false)
  );
}

/**
 * Combines the results of the cases naming a rule, and compares with the expectation.
 *
 * @returns the rule's result
 */
export function ruleResult(
  rule: TaggedRule,
  plan: readonly Case[],
  caseResults: ReadonlyMap<string, CaseResult>,
  expectations: readonly Expectation[],
  strict = false,
): RuleResult {
  const cases = plan.filter((c) => c.rules.includes(rule.id))
    .map((c) => caseResults.get(c.id))
    .filter((r): r is CaseResult => r !== undefined);
  let status: Status;
  let message: string;
  if (rule.check === "internal") {
    status = "NOT_RUN";
    message = "internal: the rule cannot be checked from outside an implementation";
  } else if (cases.length === 0) {
    status = "NOT_RUN";
    message = "no conformance case checks this rule yet";
  } else {
    status = STATUS_ORDER.find((s) => cases.some((c) => c.status === s)) ?? "PASS";
    const worst = cases.filter((c) => c.status === status);
    message = status === "PASS" ? "" : worst.map((c) => `[${c.caseId}] ${c.message}`).join("\n");
  }
  const exp = expectationFor(expectations, rule.id);
  const worstCase = cases.find((c) => c.status === status);
  const result: RuleResult = {
    rule: rule.id,
    table: rule.table,
    level: rule.level,
    statement: rule.statement,
    section: rule.cite.section,
    quote: rule.cite.quote,
    status,
    expected: exp?.status ?? "PASS",
    ok: meets(status, exp, { strict, internal: rule.check === "internal" }),
    check: rule.check,
    message,
    durationMs: cases.reduce((n, c) => n + c.durationMs, 0),
    repro: worstCase?.repro ?? [],
    cases,
  };
  if (exp?.reason) result.expectedReason = exp.reason;
  const ce = cases.find((c) => c.counterexample !== undefined)?.counterexample;
  if (ce !== undefined) result.counterexample = ce;
  return result;
}
