/**
 * Per-host statistics. Real Envoy keeps these outside the stats store (they are shown only by
 * `/clusters`), so they are plain counters and gauges owned by the host.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { newHostStats } from "./host_stats.ts";
 * const s = newHostStats();
 * s.rq_total.inc();
 * assert.equal(s.rq_total.value(), 1);
 * ```
 * @module
 */
import type { Counter, Gauge } from "../stats/types.ts";
import type { HostStats } from "./types.ts";

/** A counter that lives outside the store. */
export class HostCounter implements Counter {
  #v = 0;
  used = false;
  /** Creates a counter named `name`. */
  constructor(readonly name: string) {}
  /** Adds `n` (default 1). */
  inc(n = 1): void {
    this.#v += n;
    this.used = true;
  }
  /** The current value. */
  value(): number {
    return this.#v;
  }
}

/** A gauge that lives outside the store. */
export class HostGauge implements Gauge {
  #v = 0;
  used = false;
  /** Creates a gauge named `name`. */
  constructor(readonly name: string) {}
  /** Sets the value. */
  set(v: number): void {
    this.#v = v;
    this.used = true;
  }
  /** Adds `n` (default 1). */
  inc(n = 1): void {
    this.#v += n;
    this.used = true;
  }
  /** Subtracts `n` (default 1). */
  dec(n = 1): void {
    this.#v -= n;
    this.used = true;
  }
  /** The current value. */
  value(): number {
    return this.#v;
  }
}

/** Creates the eight per-host counters and gauges, all zero. */
export function newHostStats(): HostStats {
  return {
    cx_total: new HostCounter("cx_total"),
    cx_active: new HostGauge("cx_active"),
    cx_connect_fail: new HostCounter("cx_connect_fail"),
    rq_total: new HostCounter("rq_total"),
    rq_timeout: new HostCounter("rq_timeout"),
    rq_success: new HostCounter("rq_success"),
    rq_error: new HostCounter("rq_error"),
    rq_active: new HostGauge("rq_active"),
  };
}
