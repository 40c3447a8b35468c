/**
 * A full garbage collection of this isolate's heap, which also hands V8's free pages back to
 * the system. V8 only exposes it behind `--expose-gc`; {@linkcode loadFullGc} sets that flag
 * the first time it is called and takes `gc` from a fresh context, so a process that never
 * asks for it runs with V8's flags unchanged.
 *
 * @example
 * ```ts
 * import { loadFullGc } from "./full_gc.ts";
 * const gc = loadFullGc();
 * gc();
 * ```
 * @module
 */
import v8 from "node:v8";
import vm from "node:vm";

let loaded: (() => void) | null = null;

/** The function that runs a full collection (loaded once, on first call). */
export function loadFullGc(): () => void {
  if (loaded === null) {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as unknown;
    if (typeof gc !== "function") throw new Error("V8 did not expose gc after --expose-gc");
    loaded = () => (gc as () => void)();
  }
  return loaded;
}
