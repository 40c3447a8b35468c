/**
 * Envoy's defaults of `core.Http2ProtocolOptions` (`protocol.proto`), for HTTP/2 connections in
 * both directions: the connection manager's downstream settings (`listener/h2_options.ts`) and the
 * upstream pool's connection window (`upstream/http2_pool.ts`) read them here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { H2_DEFAULTS } from "./h2_defaults.ts";
 * assert.equal(H2_DEFAULTS.initialConnectionWindowSize, 256 * 1024 * 1024);
 * ```
 * @module
 */

/** The SETTINGS and windows of an HTTP/2 connection. */
export interface H2Options {
  /** SETTINGS_MAX_CONCURRENT_STREAMS: streams a client may have open at once. */
  maxConcurrentStreams: number;
  /** SETTINGS_INITIAL_WINDOW_SIZE: each stream's receive window. */
  initialStreamWindowSize: number;
  /** The connection's receive window (raised by a WINDOW_UPDATE on stream 0). */
  initialConnectionWindowSize: number;
  /** SETTINGS_HEADER_TABLE_SIZE: the HPACK table the peer may use toward the proxy. */
  hpackTableSize: number;
}

/** Envoy's defaults (`protocol.proto`, `Http2ProtocolOptions`). */
export const H2_DEFAULTS: Readonly<H2Options> = Object.freeze({
  maxConcurrentStreams: 2147483647,
  initialStreamWindowSize: 268435456,
  initialConnectionWindowSize: 268435456,
  hpackTableSize: 4096,
});
