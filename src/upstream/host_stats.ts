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
import { ADMIN_RESOURCES } from "../../spec/mod.ts";
import type { HostStatRow, HostStats } from "./types.ts";

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

/** The rows of the per-host statistics, in the specification's order. */
export const HOST_STAT_ROWS: readonly HostStatRow[] = ADMIN_RESOURCES.filter((
  r,
): r is HostStatRow => r.id.startsWith("admin.resources.host-stat."));

/** Creates a counter for every `Counter` row and a gauge for every `Gauge` row, all zero. */
export function newHostStats(): HostStats {
  const stats: Record<string, Counter | Gauge> = {};
  for (const r of HOST_STAT_ROWS) {
    if (r.type === "Counter") stats[r.name] = new HostCounter(r.name);
    else if (r.type === "Gauge") stats[r.name] = new HostGauge(r.name);
  }
  return stats as HostStats;
}
