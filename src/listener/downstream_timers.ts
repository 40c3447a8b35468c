/**
 * The timers of one downstream HTTP connection and of the stream it is serving, as Envoy's
 * connection manager runs them:
 *
 * - `idle`: runs while the connection has no stream (`idle_timeout`);
 * - `max_duration`: from accept (`max_connection_duration`);
 * - `header`: from the first byte of a request until its head is complete
 *   (`request_headers_timeout`);
 * - `request`: from the first byte until the request is received in full or the response
 *   starts (`request_timeout`);
 * - `stream_idle`: from the first byte, pushed back by every read or write of the stream
 *   (`stream_idle_timeout`).
 *
 * Each firing is counted (`downstream_cx_idle_timeout`, `downstream_cx_max_duration_reached`,
 * `downstream_rq_header_timeout`, `downstream_rq_timeout`, `downstream_rq_idle_timeout`) and
 * reported to `onFire`; what it does to the connection is the codec's business.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ConnectionTimers } from "./downstream_timers.ts";
 * import { DEFAULT_LIMITS, limitCounters } from "./downstream_limits.ts";
 * import { Store } from "../stats/store.ts";
 * const store = new Store();
 * const t = new ConnectionTimers({ ...DEFAULT_LIMITS, idleTimeoutMs: 1 }, limitCounters(store, store));
 * const fired = await new Promise((resolve) => {
 *   t.onFire = resolve;
 *   t.start();
 * });
 * t.stop();
 * assert.equal(fired, "idle");
 * assert.equal(store.counter("downstream_cx_idle_timeout").value(), 1);
 * ```
 * @module
 */
import type { DownstreamLimits, LimitCounters } from "./downstream_limits.ts";

/** Which timer fired. */
export type TimerKind = "idle" | "max_duration" | "header" | "request" | "stream_idle";

/** The timers in the order they are checked when several are due at once. */
const KINDS: readonly TimerKind[] = ["max_duration", "idle", "header", "request", "stream_idle"];

/**
 * The timers of one connection. They share one `setTimeout`, armed for the earliest deadline
 * and moved only when a deadline comes earlier than it: a request that starts and ends within
 * the armed time arms nothing (a deadline that moved later is found not due when the timer
 * fires, and the timer is armed again for it).
 */
export class ConnectionTimers {
  /** Told of each timer that fires (after it is counted). */
  onFire: (kind: TimerKind) => void = () => {};
  /** Deadlines (ms, performance clock) by kind; Infinity when not running. */
  #at: Record<TimerKind, number> = {
    idle: Infinity,
    max_duration: Infinity,
    header: Infinity,
    request: Infinity,
    stream_idle: Infinity,
  };
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (Infinity: none armed). */
  #timerAt = Infinity;
  /** When the stream last saw activity (ms, performance clock). */
  #last = 0;
  /** The stream idle timeout of the current stream (a route may replace the limits' one). */
  #streamIdleMs = 0;
  #inStream = false;
  #stopped = false;

  /** Timers for `limits`, counted in `counters`. */
  constructor(readonly limits: DownstreamLimits, readonly counters: LimitCounters) {}

  /** Sets the deadline of `kind` to `ms` from `now` (none when `ms` is 0). */
  #set(kind: TimerKind, ms: number, now: number): void {
    const at = ms > 0 && !this.#stopped ? now + ms : Infinity;
    this.#at[kind] = at;
    if (at < this.#timerAt) this.#arm(at, now);
  }

  #arm(at: number, now: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#tick(), Math.max(1, Math.ceil(at - now)));
  }

  #tick(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    for (const kind of KINDS) {
      if (this.#stopped) return;
      const now = performance.now();
      if (this.#at[kind] > now) continue;
      if (kind === "stream_idle") {
        // Activity since the deadline was set pushes it back.
        const at = this.#last + this.#streamIdleMs;
        if (at > now) {
          this.#at.stream_idle = at;
          continue;
        }
      }
      this.#at[kind] = Infinity;
      this.#count(kind);
      this.onFire(kind);
    }
    if (this.#stopped) return;
    let next = Infinity;
    for (const kind of KINDS) next = Math.min(next, this.#at[kind]);
    if (next < Infinity) this.#arm(next, performance.now());
  }

  #count(kind: TimerKind): void {
    const c = this.counters;
    switch (kind) {
      case "idle":
        return c.cxIdleTimeout.inc();
      case "max_duration":
        return c.cxMaxDurationReached.inc();
      case "header":
        return c.rqHeaderTimeout.inc();
      case "request":
        return c.rqTimeout.inc();
      case "stream_idle":
        return c.rqIdleTimeout.inc();
    }
  }

  /** The connection was accepted. */
  start(): void {
    const now = performance.now();
    this.#set("max_duration", this.limits.maxConnectionDurationMs, now);
    this.#set("idle", this.limits.idleTimeoutMs, now);
  }

  /** True between {@linkcode streamStart} and {@linkcode streamEnd}. */
  get inStream(): boolean {
    return this.#inStream;
  }

  /**
   * The first byte of a request arrived: with `sinceActivity`, when the read that brought it was
   * reported by {@linkcode activity} just now (its time is taken, not the clock's).
   */
  streamStart(sinceActivity = false): void {
    if (this.#inStream) return;
    this.#inStream = true;
    this.#at.idle = Infinity;
    const l = this.limits;
    const now = sinceActivity ? this.#last : this.#last = performance.now();
    this.#set("header", l.requestHeadersTimeoutMs, now);
    this.#set("request", l.requestTimeoutMs, now);
    this.#streamIdleMs = l.streamIdleTimeoutMs;
    this.#set("stream_idle", l.streamIdleTimeoutMs, now);
  }

  /** Replaces the current stream's idle timeout (a route's `idle_timeout`; 0: none), from now. */
  setStreamIdleTimeout(ms: number): void {
    if (!this.#inStream) return;
    this.#streamIdleMs = ms;
    const now = this.#last = performance.now();
    this.#set("stream_idle", ms, now);
  }

  /** The request head is complete. */
  headDone(): void {
    this.#at.header = Infinity;
  }

  /** Bytes of the stream were read or written. */
  activity(): void {
    this.#last = performance.now();
  }

  /** The request was received in full, or the response started: `request_timeout` ends. */
  requestDone(): void {
    this.#at.request = Infinity;
  }

  /**
   * The stream ended; the connection is idle again (unless `closing`). With `sinceActivity`, the
   * write that ended it was reported by {@linkcode activity} just now (its time is taken).
   */
  streamEnd(closing: boolean, sinceActivity = false): void {
    this.#inStream = false;
    const at = this.#at;
    at.header = at.request = at.stream_idle = Infinity;
    if (closing) return;
    this.#set("idle", this.limits.idleTimeoutMs, sinceActivity ? this.#last : performance.now());
  }

  /** Stops every timer (the connection is gone, or handed to another codec). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const at = this.#at;
    at.idle =
      at.max_duration =
      at.header =
      at.request =
      at.stream_idle =
        Infinity;
  }
}
