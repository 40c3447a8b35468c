/**
 * The connection manager's `http2_protocol_options` (`core.Http2ProtocolOptions`): the settings
 * of its downstream HTTP/2 connections (`h2_server.ts`). Unset fields take Envoy's defaults:
 * `max_concurrent_streams` 2147483647, `initial_stream_window_size` and
 * `initial_connection_window_size` 268435456 (256 MiB), `hpack_table_size` 4096. The ranges are
 * Envoy's (window sizes 65535..2147483647, `max_concurrent_streams` 1..2147483647,
 * `hpack_table_size` a UInt32); the other fields of the message are refused by the support table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseH2Options } from "./h2_options.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const o = parseH2Options({ max_concurrent_streams: 10 }, "hcm.http2_protocol_options", errors);
 * assert.equal(o.maxConcurrentStreams, 10);
 * assert.equal(o.initialStreamWindowSize, 268435456);
 * parseH2Options({ initial_stream_window_size: 100 }, "h", errors);
 * assert.equal(errors[0].path, "h.initial_stream_window_size");
 * ```
 * @module
 */
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { H2_DEFAULTS, type H2Options } from "../http/h2_defaults.ts";

export { H2_DEFAULTS, type H2Options };

const RANGES = {
  max_concurrent_streams: ["maxConcurrentStreams", 1, 2147483647],
  initial_stream_window_size: ["initialStreamWindowSize", 65535, 2147483647],
  initial_connection_window_size: ["initialConnectionWindowSize", 65535, 2147483647],
  hpack_table_size: ["hpackTableSize", 0, 4294967295],
} as const satisfies Record<string, readonly [keyof H2Options, number, number]>;

/**
 * Reads `v` (the `http2_protocol_options` at `at`; undefined: all defaults); a value out of
 * range is reported at its field path and its default kept.
 */
export function parseH2Options(v: unknown, at: string, errors: Errors): H2Options {
  const out: H2Options = { ...H2_DEFAULTS };
  if (v === undefined) return out;
  if (!isObject(v)) return fail(errors, at, "must be an object"), out;
  for (const [field, [key, lo, hi]] of Object.entries(RANGES)) {
    const raw = unwrap(v[field]);
    if (raw === undefined || raw === null) continue;
    const n = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof n !== "number" || !Number.isInteger(n)) {
      fail(errors, `${at}.${field}`, "must be an unsigned integer");
    } else if (n < lo || n > hi) {
      fail(errors, `${at}.${field}`, `value must be inside range [${lo}, ${hi}] (got ${n})`);
    } else out[key] = n;
  }
  return out;
}
