/**
 * Stats of data-plane workers, added up on the main thread. Each worker keeps its own
 * {@linkcode Store}; {@linkcode WorkerStatsExporter} turns it into a {@linkcode WorkerStatsDelta}
 * (counter increments since the last export, current gauge values, histogram values recorded
 * since the last export), and {@linkcode WorkerStatsImporter} applies the deltas of every worker
 * to the main thread's store, which the admin interface renders: counters add up, histograms
 * merge, and gauges are imported the way Envoy's gauge import modes do it (see
 * {@linkcode gaugeImport}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "./store.ts";
 * import { WorkerStatsExporter, WorkerStatsImporter } from "./worker_stats.ts";
 * const main = new Store();
 * const importer = new WorkerStatsImporter(main, 2);
 * for (const w of [0, 1]) {
 *   const local = new Store();
 *   local.counter("http.in.downstream_rq_total").inc(3);
 *   local.gauge("http.in.downstream_cx_active").set(2);
 *   importer.apply(w, new WorkerStatsExporter(local).collect());
 * }
 * assert.equal(main.counter("http.in.downstream_rq_total").value(), 6);
 * assert.equal(main.gauge("http.in.downstream_cx_active").value(), 4);
 * ```
 * @module
 */
import type { HistogramUnit } from "./types.ts";
import type { Store } from "./store.ts";
import { LogLinearCounts, type LogLinearSnapshot } from "./log_linear.ts";

/** What one worker reports: increments, current gauges, recent histogram values. */
export interface WorkerStatsDelta {
  /** Counter name and increment since the last export (0 for a counter seen the first time). */
  counters: Array<[string, number]>;
  /** Gauge name and current value. */
  gauges: Array<[string, number]>;
  /** Histogram name, unit and values recorded since the last export. */
  histograms: Array<[string, HistogramUnit, LogLinearSnapshot]>;
}

/**
 * Stats a worker never exports: the main thread owns the runtime, the cluster manager (its
 * discovery) and the server stats, and a worker's copies would count them twice.
 */
export const MAIN_THREAD_PREFIXES: readonly string[] = ["runtime.", "cluster_manager.", "server."];

function exported(name: string, skip: readonly string[]): boolean {
  for (const p of skip) if (name.startsWith(p)) return false;
  return true;
}

/** Turns a worker's store into deltas. */
export class WorkerStatsExporter {
  readonly #sent = new Map<string, number>();

  /** Exports `store`, leaving out stats under `skip` prefixes. */
  constructor(
    readonly store: Store,
    readonly skip: readonly string[] = MAIN_THREAD_PREFIXES,
  ) {}

  /** The changes since the previous call (histograms are flushed in the worker's store). */
  collect(): WorkerStatsDelta {
    const out: WorkerStatsDelta = { counters: [], gauges: [], histograms: [] };
    for (const s of this.store.sortedNumeric()) {
      if (!exported(s.name, this.skip)) continue;
      if (s.kind === "gauge") {
        out.gauges.push([s.name, s.value()]);
        continue;
      }
      const v = s.value();
      const before = this.#sent.get(s.name);
      if (before === v) continue;
      this.#sent.set(s.name, v);
      out.counters.push([s.name, before === undefined ? v : Math.max(0, v - before)]);
    }
    this.store.flush();
    for (const h of this.store.sortedHistograms()) {
      if (!exported(h.name, this.skip)) continue;
      const fresh = h.interval;
      if (fresh.count === 0 && this.#sent.has(`#${h.name}`)) continue;
      this.#sent.set(`#${h.name}`, 1);
      out.histograms.push([h.name, h.unit, fresh.snapshot()]);
    }
    return out;
  }
}

/** How the main thread combines one gauge of several workers. */
export type GaugeImport = "sum" | "max";

/**
 * The import mode of a worker gauge: `max` for flags and counts every worker holds alike (open
 * circuit breakers, which are shared; the listener manager's listener counts), `sum` for the
 * rest (active connections and requests, which each worker holds its own share of). A gauge the
 * main thread sets itself (cluster membership, from discovery and health checking) is never
 * imported.
 */
export function gaugeImport(name: string): GaugeImport {
  if (name.includes(".circuit_breakers.")) return "max";
  if (name.startsWith("listener_manager.total_listeners_")) return "max";
  return "sum";
}

/** Applies worker deltas to the main thread's store. */
export class WorkerStatsImporter {
  readonly #gauges = new Map<string, number[]>();

  /** Imports into `store` for `workers` workers. */
  constructor(readonly store: Store, readonly workers: number) {}

  /** Applies one worker's delta. */
  apply(worker: number, d: WorkerStatsDelta): void {
    const store = this.store;
    for (const [name, n] of d.counters) {
      const c = store.counter(name);
      if (n > 0) c.inc(n);
    }
    for (const [name, v] of d.gauges) {
      let per = this.#gauges.get(name);
      if (per === undefined) {
        // The main thread's own gauge (set before any worker reported it) stays its own.
        const own = store.gauge(name);
        if (own.used) continue;
        this.#gauges.set(name, per = new Array<number>(this.workers).fill(0));
      }
      per[worker] = v;
      const g = store.gauge(name);
      g.set(gaugeImport(name) === "max" ? Math.max(...per) : per.reduce((a, b) => a + b, 0));
    }
    for (const [name, unit, snap] of d.histograms) {
      store.histogram(name, unit).merge(LogLinearCounts.fromSnapshot(snap));
    }
  }

  /** Forgets a worker's gauges (it stopped): its share no longer counts. */
  forget(worker: number): void {
    for (const [name, per] of this.#gauges) {
      per[worker] = 0;
      const g = this.store.gauge(name);
      g.set(gaugeImport(name) === "max" ? Math.max(...per) : per.reduce((a, b) => a + b, 0));
    }
  }
}
