/**
 * The `shrink_heap` overload action, as Envoy's heap shrinker: every 10 s, while the action is
 * saturated, the process runs a full garbage collection (V8 returns the pages it frees to the
 * system) and counts it in `overload.<action>.shrink_count`, the action named as configured.
 * The collector is loaded only when the action is configured.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HeapShrinker } from "./heap_shrinker.ts";
 * import { Store } from "../stats/store.ts";
 * const store = new Store();
 * let engaged = 1;
 * let runs = 0;
 * const s = new HeapShrinker("envoy.overload_actions.shrink_heap", store, () => engaged, {
 *   gc: () => runs++,
 * });
 * s.tick();
 * engaged = 0.5;
 * s.tick();
 * assert.equal(runs, 1);
 * assert.equal(store.counter("overload.envoy.overload_actions.shrink_heap.shrink_count").value(), 1);
 * ```
 * @module
 */
import { loadFullGc } from "../platform/full_gc.ts";
import type { Counter, Scope } from "../stats/types.ts";

/** Envoy's interval between two looks at the action. */
export const SHRINK_INTERVAL_MS = 10_000;

/** Options of a {@linkcode HeapShrinker}. */
export interface HeapShrinkerOptions {
  /** Time between two looks at the action (default 10 s). */
  intervalMs?: number;
  /** The collection to run (default: V8's full collection, loaded on construction). */
  gc?: () => void;
}

/** Shrinks the heap on a timer while `shrink_heap` is saturated. */
export class HeapShrinker {
  readonly #count: Counter;
  readonly #gc: () => void;
  readonly #intervalMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  /**
   * A shrinker for the action named `action` (its stats under `overload.<action>` of `stats`,
   * the root scope), reading how far it is engaged from `value`.
   */
  constructor(
    action: string,
    stats: Scope,
    readonly value: () => number,
    options: HeapShrinkerOptions = {},
  ) {
    this.#count = stats.scope("overload").scope(action).counter("shrink_count");
    this.#gc = options.gc ?? loadFullGc();
    this.#intervalMs = options.intervalMs ?? SHRINK_INTERVAL_MS;
  }

  /** One look at the action: collects and counts when it is saturated. */
  tick(): void {
    if (this.value() < 1) return;
    this.#gc();
    this.#count.inc();
  }

  /** Starts the timer. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.tick(), Math.max(1, this.#intervalMs));
  }

  /** Stops the timer. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
