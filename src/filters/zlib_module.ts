/**
 * `node:zlib`, loaded on first use ({@linkcode LazyModule}): only a configured compressor
 * filter needs it, and the serving isolate of the default bootstrap stays without it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ZLIB } from "./zlib_module.ts";
 * const zlib = await ZLIB.load();
 * assert.equal(typeof zlib.createGzip, "function");
 * ```
 * @module
 */
import type Zlib from "node:zlib";
import { LazyModule } from "../platform/lazy_module.ts";

/** `node:zlib`, loaded when a compressor filter is built. */
export const ZLIB: LazyModule<typeof Zlib> = new LazyModule(
  "node:zlib",
  async () => (await import("node:zlib")).default,
);
