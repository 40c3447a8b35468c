/**
 * `node:http2`, loaded on first use ({@linkcode LazyModule}): only clusters and health checks
 * that speak HTTP/2 need it, and the serving isolate of the default bootstrap stays without it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HTTP2 } from "./http2_module.ts";
 * const http2 = await HTTP2.load();
 * assert.equal(typeof http2.connect, "function");
 * assert.equal(HTTP2.get(), http2);
 * ```
 * @module
 */
import type Http2 from "node:http2";
import { LazyModule } from "../platform/lazy_module.ts";

/** `node:http2`, loaded by whoever opens the first HTTP/2 session. */
export const HTTP2: LazyModule<typeof Http2> = new LazyModule(
  "node:http2",
  async () => (await import("node:http2")).default,
);
