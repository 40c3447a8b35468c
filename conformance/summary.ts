/**
 * The honest count of a run: how many of the selected rules were really checked (PASS, FAIL,
 * ERROR, TIMEOUT), how many were not (NOT_APPLICABLE, NOT_RUN) and why, and how many results did
 * not match their expectation. Every report writer and the terminal summary read it from here.
 *
 * @example
 * ```ts
 * import { summarize, totalsLines } from "./summary.ts";
 * const s = summarize([]);
 * console.log(s.checked, s.selected); // 0 0
 * console.log(totalsLines({ implementation: { name: "x", version: "1", source: "none" }, results: [], strict: false }).join("\n"));
 * ```
 * @module
 */
import { CHECKED_STATUSES, countByStatus, isChecked, STATUS_ORDER } from "./types.ts";
import type { RuleResult, RunReport, Status } from "./types.ts";

/** Rules that were not checked for one reason. */
export interface NotCheckedReason {
  status: Status;
  reason: string;
  count: number;
}

/** The counts of a run. */
export interface Summary {
  /** Rules selected by the run's selectors. */
  selected: number;
  /** Rules really checked: PASS + FAIL + ERROR + TIMEOUT. */
  checked: number;
  /** Rules per status. */
  counts: Record<Status, number>;
  /** Results that did not match their expectation. */
  unexpected: number;
  /** Not-checked rules grouped by status and reason, the largest group first. */
  notChecked: NotCheckedReason[];
}

/**
 * The reason a not-checked rule gives, without the case ID prefix, first line only.
 *
 * @example
 * ```ts
 * import { reasonOf } from "./summary.ts";
 * reasonOf("[admin:x] the target lacks the optional feature tap\nmore"); // "the target lacks the optional feature tap"
 * ```
 */
export function reasonOf(message: string): string {
  return (message.split("\n")[0] ?? "").replace(/^\[[^\]]*\]\s*/, "").trim() || "no reason given";
}

/**
 * Counts a run's results.
 *
 * @param results per-rule results
 * @returns the summary
 * @example
 * ```ts
 * import { summarize } from "./summary.ts";
 * summarize([]).notChecked; // []
 * ```
 */
export function summarize(results: readonly RuleResult[]): Summary {
  const counts = countByStatus(results);
  const groups = new Map<string, NotCheckedReason>();
  for (const r of results) {
    if (isChecked(r.status)) continue;
    const reason = reasonOf(r.message);
    const key = `${r.status}\u0000${reason}`;
    const g = groups.get(key) ?? { status: r.status, reason, count: 0 };
    g.count++;
    groups.set(key, g);
  }
  return {
    selected: results.length,
    checked: CHECKED_STATUSES.reduce((n, s) => n + counts[s], 0),
    counts,
    unexpected: results.filter((r) => !r.ok).length,
    notChecked: [...groups.values()].sort((a, b) =>
      b.count - a.count || a.status.localeCompare(b.status) || a.reason.localeCompare(b.reason)
    ),
  };
}

/**
 * The breakdown of statuses as `PASS 3, FAIL 0, ...` (every status, in `STATUS_ORDER`).
 *
 * @example
 * ```ts
 * import { breakdown, summarize } from "./summary.ts";
 * breakdown(summarize([])); // "PASS 0, FAIL 0, ERROR 0, TIMEOUT 0, NOT_APPLICABLE 0, NOT_RUN 0"
 * ```
 */
export function breakdown(s: Summary): string {
  const order: Status[] = ["PASS", ...STATUS_ORDER.filter((x) => x !== "PASS")];
  return order.map((x) => `${x} ${s.counts[x]}`).join(", ");
}

/**
 * The totals printed at the end of every run: rules checked out of selected, the breakdown, the
 * largest groups of not-checked rules with their reasons, and whether every result matched.
 *
 * @param run the run (identity, results, strictness)
 * @param maxReasons how many reason groups to list
 * @returns lines of text
 * @example
 * ```ts
 * import { totalsLines } from "./summary.ts";
 * totalsLines({ implementation: { name: "x", version: "1", source: "none" }, results: [], strict: true });
 * ```
 */
export function totalsLines(
  run: Pick<RunReport, "implementation" | "results" | "strict">,
  maxReasons = 8,
): string[] {
  const s = summarize(run.results);
  const pct = s.selected === 0 ? 0 : Math.round((s.checked / s.selected) * 100);
  const out = [
    `${run.implementation.name} ${run.implementation.version}: checked ${s.checked} of ` +
    `${s.selected} selected rules (${pct}%); ${s.selected - s.checked} not checked`,
    `  ${breakdown(s)}`,
  ];
  for (const g of s.notChecked.slice(0, maxReasons)) {
    out.push(`  ${String(g.count).padStart(4)} ${g.status}: ${g.reason}`);
  }
  const rest = s.notChecked.slice(maxReasons).reduce((n, g) => n + g.count, 0);
  if (rest > 0) out.push(`  ${String(rest).padStart(4)} not checked for other reasons`);
  const mode = run.strict
    ? " (--strict: a not-checked rule must be listed in the expectations file)"
    : " (not-checked rules count as matching; --strict makes them count)";
  out.push(
    s.unexpected === 0
      ? `every result matched its expectation${mode}`
      : `${s.unexpected} result(s) did not match their expectation${mode}`,
  );
  return out;
}
