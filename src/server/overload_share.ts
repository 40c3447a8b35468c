/**
 * The overload manager's state shared with data-plane workers (`--concurrency` above 1), in one
 * `SharedArrayBuffer`: the main thread's manager writes how far each action is engaged after
 * every refresh, and each worker writes the memory its isolate holds for JavaScript, which the
 * fixed-heap monitor adds to the main thread's own (Envoy's heap is the whole process's). Workers
 * read the action values where their listeners ask ({@linkcode WorkerOverload}).
 *
 * Cells (32-bit integers): one per action, in millionths of saturation; then one per worker, in
 * KiB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OverloadShare } from "./overload_share.ts";
 * const share = OverloadShare.create(2);
 * share.publish({ stop_accepting_requests: 1, disable_http_keepalive: 0.25 });
 * assert.equal(share.value("stop_accepting_requests"), 1);
 * assert.equal(share.value("disable_http_keepalive"), 0.25);
 * share.setWorkerMemory(0, 4096);
 * share.setWorkerMemory(1, 2048);
 * assert.equal(share.workersMemory(), 6144);
 * ```
 * @module
 */
import type { OpenConnections, OverloadView } from "../listener/overload_state.ts";
import type { OverloadActionKind } from "../listener/overload_state.ts";
import { Store } from "../stats/store.ts";
import { HeapShrinker } from "./heap_shrinker.ts";
import { MemoryAccounts } from "../http/memory_account.ts";
import type { Scope } from "../stats/types.ts";
import { StreamResetter } from "./stream_resetter.ts";
import { heapInUse, type ManagedAction, type OverloadConfig } from "./overload_manager.ts";

/** The cell of each action. */
const ACTION_CELL: Record<ManagedAction, number> = {
  stop_accepting_connections: 0,
  stop_accepting_requests: 1,
  disable_http_keepalive: 2,
  shrink_heap: 3,
  reset_high_memory_stream: 4,
};
const ACTIONS = Object.keys(ACTION_CELL).length;
const MILLION = 1_000_000;

/** Overload state in shared memory; see the module documentation. */
export class OverloadShare {
  /** Wraps cells made by {@linkcode OverloadShare.create} (a worker gets them in its init). */
  constructor(readonly cells: Int32Array) {}

  /** Cells for `workers` workers. */
  static create(workers: number): OverloadShare {
    return new OverloadShare(new Int32Array(new SharedArrayBuffer(4 * (ACTIONS + workers))));
  }

  /** Writes the actions' values (0 to 1); actions not given are off. */
  publish(values: Partial<Record<ManagedAction, number>>): void {
    for (const [a, cell] of Object.entries(ACTION_CELL) as [ManagedAction, number][]) {
      const v = Math.min(1, Math.max(0, values[a] ?? 0));
      Atomics.store(this.cells, cell, Math.round(v * MILLION));
    }
  }

  /** How far `action` is engaged (0 to 1). */
  value(action: ManagedAction): number {
    return Atomics.load(this.cells, ACTION_CELL[action]) / MILLION;
  }

  /** Worker `index` holds `bytes` of memory for JavaScript. */
  setWorkerMemory(index: number, bytes: number): void {
    const kib = Math.min(2 ** 31 - 1, Math.ceil(bytes / 1024));
    Atomics.store(this.cells, ACTIONS + index, kib);
  }

  /** The memory every worker holds for JavaScript, in bytes. */
  workersMemory(): number {
    let kib = 0;
    for (let i = ACTIONS; i < this.cells.length; i++) kib += Atomics.load(this.cells, i);
    return kib * 1024;
  }
}

/**
 * A worker's side of the overload manager: its listeners read the actions' values from the
 * share, its memory goes into the share every `refresh_interval`, and while `shrink_heap` is
 * saturated its own isolate is collected too (counted once, by the main thread's manager).
 */
export class WorkerOverload implements OverloadView {
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #shrinker: HeapShrinker | null;
  readonly #resets: StreamResetter | null = null;
  /** This worker's streams' buffer accounts (with `reset_high_memory_stream`). */
  readonly accounts?: MemoryAccounts;

  /**
   * Worker `index`'s view of `share` under `cfg`; `stats` (the worker's root scope) counts the
   * streams it resets.
   */
  constructor(
    readonly share: OverloadShare,
    readonly index: number,
    readonly cfg: OverloadConfig,
    readonly runtime: (key: string) => string | undefined,
    readonly open: OpenConnections,
    stats: Scope = new Store(),
  ) {
    const shrink = cfg.actions.find((a) => a.kind === "shrink_heap");
    this.#shrinker = shrink === undefined
      ? null
      : new HeapShrinker(shrink.name, new Store(), () => share.value("shrink_heap"));
    const resets = cfg.actions.find((a) => a.kind === "reset_high_memory_stream");
    if (resets !== undefined && cfg.minAccountPower !== undefined) {
      this.accounts = new MemoryAccounts(cfg.minAccountPower);
      const count = stats.scope("overload").scope(resets.name).counter("count");
      this.#resets = new StreamResetter(this.accounts, count);
    }
  }

  /** Writes this worker's memory now and every refresh interval (and resets streams). */
  start(): void {
    if (this.#timer !== undefined) return;
    const write = () => {
      this.share.setWorkerMemory(this.index, heapInUse());
      this.#resets?.update(this.share.value("reset_high_memory_stream"));
    };
    write();
    this.#timer = setInterval(write, Math.max(1, this.cfg.refreshMs));
    this.#shrinker?.start();
  }

  /** Stops writing (the worker is closing). */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#shrinker?.stop();
  }

  /** How far `action` is engaged, as the main thread's manager last computed. */
  value(action: OverloadActionKind): number {
    return this.share.value(action);
  }

  /** While `stop_accepting_connections` is saturated: a short wait before looking again. */
  acceptResumed(): Promise<void> | null {
    if (this.share.value("stop_accepting_connections") < 1) return null;
    const ms = Math.min(100, Math.max(1, this.cfg.refreshMs));
    return new Promise((r) => setTimeout(r, ms));
  }
}
