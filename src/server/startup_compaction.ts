/**
 * One full garbage collection when start-up is over. Loading the modules, reading the bootstrap
 * and building the managers leave garbage that V8's young and old generations keep resident:
 * at idle, nothing allocates enough to start a collection that would hand those pages back, so
 * a proxy that has just gone LIVE stays some 8 MiB larger than what it holds (measured on the
 * default bootstrap). A single full collection, run once by the main thread when the server is
 * LIVE and by each worker once its listeners run, returns them.
 *
 * The collection stops the isolate for a time that grows with the live heap: it runs only when
 * the heap holds less than {@linkcode COMPACT_BELOW_BYTES} (a few milliseconds), so a large
 * configuration (10,000 clusters and their stats) is never paused for it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compactAfterStartup } from "./startup_compaction.ts";
 * let runs = 0;
 * assert.equal(compactAfterStartup({ heapUsed: () => 10e6, gc: () => () => runs++ }), true);
 * assert.equal(compactAfterStartup({ heapUsed: () => 1e9, gc: () => () => runs++ }), false);
 * assert.equal(runs, 1);
 * ```
 * @module
 */
import { loadFullGc } from "../platform/full_gc.ts";

/** The largest live heap for which start-up ends with a full collection. */
export const COMPACT_BELOW_BYTES = 64 * 1024 * 1024;

/** What {@linkcode compactAfterStartup} measures and runs (replaceable in tests). */
export interface CompactionHooks {
  /** Bytes used by the JavaScript heap now. */
  heapUsed?: () => number;
  /** The loader of the full collection. */
  gc?: () => () => void;
}

/**
 * Runs one full collection when the heap is small (see the module documentation); true when it
 * ran. A failure to load the collector (a runtime without `--expose-gc` support) is not an
 * error: the process just keeps its pages.
 */
export function compactAfterStartup(hooks: CompactionHooks = {}): boolean {
  const used = (hooks.heapUsed ?? (() => Deno.memoryUsage().heapUsed))();
  if (!(used < COMPACT_BELOW_BYTES)) return false;
  let gc: () => void;
  try {
    gc = (hooks.gc ?? loadFullGc)();
  } catch {
    return false;
  }
  gc();
  return true;
}
