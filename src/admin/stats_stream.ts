/**
 * Streams a large admin body: a `ReadableStream` that runs a chunk generator a slice at a time
 * and returns to the event loop between slices, so a 10,000-cluster `/stats` neither holds its
 * whole body in memory nor keeps `/ready` waiting.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkStream } from "./stats_stream.ts";
 * const body = chunkStream(() => true, () => ["a", "", "b"][Symbol.iterator]());
 * assert.equal(await new Response(body).text(), "ab");
 * ```
 * @module
 */

/** Longest stretch of synchronous work before the stream yields to the event loop, in ms. */
export const SLICE_MS = 8;

/**
 * Waits one event-loop turn (timers and I/O run).
 *
 * @example
 * ```ts
 * import { nextTurn } from "./stats_stream.ts";
 * await nextTurn();
 * ```
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * A byte stream of the chunks `start()` yields. `prepare()` is called first, repeatedly with
 * event-loop turns in between, until it returns true (bounded index work such as sorting new
 * stats). Empty chunks are not sent; they only mark places where the stream may pause. Cancelling
 * the stream (client gone) stops the generator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chunkStream } from "./stats_stream.ts";
 * function* lines() {
 *   for (let i = 0; i < 3; i++) yield `line ${i}\n`;
 * }
 * assert.equal(
 *   await new Response(chunkStream(() => true, lines)).text(),
 *   "line 0\nline 1\nline 2\n",
 * );
 * ```
 */
export function chunkStream(
  prepare: () => boolean,
  start: () => Iterator<string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let it: Iterator<string> | undefined;
  let since = performance.now();
  const pause = async () => {
    if (performance.now() - since < SLICE_MS) return;
    await nextTurn();
    since = performance.now();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (it === undefined) {
        while (!prepare()) await nextTurn();
        since = performance.now();
        it = start();
      }
      for (;;) {
        await pause();
        const r = it.next();
        if (r.done) {
          controller.close();
          return;
        }
        if (r.value !== "") {
          controller.enqueue(encoder.encode(r.value));
          return;
        }
      }
    },
    cancel() {
      it?.return?.();
    },
  });
}
