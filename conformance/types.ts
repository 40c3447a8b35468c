/**
 * The vocabulary of the conformance suite: statuses, cases, the context a case runs in, and the
 * per-rule results the reports are written from.
 *
 * A {@linkcode Case} names the rule IDs it checks; the runner gives every selected rule one
 * {@linkcode RuleResult}, its cases combined by {@linkcode STATUS_ORDER}.
 *
 * @example
 * ```ts
 * import type { Case } from "./types.ts";
 * const c: Case = {
 *   id: "ready-answers",
 *   title: "GET /ready answers",
 *   rules: ["admin.endpoints.ready"],
 *   target: "http",
 *   phase: "read",
 *   run: async (ctx) => {
 *     await ctx.http.request("GET", "/ready");
 *   },
 * };
 * ```
 * @module
 */
import type { Feature } from "../spec/rule.ts";
import type { HttpClient } from "./http_client.ts";
import type { CommandClient } from "./command_client.ts";
import type { Profile } from "./profile.ts";

/**
 * Outcome of a rule (or a case). PASS, FAIL, ERROR and TIMEOUT mean the rule was checked;
 * NOT_APPLICABLE means it does not apply to this target (an optional feature or fixture it lacks,
 * with the reason); NOT_RUN means this run did not check it (an internal rule, no case yet, no
 * `--base-url`/`--command`, no `--destructive`).
 */
export type Status = "PASS" | "FAIL" | "ERROR" | "TIMEOUT" | "NOT_APPLICABLE" | "NOT_RUN";

/**
 * Every status, from the worst to the mildest, used to combine the cases of one rule: any failure
 * wins; a rule passes when a case passed and none failed; NOT_APPLICABLE only when no case ran.
 */
export const STATUS_ORDER: readonly Status[] = [
  "FAIL",
  "ERROR",
  "TIMEOUT",
  "PASS",
  "NOT_APPLICABLE",
  "NOT_RUN",
];

/** The statuses of a rule that was really checked against the target. */
export const CHECKED_STATUSES: readonly Status[] = ["PASS", "FAIL", "ERROR", "TIMEOUT"];

/**
 * Tells whether a status means the rule was really checked (PASS, FAIL, ERROR, TIMEOUT).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isChecked } from "./types.ts";
 * assert.equal(isChecked("NOT_RUN"), false);
 * ```
 */
export function isChecked(s: Status): boolean {
  return CHECKED_STATUSES.includes(s);
}

/**
 * Names older expectations files use, read as the current ones: SKIP is NOT_RUN and
 * PRECONDITION_FAILED is NOT_APPLICABLE.
 */
export const STATUS_ALIASES: Readonly<Record<string, Status>> = {
  SKIP: "NOT_RUN",
  PRECONDITION_FAILED: "NOT_APPLICABLE",
};

/** What a case talks to: the admin interface (`--base-url`) or the binary (`--command`). */
export type Target = "http" | "command";

/** When a case runs: read-only ones first, then mutating ones (which undo), destructive last. */
export type Phase = "read" | "mutating" | "destructive";

/** The context handed to a running case. */
export interface CaseContext {
  /** Client for the admin interface; throws {@linkcode NotApplicable} when no base URL was given. */
  http: HttpClient;
  /** Runner of the target binary; throws {@linkcode NotApplicable} when no command was given. */
  command: CommandClient;
  /** Maps the specification's visible names to the target's (`proxy.` ↔ `envoy.`). */
  profile: Profile;
  variant: "new" | "v2";
  /** Seed and number of runs for fast-check properties. */
  seed: number;
  numRuns: number;
  /** Aborted when the case times out. */
  signal: AbortSignal;
  /** Registers a function that undoes a change; undos run in reverse order after the case. */
  onUndo(fn: () => Promise<void>): void;
  /** A fresh temporary directory for files the case writes; removed by the runner. */
  tempDir(): Promise<string>;
  /** Optional features the target was found to have. */
  features: ReadonlySet<Feature>;
}

/** One executable check. */
export interface Case {
  /** Unique, stable within one suite version. */
  id: string;
  title: string;
  /** Rule IDs this case checks (rows of `spec/`). */
  rules: readonly string[];
  target: Target;
  phase: Phase;
  /** An optional feature the case needs; absent → NOT_APPLICABLE. */
  requires?: Feature;
  /**
   * The case starts a target that serves traffic and waits on it (health-check intervals,
   * timeouts): it runs in a pool of its own, beside the short command-line cases.
   */
  serves?: boolean;
  run(ctx: CaseContext): Promise<void>;
}

/**
 * Thrown by a case when the rule does not apply to this target (it lacks an optional feature or
 * the fixture the case needs): NOT_APPLICABLE with the message as the reason, not FAIL.
 */
export class NotApplicable extends Error {
  /** @param message why the rule does not apply */
  constructor(message: string) {
    super(message);
    this.name = "NotApplicable";
  }
}

/** Thrown when this run lacks what a case needs (no `--base-url`, no `--command`): NOT_RUN. */
export class NotRun extends Error {
  /** @param message what the run lacks */
  constructor(message: string) {
    super(message);
    this.name = "NotRun";
  }
}

/** Thrown by a case that found the target wrong; carries a counterexample for properties. */
export class CaseFailure extends Error {
  /** The smallest failing input of a property, rendered for people. */
  counterexample?: string;
  /**
   * @param message expected vs actual
   * @param counterexample the failing input, when a property failed
   */
  constructor(message: string, counterexample?: string) {
    super(message);
    this.name = "CaseFailure";
    if (counterexample !== undefined) this.counterexample = counterexample;
  }
}

/** The outcome of one case. */
export interface CaseResult {
  caseId: string;
  title: string;
  status: Status;
  message: string;
  durationMs: number;
  counterexample?: string;
  /** `curl` or command lines that reproduce what the case sent, last first. */
  repro: string[];
}

/** The outcome of one rule, with what was expected of it. */
export interface RuleResult {
  rule: string;
  table: string;
  level: string;
  statement: string;
  section: string;
  quote: string;
  status: Status;
  /** Expected status from the expectations file (PASS when unlisted). */
  expected: Status;
  expectedReason?: string;
  /**
   * True when `status` matches `expected`. An unlisted rule that was not checked (NOT_APPLICABLE,
   * NOT_RUN) matches, except under `--strict` (where only internal rules still do).
   */
  ok: boolean;
  /** The rule's `check` column (`internal` rules cannot be checked from outside). */
  check: string;
  message: string;
  durationMs: number;
  counterexample?: string;
  repro: string[];
  cases: CaseResult[];
}

/** Everything a report writer needs. */
export interface RunReport {
  suite: { name: string; version: string };
  implementation: { name: string; version: string; source: string };
  arguments: string[];
  seed: number;
  numRuns: number;
  startedAt: string;
  finishedAt: string;
  results: RuleResult[];
  /** Expectations that named rules not in this run (listed, not an error). */
  unmatchedExpectations: string[];
  /** `--strict`: a not-checked rule the expectations file does not list is unexpected. */
  strict: boolean;
}

/**
 * Count of rules per status.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countByStatus } from "./types.ts";
 * assert.equal(countByStatus([]).PASS, 0);
 * ```
 */
export function countByStatus(results: readonly RuleResult[]): Record<Status, number> {
  const counts: Record<Status, number> = {
    PASS: 0,
    FAIL: 0,
    ERROR: 0,
    TIMEOUT: 0,
    NOT_APPLICABLE: 0,
    NOT_RUN: 0,
  };
  for (const r of results) counts[r.status]++;
  return counts;
}
