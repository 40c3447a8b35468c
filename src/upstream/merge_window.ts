/**
 * `common_lb_config.update_merge_window`, as Envoy's `ClusterManagerImpl::scheduleUpdate`:
 * health, weight and metadata updates of a cluster that come within the window after the last
 * delivered update are held and delivered together when it ends; an update after a quiet window
 * (the first one included) is delivered at once, and so is every membership change (hosts added
 * or removed), which also delivers what was held. A zero window delivers everything at once.
 * Statistics by Envoy's names: `cluster_manager.update_merge_cancelled` (held updates delivered
 * early by an immediate one), `update_out_of_merge_window` and `cluster_updated_via_merge`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UpdateMergeWindow } from "./merge_window.ts";
 * let t = 0;
 * const w = new UpdateMergeWindow(1000, undefined, () => t);
 * const seen: string[] = [];
 * w.update("health", true, () => seen.push("first"));   // the first update: at once
 * t = 10;
 * w.update("health", true, () => seen.push("second"));  // within the window: held
 * w.update("hosts", false, () => seen.push("added"));   // membership: at once, with the held one
 * assert.deepEqual(seen, ["first", "added", "second"]);
 * w.close();
 * ```
 * @module
 */
import type { Counter } from "../stats/types.ts";

/** The `cluster_manager` counters of merged updates. */
export interface MergeStats {
  cancelled: Counter;
  outOfWindow: Counter;
  viaMerge: Counter;
}

/** Holds and delivers one cluster's mergeable updates. */
export class UpdateMergeWindow {
  #last = -Infinity;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Held updates by kind: a later one of the same kind replaces an earlier one. */
  readonly #held = new Map<string, () => void>();

  /** A window of `windowMs` (0: no merging); `now` reads a monotonic clock in ms. */
  constructor(
    readonly windowMs: number,
    readonly stats?: MergeStats,
    readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * An update of `kind`; `mergeable` is false for membership changes. `apply` delivers it, now or
   * when the window ends.
   */
  update(kind: string, mergeable: boolean, apply: () => void): void {
    const t = this.now();
    const out = t - this.#last > this.windowMs || this.windowMs <= 0;
    if (!mergeable || out) {
      if (mergeable && out && this.#last !== -Infinity) this.stats?.outOfWindow.inc();
      if (this.#timer !== null) {
        clearTimeout(this.#timer);
        this.#timer = null;
        this.stats?.cancelled.inc();
      }
      this.#last = t;
      this.#held.delete(kind);
      apply();
      this.#flush();
      return;
    }
    this.#held.set(kind, apply);
    if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.stats?.viaMerge.inc();
        this.#flush();
      }, this.windowMs);
    }
  }

  /** True while updates are held. */
  get holding(): boolean {
    return this.#held.size > 0;
  }

  #flush() {
    const held = [...this.#held.values()];
    this.#held.clear();
    for (const f of held) f();
  }

  /** Drops held updates and the timer. */
  close(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#held.clear();
  }
}
