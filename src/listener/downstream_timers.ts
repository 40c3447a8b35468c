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
 * const t = new ConnectionTimers({ ...DEFAULT_LIMITS, idleTimeoutMs: 1 }, limitCounters(store));
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

type Handle = ReturnType<typeof setTimeout> | undefined;

/** The timers of one connection. */
export class ConnectionTimers {
  /** Told of each timer that fires (after it is counted). */
  onFire: (kind: TimerKind) => void = () => {};
  #idle: Handle;
  #maxDuration: Handle;
  #header: Handle;
  #request: Handle;
  #streamIdle: Handle;
  /** When the stream last saw activity (ms, performance clock). */
  #last = 0;
  /** The stream idle timeout of the current stream (a route may replace the limits' one). */
  #streamIdleMs = 0;
  #inStream = false;
  #stopped = false;

  /** Timers for `limits`, counted in `counters`. */
  constructor(readonly limits: DownstreamLimits, readonly counters: LimitCounters) {}

  #arm(ms: number, kind: TimerKind): Handle {
    if (ms <= 0 || this.#stopped) return undefined;
    return setTimeout(() => this.#fire(kind), ms);
  }

  #fire(kind: TimerKind): void {
    const c = this.counters;
    switch (kind) {
      case "idle":
        this.#idle = undefined;
        c.cxIdleTimeout.inc();
        break;
      case "max_duration":
        this.#maxDuration = undefined;
        c.cxMaxDurationReached.inc();
        break;
      case "header":
        this.#header = undefined;
        c.rqHeaderTimeout.inc();
        break;
      case "request":
        this.#request = undefined;
        c.rqTimeout.inc();
        break;
      case "stream_idle": {
        // Activity since arming pushes the deadline back instead of re-arming on every byte.
        const left = this.#last + this.#streamIdleMs - performance.now();
        if (left > 0) {
          this.#streamIdle = this.#arm(Math.ceil(left), "stream_idle");
          return;
        }
        this.#streamIdle = undefined;
        c.rqIdleTimeout.inc();
        break;
      }
    }
    this.onFire(kind);
  }

  /** The connection was accepted. */
  start(): void {
    this.#maxDuration = this.#arm(this.limits.maxConnectionDurationMs, "max_duration");
    this.#idle = this.#arm(this.limits.idleTimeoutMs, "idle");
  }

  /** True between {@linkcode streamStart} and {@linkcode streamEnd}. */
  get inStream(): boolean {
    return this.#inStream;
  }

  /** The first byte of a request arrived. */
  streamStart(): void {
    if (this.#inStream) return;
    this.#inStream = true;
    clearTimeout(this.#idle);
    this.#idle = undefined;
    const l = this.limits;
    this.#last = performance.now();
    this.#header = this.#arm(l.requestHeadersTimeoutMs, "header");
    this.#request = this.#arm(l.requestTimeoutMs, "request");
    this.#streamIdleMs = l.streamIdleTimeoutMs;
    this.#streamIdle = this.#arm(l.streamIdleTimeoutMs, "stream_idle");
  }

  /** Replaces the current stream's idle timeout (a route's `idle_timeout`; 0: none), from now. */
  setStreamIdleTimeout(ms: number): void {
    if (!this.#inStream) return;
    clearTimeout(this.#streamIdle);
    this.#streamIdleMs = ms;
    this.#last = performance.now();
    this.#streamIdle = this.#arm(ms, "stream_idle");
  }

  /** The request head is complete. */
  headDone(): void {
    clearTimeout(this.#header);
    this.#header = undefined;
  }

  /** Bytes of the stream were read or written. */
  activity(): void {
    this.#last = performance.now();
  }

  /** The request was received in full, or the response started: `request_timeout` ends. */
  requestDone(): void {
    clearTimeout(this.#request);
    this.#request = undefined;
  }

  /** The stream ended; the connection is idle again (unless `closing`). */
  streamEnd(closing: boolean): void {
    this.#inStream = false;
    for (const h of [this.#header, this.#request, this.#streamIdle]) clearTimeout(h);
    this.#header = this.#request = this.#streamIdle = undefined;
    if (!closing) this.#idle = this.#arm(this.limits.idleTimeoutMs, "idle");
  }

  /** Stops every timer (the connection is gone, or handed to another codec). */
  stop(): void {
    this.#stopped = true;
    for (
      const h of [this.#idle, this.#maxDuration, this.#header, this.#request, this.#streamIdle]
    ) {
      clearTimeout(h);
    }
    this.#idle =
      this.#maxDuration =
      this.#header =
      this.#request =
      this.#streamIdle =
        undefined;
  }
}
