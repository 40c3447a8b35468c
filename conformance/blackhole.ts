/**
 * A TCP address on 127.0.0.1 where a connection never completes: a listening socket that never
 * accepts, its accept queue filled by the suite's own connections. Linux drops a SYN that finds
 * the accept queue full, so a further `connect` waits, retransmitting, until the caller gives
 * up: what an unreachable upstream looks like, without leaving loopback.
 *
 * The queue's length is the runtime's listen backlog; the suite fills it by connecting until a
 * connection does not complete within a second (one that completes later is kept as a filler too).
 *
 * @example
 * ```ts ignore
 * import assert from "node:assert/strict";
 * import { startBlackhole } from "./blackhole.ts";
 * await using b = await startBlackhole();
 * const attempt = Deno.connect({ hostname: "127.0.0.1", port: b.port });
 * const winner = await Promise.race([attempt.then(() => "connected"), b.wait(500).then(() => "waiting")]);
 * assert.equal(winner, "waiting");
 * ```
 * @module
 */

/** A running blackhole. */
export interface Blackhole extends AsyncDisposable {
  readonly port: number;
  /** How many connections fill its accept queue. */
  readonly fillers: number;
  /** Resolves after `ms` (a helper for races against a connect). */
  wait(ms: number): Promise<void>;
  /** Closes the listener (pending connects then fail) and the fillers. */
  close(): Promise<void>;
}

/** The most fillers tried: far above any listen backlog a runtime uses by default. */
const MAX_FILLERS = 8192;

/**
 * Starts a blackhole on 127.0.0.1 with a free port.
 *
 * @returns the blackhole, its accept queue full
 * @throws Error when the queue did not fill (a platform that accepts without a backlog limit)
 */
export async function startBlackhole(): Promise<Blackhole> {
  const hole = openBlackhole();
  await hole.filled;
  return hole;
}

/**
 * Opens a blackhole on 127.0.0.1 with a free port and fills its accept queue in the background,
 * so that a caller can use the port (write it into a bootstrap, start a target) while the queue
 * fills: the fill ends with a connect that does not complete within a second.
 *
 * @returns the blackhole at once; `filled` resolves when its queue is full (and rejects, the
 *   listener closed, when it did not fill)
 */
export function openBlackhole(): Blackhole & { readonly filled: Promise<void> } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const fillers: Deno.Conn[] = [];
  const pending: Promise<unknown>[] = [];
  const abort = new AbortController();
  // Pending waits, ended early (resolved) by close.
  const timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    });
  let closed = false;
  const fill = async () => {
    let full = false;
    while (!full && !closed && fillers.length < MAX_FILLERS) {
      const attempt = Deno.connect({ hostname: "127.0.0.1", port, signal: abort.signal });
      const kept = attempt.then((c) => closed ? c.close() : void fillers.push(c), () => {});
      const won = await Promise.race([kept.then(() => "connected" as const), wait(1000)]);
      if (won !== "connected") {
        full = true;
        pending.push(kept);
      }
    }
    if (!full && !closed) {
      await close();
      throw new Error(`the accept queue of 127.0.0.1:${port} did not fill`);
    }
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const [t, resolve] of timers) {
      clearTimeout(t);
      resolve();
    }
    timers.clear();
    abort.abort();
    listener.close();
    for (const c of fillers) {
      try {
        c.close();
      } catch { /* already closed */ }
    }
    await Promise.all(pending);
    for (const c of fillers.splice(0)) {
      try {
        c.close();
      } catch { /* already closed */ }
    }
  };
  const filled = fill();
  filled.catch(() => {}); // a caller that closes first does not await it
  return {
    port,
    get fillers() {
      return fillers.length;
    },
    filled,
    wait,
    close,
    [Symbol.asyncDispose]: close,
  };
}
