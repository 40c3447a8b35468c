/**
 * Evaluates an ECMAScript regular expression (which may backtrack exponentially) over a list of
 * strings on a worker thread, with a deadline: when the worker has not answered in time it is
 * terminated and the caller gets `timedOut`. The serving thread never runs the pattern, so
 * `/ready` and proxied requests keep being answered meanwhile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchOffThread } from "./offthread_regex.ts";
 * const r = await matchOffThread("(?<=a)b", ["ab", "cb"], 5000);
 * assert.ok(r.ok);
 * assert.deepEqual([...r.matched], ["ab"]);
 * ```
 * @module
 */
import type { RegexAnswer } from "./regex_worker.ts";
import { entryUrl } from "./entry_url.ts";

/**
 * How long the ECMAScript stats filter's evaluation may take once the worker has started, in
 * milliseconds; the serving thread never waits on it.
 */
export const OFFTHREAD_REGEX_DEADLINE_MS = 5000;

/**
 * How long the worker may take to start (load its module) before the job is given up: start-up
 * does not depend on the pattern, and on a busy machine it can take seconds.
 */
export const OFFTHREAD_REGEX_START_MS = 30_000;

/** The strings that matched, or why there is no answer. */
export type OffThreadResult =
  | { ok: true; matched: ReadonlySet<string> }
  | { ok: false; timedOut: boolean; error: string };

/**
 * Matches `pattern` against each of `names` on a worker; resolves within about `deadlineMs` of
 * the worker taking the job (its start is bounded by {@linkcode OFFTHREAD_REGEX_START_MS}).
 */
export function matchOffThread(
  pattern: string,
  names: readonly string[],
  deadlineMs: number = OFFTHREAD_REGEX_DEADLINE_MS,
): Promise<OffThreadResult> {
  const worker = new Worker(entryUrl("regexWorker"), { type: "module" });
  return new Promise<OffThreadResult>((resolve) => {
    const giveUp = (ms: number, what: string) =>
      setTimeout(() => {
        worker.terminate();
        resolve({ ok: false, timedOut: true, error: `${what} did not finish within ${ms} ms` });
      }, ms);
    let timer = giveUp(OFFTHREAD_REGEX_START_MS, "the evaluation worker's start");
    const done = (r: OffThreadResult) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(r);
    };
    worker.onmessage = (ev: MessageEvent<RegexAnswer>) => {
      const a = ev.data;
      if ("started" in a) {
        clearTimeout(timer);
        timer = giveUp(deadlineMs, "evaluation");
        return;
      }
      if ("error" in a) return done({ ok: false, timedOut: false, error: a.error });
      const matched = new Set<string>();
      names.forEach((n, i) => {
        if (a.hits[i] === 1) matched.add(n);
      });
      done({ ok: true, matched });
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      done({ ok: false, timedOut: false, error: ev.message });
    };
    worker.postMessage({ pattern, names });
  });
}
