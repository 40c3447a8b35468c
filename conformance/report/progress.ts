/**
 * Progress while the suite runs. On a terminal, a bar (`npm:cli-progress`) on stderr with the
 * case that just finished; otherwise (CI logs, pipes) one line per section when its last case
 * finishes, with the section's statuses, so a log shows where the run is without a bar's noise.
 * A section is the spec table of a case's first rule (`admin.endpoints`, `cluster.fields`, ...).
 *
 * @example
 * ```ts
 * import { sectionLines } from "./progress.ts";
 * const lines: string[] = [];
 * const p = sectionLines((l) => lines.push(l), () => "admin.endpoints");
 * ```
 * @module
 */
// @ts-types="@types/cli-progress"
import cliProgress from "cli-progress";
import type { Case, CaseResult, Status } from "../types.ts";
import { STATUS_ORDER } from "../types.ts";

/** What the runner reports progress to. */
export interface Progress {
  /** The cases about to run, in order. */
  start(plan: readonly Case[]): void;
  /** One case finished (`done` of `total`). */
  update(done: number, total: number, c: Case, r: CaseResult): void;
  /** The run finished: clear the bar, or say nothing more. */
  stop(): void;
}

/**
 * A progress bar on stderr drawn by `cli-progress` (only when stderr is a terminal; the package
 * itself draws nothing on a stream that is not one).
 *
 * @param sectionOf the section a case belongs to
 * @returns the progress sink
 * @example Not run: it draws a progress bar on the terminal.
 * ```ts ignore
 * import { progressBar } from "./progress.ts";
 * const bar = progressBar(() => "admin");
 * ```
 */
export function progressBar(sectionOf: (c: Case) => string): Progress {
  const bar = new cliProgress.SingleBar({
    format: "[{bar}] {value}/{total} cases | {eta_formatted} left | {section} {label}",
    barsize: 30,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
    fps: 10,
  }, cliProgress.Presets.shades_classic);
  let started = false;
  return {
    start(plan) {
      bar.start(plan.length, 0, { section: "", label: "" });
      started = true;
    },
    update(done, _total, c) {
      bar.update(done, { section: sectionOf(c), label: c.id.slice(0, 40) });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/**
 * One line per section when its last case finishes: the section, its case statuses, the overall
 * count, when the section ended (seconds since the run started) and the summed time of its cases,
 * e.g. `conformance: admin.endpoints: 45 case(s) done: PASS 44, FAIL 1 [120/433] at 12.3 s, cases
 * 30.1 s`. Sections run concurrently, so a section's line waits for those before it in the plan:
 * the lines come in plan order whatever finishes first. At the end, one line with the whole run's
 * time and its slowest cases, so a log shows where the time went.
 *
 * @param write where lines go (stderr)
 * @param sectionOf the section a case belongs to
 * @param now a clock in milliseconds (tests pass their own)
 * @returns the progress sink
 * @example
 * ```ts
 * import { sectionLines } from "./progress.ts";
 * const p = sectionLines(console.error, (c) => c.rules[0] ?? "");
 * ```
 */
export function sectionLines(
  write: (line: string) => void,
  sectionOf: (c: Case) => string,
  now: () => number = () => performance.now(),
): Progress {
  const left = new Map<string, number>();
  /** Sections in plan order, and the lines of finished ones not yet written. */
  const order: string[] = [];
  const finished = new Map<string, string>();
  const flush = () => {
    while (order.length > 0 && finished.has(order[0])) {
      write(finished.get(order[0])!);
      finished.delete(order.shift()!);
    }
  };
  const seen = new Map<string, Map<Status, number>>();
  const spent = new Map<string, number>();
  const slowest: CaseResult[] = [];
  let started = 0;
  let planned = 0;
  const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return {
    start(plan) {
      started = now();
      planned = plan.length;
      for (const c of plan) {
        const s = sectionOf(c);
        if (!left.has(s)) order.push(s);
        left.set(s, (left.get(s) ?? 0) + 1);
      }
      write(`conformance: ${plan.length} case(s) in ${left.size} section(s)`);
    },
    update(done, total, c, r) {
      const s = sectionOf(c);
      const counts = seen.get(s) ?? new Map<Status, number>();
      counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
      seen.set(s, counts);
      spent.set(s, (spent.get(s) ?? 0) + r.durationMs);
      slowest.push(r);
      slowest.sort((a, b) => b.durationMs - a.durationMs);
      slowest.length = Math.min(slowest.length, SLOWEST);
      const rest = (left.get(s) ?? 1) - 1;
      left.set(s, rest);
      if (rest > 0) return;
      const n = [...counts.values()].reduce((a, b) => a + b, 0);
      const parts = STATUS_ORDER.filter((x) => counts.has(x)).map((x) => `${x} ${counts.get(x)}`);
      finished.set(
        s,
        `conformance: ${s}: ${n} case(s) done: ${parts.join(", ")} [${done}/${total}] at ${
          secs(now() - started)
        }, cases ${secs(spent.get(s) ?? 0)}`,
      );
      flush();
    },
    stop() {
      for (const s of order) if (finished.has(s)) write(finished.get(s)!);
      if (planned === 0) return;
      const list = slowest.map((r) => `${r.caseId} ${secs(r.durationMs)}`).join(", ");
      write(
        `conformance: ${planned} case(s) in ${secs(now() - started)}; slowest: ${list}`,
      );
    },
  };
}

/** How many of the slowest cases the last progress line names. */
const SLOWEST = 5;
