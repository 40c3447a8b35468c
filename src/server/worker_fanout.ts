/**
 * Changes made through the admin interface that every data-plane worker must see: runtime
 * overrides (`/runtime_modify`) and log levels (`/logging`). The wrappers apply a change on the
 * main thread first (so an invalid change fails there, with its error, and reaches no worker),
 * then send it to the workers of {@linkcode Fanout.pool}, when there are any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LayeredRuntime } from "./runtime.ts";
 * import { fanOutRuntime } from "./worker_fanout.ts";
 * const sent: unknown[] = [];
 * const rt = fanOutRuntime(new LayeredRuntime([{ name: "admin", kind: "admin", values: new Map() }]), {
 *   pool: { broadcast: (m) => sent.push(m) },
 * });
 * rt.modify([["a.b", "1"]]);
 * assert.equal(rt.get("a.b"), "1");
 * assert.deepEqual(sent, [{ type: "runtime", pairs: [["a.b", "1"]] }]);
 * ```
 * @module
 */
import type { RuntimeView } from "./context.ts";
import type { Logging } from "./logger.ts";
import type { ToWorker } from "./worker_protocol.ts";

/** Where changes go: the worker pool, once it exists (null: no workers). */
export interface Fanout {
  pool: { broadcast(m: ToWorker): void } | null;
}

/** `runtime` whose `modify` also reaches every worker. */
export function fanOutRuntime(runtime: RuntimeView, fanout: Fanout): RuntimeView {
  return {
    layerNames: () => runtime.layerNames(),
    entries: () => runtime.entries(),
    get: (key) => runtime.get(key),
    hasAdminLayer: () => runtime.hasAdminLayer(),
    modify(pairs): void {
      runtime.modify(pairs);
      fanout.pool?.broadcast({ type: "runtime", pairs: pairs.map(([k, v]) => [k, v]) });
    },
  };
}

/** `logging` whose `set` and `setAll` also reach every worker. */
export function fanOutLogging(logging: Logging, fanout: Fanout): Logging {
  return {
    ...logging,
    setAll(level: string): void {
      logging.setAll(level);
      fanout.pool?.broadcast({ type: "log", name: null, level });
    },
    set(name: string, level: string): void {
      logging.set(name, level);
      fanout.pool?.broadcast({ type: "log", name, level });
    },
  };
}
