/**
 * The worker side of {@linkcode ./offthread_regex.ts}: compiles an ECMAScript pattern and answers
 * which of the given strings it matches (partial match, as `RegExp.prototype.test`), one byte per
 * string. Runs on its own thread, so a pattern that backtracks for minutes only costs the worker,
 * which the caller terminates at its deadline.
 *
 * @module
 */

/** The request the worker takes. */
export interface RegexJob {
  pattern: string;
  names: readonly string[];
}

/**
 * The answers, in order: `started` when the worker took the job (its start-up is over), then
 * `hits` (`hits[i]` is 1 when `names[i]` matches) or the compile error.
 */
export type RegexAnswer = { started: true } | { hits: Uint8Array } | { error: string };

const scope = self as unknown as {
  onmessage: (ev: MessageEvent<RegexJob>) => void;
  postMessage(answer: RegexAnswer): void;
};

scope.onmessage = (ev) => {
  scope.postMessage({ started: true });
  let answer: RegexAnswer;
  try {
    const re = new RegExp(ev.data.pattern);
    const hits = new Uint8Array(ev.data.names.length);
    ev.data.names.forEach((n, i) => {
      hits[i] = re.test(n) ? 1 : 0;
    });
    answer = { hits };
  } catch (e) {
    answer = { error: e instanceof Error ? e.message : String(e) };
  }
  scope.postMessage(answer);
};
