/**
 * `HttpConnectionManager.delayed_close_timeout` (Envoy's default 1 s; 0: close at once): once
 * the proxy has decided to end a connection and has written its last bytes, it ends its side
 * (FIN: a client reading to the end sees it at once) and reads and drops what the client still
 * sends until the client closes too, for at most the timeout. Closing with bytes still arriving
 * would answer them with a reset, which a client still writing (an upload answered early, a
 * pipelined request, HTTP/2 frames in flight) takes as an error. Differs from Envoy in ending
 * its side first; Envoy keeps it open while it waits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DELAYED_CLOSE_MS } from "./delayed_close.ts";
 * assert.equal(DELAYED_CLOSE_MS, 1000); // Envoy's default
 * ```
 * @module
 */

/** Envoy's default `delayed_close_timeout`. */
export const DELAYED_CLOSE_MS = 1000;

/** What {@linkcode lingerClose} needs of a connection. */
export interface Lingering {
  read(b: Uint8Array): Promise<number | null>;
  closeWrite(): Promise<void>;
  close(): void;
}

/**
 * Ends the proxy's side of `conn`, drops what arrives until the client closes or `ms` have
 * passed, then closes it. `pending` is a read already in flight (its bytes are dropped too);
 * `rx` is told of every byte read. True when the time ran out first.
 */
export async function lingerClose(
  conn: Lingering,
  ms: number,
  buf: Uint8Array,
  rx?: (n: number) => void,
  pending?: Promise<boolean> | null,
): Promise<boolean> {
  try {
    await conn.closeWrite();
  } catch {
    close(conn);
    return false;
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    close(conn);
  }, ms);
  try {
    if (pending && !(await pending)) return timedOut;
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      rx?.(n);
    }
  } catch {
    /* closed by the timer, by the listener, or reset */
  } finally {
    clearTimeout(timer);
    close(conn);
  }
  return timedOut;
}

function close(conn: Lingering): void {
  try {
    conn.close();
  } catch { /* closed */ }
}
