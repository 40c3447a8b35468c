/**
 * The contract between the stats engine and everything that counts: the proxy core, the admin
 * interface and the server. `src/stats/store.ts` implements it; callers hold a {@linkcode Scope}.
 *
 * @example
 * ```ts
 * import type { Scope } from "./types.ts";
 * function countRequest(cluster: Scope) {
 *   cluster.counter("upstream_rq_total").inc();
 * }
 * ```
 * @module
 */

/** Units of histogram values, as real Envoy names them. */
export type HistogramUnit = "unspecified" | "bytes" | "microseconds" | "milliseconds" | "percent";

/** A monotonically increasing value; `reset` is only for `/reset_counters`. */
export interface Counter {
  readonly name: string;
  inc(n?: number): void;
  value(): number;
  /** Incremented at least once since start. */
  readonly used: boolean;
}

/** A value that goes up and down. */
export interface Gauge {
  readonly name: string;
  set(v: number): void;
  inc(n?: number): void;
  dec(n?: number): void;
  value(): number;
  /** Changed at least once since start. */
  readonly used: boolean;
}

/** A distribution of recorded values. */
export interface Histogram {
  readonly name: string;
  readonly unit: HistogramUnit;
  record(v: number): void;
  /** Recorded into at least once since start. */
  readonly used: boolean;
}

/** A string-valued stat. */
export interface TextReadout {
  readonly name: string;
  set(v: string): void;
  value(): string;
  readonly used: boolean;
}

/**
 * A naming scope: `store.scope("cluster").scope("web")` creates stats named `cluster.web.<x>`.
 * Asking twice for the same name returns the same stat.
 */
export interface Scope {
  /** The full prefix of this scope, without the trailing dot ("" for the root). */
  readonly prefix: string;
  counter(name: string): Counter;
  gauge(name: string): Gauge;
  histogram(name: string, unit?: HistogramUnit): Histogram;
  textReadout(name: string): TextReadout;
  scope(name: string): Scope;
}
