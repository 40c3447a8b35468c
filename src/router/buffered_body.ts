/**
 * A request body read ahead up to a limit, for what must send it more than once (retries,
 * shadows, internal redirects): the whole of it when it fits, else a stream that replays what
 * was read and goes on with the rest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bufferUpTo, bytesStream } from "./buffered_body.ts";
 * const whole = await bufferUpTo(bytesStream(new Uint8Array([1, 2, 3])), 8);
 * assert.ok("bytes" in whole && whole.bytes.length === 3);
 * const over = await bufferUpTo(bytesStream(new Uint8Array(16)), 8);
 * assert.ok("stream" in over);
 * assert.equal((await new Response(over.stream).arrayBuffer()).byteLength, 16);
 * ```
 * @module
 */

import type { MemoryAccount } from "../http/memory_account.ts";

/** A body read whole, or (over the limit) a stream of all of it. */
export type Buffered = { bytes: Uint8Array } | { stream: ReadableStream<Uint8Array> };

/** Reads `body` up to `limit` bytes: the whole of it, or a stream that replays what was read. */
export async function bufferUpTo(
  body: ReadableStream<Uint8Array>,
  limit: number,
  account?: MemoryAccount,
): Promise<Buffered> {
  const rd = body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) break;
    chunks.push(value);
    n += value.length;
    account?.charge(value.length);
    if (n > limit) {
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          if (i < chunks.length) return ctrl.enqueue(chunks[i++]);
          const r = await rd.read();
          if (r.done) ctrl.close();
          else ctrl.enqueue(r.value);
        },
        cancel(reason) {
          return rd.cancel(reason);
        },
      }, { highWaterMark: 0 });
      return { stream };
    }
  }
  const bytes = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.length;
  }
  return { bytes };
}

/** A stream of `b` in one chunk. */
export function bytesStream(b: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(ctrl) {
      if (b.length > 0) ctrl.enqueue(b);
      ctrl.close();
    },
  });
}
