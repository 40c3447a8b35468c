/**
 * The reset notice of one downstream stream (a request's `signal`): set once when the client
 * resets the stream or closes its connection before the answer, or when the overload manager or
 * the stream duration limit ends it; whoever holds the stream (the router's upstream attempt, the
 * stream's timers) is told once.
 *
 * It does what the stream needed of an `AbortController` and its `AbortSignal`, without their
 * event-target machinery: every request makes one, and the controller, its signal and a listener
 * registration were about 700 bytes and several allocations per request on the HTTP/1.1 path
 * (`deno task bench alloc`). As with an abort signal, a listener added after the reset is never
 * called, a listener that throws does not stop the others, and a second reset does nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StreamReset } from "./stream_reset.ts";
 * const gone = new StreamReset();
 * const seen: string[] = [];
 * gone.onReset(() => seen.push("attempt"));
 * const either = StreamReset.any(gone, new StreamReset());
 * either.onReset(() => seen.push("either"));
 * gone.reset("client closed");
 * gone.reset("again");
 * assert.deepEqual(seen, ["attempt", "either"]);
 * assert.equal(either.aborted, true);
 * assert.equal(either.reason, "client closed");
 * ```
 * @module
 */

/** A one-shot reset notice with its listeners. */
export class StreamReset {
  #aborted = false;
  #reason: unknown = undefined;
  /** One listener is kept as is, more in a list: most streams have one or none. */
  #one: (() => void) | null = null;
  #more: (() => void)[] | null = null;

  /** The stream was reset. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why, as given to {@linkcode StreamReset.reset} (undefined before). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Calls `f` once when the stream is reset; never when it already was. */
  onReset(f: () => void): void {
    if (this.#aborted) return;
    if (this.#one === null) this.#one = f;
    else (this.#more ??= []).push(f);
  }

  /** Resets the stream with `reason` and tells the listeners in the order they came; once. */
  reset(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const one = this.#one;
    const more = this.#more;
    this.#one = null;
    this.#more = null;
    if (one !== null) call(one);
    if (more !== null) { for (const f of more) call(f); }
  }

  /** A notice reset when `a` or `b` is, with its reason; already reset when one of them is. */
  static any(a: StreamReset, b: StreamReset): StreamReset {
    const both = new StreamReset();
    for (const s of [a, b]) {
      if (s.aborted) {
        both.reset(s.reason);
        return both;
      }
    }
    a.onReset(() => both.reset(a.reason));
    b.onReset(() => both.reset(b.reason));
    return both;
  }
}

/** A listener's failure is its own: the others are still told. */
function call(f: () => void): void {
  try {
    f();
  } catch {
    // nothing to tell: the listener's owner reports its own failures
  }
}
