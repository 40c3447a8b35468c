/**
 * The TCP proxy's connection timers, as Envoy runs them (`source/common/tcp_proxy`):
 *
 * - `idle_timeout` (default 1 hour, 0 disables): once the upstream connection is up, the
 *   connection is closed when no byte was sent on either side for that long;
 * - `max_downstream_connection_duration` (unset: none): the connection is closed that long after
 *   it was accepted.
 *
 * Activity only stores a timestamp ({@linkcode TcpTimers.activity}); the one idle timer of a
 * connection is armed for the whole period and, when it fires early because bytes flowed
 * meanwhile, is armed again for what is left. So a busy connection costs no timer work per chunk.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TcpTimers } from "./tcp_timers.ts";
 * const fired: string[] = [];
 * const t = new TcpTimers({ idleTimeoutMs: 0, maxDurationMs: 0 }, (k) => fired.push(k));
 * t.start();
 * t.upstreamConnected();
 * t.activity();
 * t.stop();
 * assert.deepEqual(fired, []); // both disabled: nothing is armed
 * ```
 * @module
 */

/** Envoy's default TCP proxy `idle_timeout`: one hour. */
export const TCP_IDLE_TIMEOUT_DEFAULT_MS = 3_600_000;

/** The timeouts of one TCP proxy, in milliseconds; 0 disables one. */
export interface TcpTimeouts {
  /** `idle_timeout`: no byte sent on either side for this long. */
  idleTimeoutMs: number;
  /** `max_downstream_connection_duration`: since the connection was accepted. */
  maxDurationMs: number;
}

/** Which timer fired. */
export type TcpTimerKind = "idle" | "max_duration";

/** The timers of one proxied connection; `onFire` runs at most once. */
export class TcpTimers {
  #last = 0;
  #idle: ReturnType<typeof setTimeout> | undefined;
  #duration: ReturnType<typeof setTimeout> | undefined;
  #done = false;

  /** Timers for `t`; `onFire` closes the connection. */
  constructor(readonly t: TcpTimeouts, readonly onFire: (kind: TcpTimerKind) => void) {}

  /** The connection was accepted: the duration limit starts. */
  start(): void {
    if (this.t.maxDurationMs > 0 && !this.#done) {
      this.#duration = setTimeout(() => this.#fire("max_duration"), this.t.maxDurationMs);
    }
  }

  /** The upstream connection is up: the idle timer starts. */
  upstreamConnected(): void {
    if (this.t.idleTimeoutMs <= 0 || this.#done) return;
    this.#last = performance.now();
    this.#idle = setTimeout(this.#check, this.t.idleTimeoutMs);
  }

  /** Bytes were sent on one side. */
  activity(): void {
    this.#last = performance.now();
  }

  #check = (): void => {
    const left = this.t.idleTimeoutMs - (performance.now() - this.#last);
    if (left <= 0) this.#fire("idle");
    else this.#idle = setTimeout(this.#check, Math.max(1, Math.ceil(left)));
  };

  #fire(kind: TcpTimerKind): void {
    if (this.#done) return;
    this.stop();
    this.onFire(kind);
  }

  /** The connection is gone: nothing fires any more. */
  stop(): void {
    this.#done = true;
    clearTimeout(this.#idle);
    clearTimeout(this.#duration);
  }
}
