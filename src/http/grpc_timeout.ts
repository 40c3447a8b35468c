/**
 * The `grpc-timeout` request header, read and written as Envoy's `Grpc::Common::getGrpcTimeout`
 * and `toGrpcTimeout` do: at most eight digits and a unit (`H`, `M`, `S`, `m`, `u`, `n`);
 * micro- and nanoseconds round up to the next millisecond. Both the route's
 * `max_stream_duration.grpc_timeout_header_max` and its `max_grpc_timeout` read it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatGrpcTimeout, parseGrpcTimeout } from "./grpc_timeout.ts";
 * assert.equal(parseGrpcTimeout("2S"), 2000);
 * assert.equal(parseGrpcTimeout("1500u"), 2);
 * assert.equal(parseGrpcTimeout("5s"), null);
 * assert.equal(formatGrpcTimeout(250), "250m");
 * assert.equal(formatGrpcTimeout(100_000_000), "100000S");
 * ```
 * @module
 */

/** The largest value of a `grpc-timeout` header (eight digits). */
const MAX_GRPC_TIMEOUT = 99_999_999;

const GRPC_UNITS: Readonly<Record<string, number>> = {
  H: 3_600_000,
  M: 60_000,
  S: 1000,
  m: 1,
  u: 1e-3,
  n: 1e-6,
};

/** A `grpc-timeout` header value in ms (micro and nanoseconds rounded up), or null. */
export function parseGrpcTimeout(v: string | null): number | null {
  if (v === null) return null;
  const m = /^(\d{1,8})([HMSmun])$/.exec(v);
  if (m === null) return null;
  return Math.ceil(Number(m[1]) * GRPC_UNITS[m[2]]);
}

/** `ms` as a `grpc-timeout` value: ms, else seconds, minutes or hours, clipped to 8 digits. */
export function formatGrpcTimeout(ms: number): string {
  let t = Math.floor(ms);
  const units = "mSMH";
  let u = 0;
  if (t > MAX_GRPC_TIMEOUT) {
    t = Math.floor(t / 1000);
    u++;
  }
  while (t > MAX_GRPC_TIMEOUT) {
    if (u === 3) t = MAX_GRPC_TIMEOUT;
    else {
      t = Math.floor(t / 60);
      u++;
    }
  }
  return `${t}${units[u]}`;
}
