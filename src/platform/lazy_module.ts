/**
 * A module loaded on first use. Big modules that only some configurations need (`node:http2`,
 * `node:zlib`, the protobuf runtime) stay out of the serving isolate until a configuration asks
 * for them: the code that starts using one awaits {@linkcode LazyModule.load} on an asynchronous
 * path (or kicks it off when its configuration is built), then takes the module synchronously
 * with {@linkcode LazyModule.get}, which throws, naming the module, when it was not loaded, so
 * a missing preload fails loudly instead of silently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LazyModule } from "./lazy_module.ts";
 * const path = new LazyModule("node:path", () => import("node:path"));
 * assert.throws(() => path.get(), /node:path used before it was loaded/);
 * await path.load();
 * assert.ok(path.loaded);
 * assert.equal(path.get().basename("/a/b"), "b");
 * ```
 * @module
 */

/** One module loaded on demand, by a loader that imports it. */
export class LazyModule<T> {
  #value: T | undefined;
  #loading: Promise<T> | undefined;

  /** A module named `name` (for errors), imported by `loader`. */
  constructor(readonly name: string, readonly loader: () => Promise<T>) {}

  /** Loads the module once; resolves with it (at once when it is loaded). */
  load(): Promise<T> {
    this.#loading ??= this.loader().then((m) => this.#value = m);
    return this.#loading;
  }

  /** Whether the module is loaded. */
  get loaded(): boolean {
    return this.#value !== undefined;
  }

  /** The loaded module; throws when {@linkcode LazyModule.load} has not resolved yet. */
  get(): T {
    if (this.#value === undefined) {
      throw new Error(`${this.name} used before it was loaded (await its load() first)`);
    }
    return this.#value;
  }
}
