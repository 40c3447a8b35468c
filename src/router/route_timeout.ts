/**
 * A request's timeouts and the timeout headers sent upstream, as Envoy's router computes them
 * (`FilterUtility::finalTimeout` and `setTimeoutHeaders`):
 *
 * - the global timeout is the route's `timeout` (for a gRPC request on a route with
 *   `max_grpc_timeout`, its capped `grpc-timeout`); with the router's
 *   `respect_expected_rq_timeout`, an `x-proxy-expected-rq-timeout-ms` request header set by an
 *   egress proxy replaces it; otherwise (or without that header) `x-proxy-upstream-rq-timeout-ms`
 *   does, and is removed;
 * - the per-try timeout is the retry policy's, or `x-proxy-upstream-rq-per-try-timeout-ms`
 *   (removed); it is ignored when not shorter than a global timeout;
 * - a request with `x-proxy-upstream-rq-timeout-alt-response` (any value; removed) is answered
 *   204 instead of 504 when it times out (the global, per-try or per-try idle timeout);
 * - each attempt tells the upstream how long it has: the per-try timeout (else the global one),
 *   capped at what is left of the global timeout (1 ms when nothing is), in
 *   `x-proxy-expected-rq-timeout-ms` (unless the router's `suppress_envoy_headers`) and, for a
 *   gRPC request on a route with `max_grpc_timeout`, in `grpc-timeout`. 0 (no limit) sends none.
 *
 * The request headers are read in both the `x-envoy-` and the `x-proxy-` spelling; a value that
 * is not a whole number of milliseconds is ignored (the header is removed all the same).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { finalTimeout, timeoutHeaders } from "./route_timeout.ts";
 * const route = { timeoutMs: 15000, maxGrpcTimeoutMs: null, grpcTimeoutOffsetMs: null };
 * const h = new Headers({ "x-envoy-upstream-rq-timeout-ms": "3000" });
 * const t = finalTimeout(route, 1000, h, false);
 * assert.deepEqual(t, { globalMs: 3000, perTryMs: 1000, grpcTimeout: false, timeoutStatus: 504 });
 * assert.equal(h.get("x-envoy-upstream-rq-timeout-ms"), null);
 * assert.deepEqual(timeoutHeaders(2500, t, true), [["x-proxy-expected-rq-timeout-ms", "500"]]);
 * ```
 * @module
 */
import { formatGrpcTimeout } from "../http/grpc_timeout.ts";
import { HeaderMap } from "../http/header_map.ts";
import { isGrpcRequest } from "../http/grpc_local_reply.ts";
import { grpcGlobalTimeoutMs, type GrpcTimeoutRoute } from "./grpc_route_timeout.ts";

/** One request's timeouts (ms, 0: none). */
export interface TimeoutData {
  globalMs: number;
  perTryMs: number;
  /** The request is gRPC and its route has `max_grpc_timeout`: `grpc-timeout` is rewritten. */
  grpcTimeout: boolean;
  /**
   * The status of the reply to a timeout: 504, or 204 when the request carried
   * `x-proxy-upstream-rq-timeout-alt-response` (any value; consumed).
   */
  timeoutStatus: 504 | 204;
}

/** The header the upstream learns its time from. */
export const EXPECTED_TIMEOUT_HEADER = "x-proxy-expected-rq-timeout-ms";

const spellings = (suffix: string) => [`x-envoy-${suffix}`, `x-proxy-${suffix}`] as const;
const GLOBAL = spellings("upstream-rq-timeout-ms");
const PER_TRY = spellings("upstream-rq-per-try-timeout-ms");
const EXPECTED = spellings("expected-rq-timeout-ms");
const ALT_RESPONSE = spellings("upstream-rq-timeout-alt-response");

/** A whole number of milliseconds, else null. */
function ms(v: string | null): number | null {
  if (v === null) return null;
  const t = v.trim();
  return /^\+?\d+$/.test(t) ? Number(t) : null;
}

/** The first spelling present (the value and whether any was). */
function read(h: Headers, names: readonly string[]): string | null {
  for (let i = 0; i < names.length; i++) {
    const v = h.get(names[i]);
    if (v !== null) return v;
  }
  return null;
}

/**
 * The timeouts of a request with headers `h` on `route` whose retry policy's `per_try_timeout`
 * is `routePerTryMs`; the consumed timeout headers are removed from `h`.
 */
export function finalTimeout(
  route: GrpcTimeoutRoute,
  routePerTryMs: number,
  h: Headers,
  respectExpected: boolean,
): TimeoutData {
  const grpcTimeout = route.maxGrpcTimeoutMs !== null && isGrpcRequest(h);
  let globalMs = grpcTimeout ? grpcGlobalTimeoutMs(route, h) : route.timeoutMs;
  let perTryMs = routePerTryMs;
  let timeoutStatus: 504 | 204 = 504;
  // Every header read here is an x-envoy- or x-proxy- one: one pass over a HeaderMap tells
  // when none is there (the usual request).
  if (!(h instanceof HeaderMap) || h.hasNamePrefix("x-envoy-", "x-proxy-")) {
    const expected = respectExpected ? read(h, EXPECTED) : null;
    if (expected !== null) globalMs = ms(expected) ?? globalMs;
    else {
      const g = read(h, GLOBAL);
      if (g !== null) {
        globalMs = ms(g) ?? globalMs;
        for (const n of GLOBAL) h.delete(n);
      }
    }
    const p = read(h, PER_TRY);
    if (p !== null) {
      perTryMs = ms(p) ?? perTryMs;
      for (const n of PER_TRY) h.delete(n);
    }
    if (read(h, ALT_RESPONSE) !== null) {
      timeoutStatus = 204;
      for (const n of ALT_RESPONSE) h.delete(n);
    }
  }
  if (globalMs !== 0 && perTryMs >= globalMs) perTryMs = 0;
  return { globalMs, perTryMs, grpcTimeout, timeoutStatus };
}

/**
 * The timeout headers of an attempt sent `elapsedMs` after the first: the expected timeout
 * (when `insertExpected`) and, for `t.grpcTimeout`, `grpc-timeout`. Empty when there is no
 * limit.
 */
export function timeoutHeaders(
  elapsedMs: number,
  t: TimeoutData,
  insertExpected: boolean,
): [string, string][] {
  let expected = t.perTryMs === 0 ? t.globalMs : t.perTryMs;
  if (expected === 0) return [];
  if (t.globalMs > 0) {
    expected = elapsedMs >= t.globalMs ? 1 : Math.min(expected, t.globalMs - elapsedMs);
  }
  const out: [string, string][] = [];
  if (insertExpected) out.push([EXPECTED_TIMEOUT_HEADER, String(expected)]);
  if (t.grpcTimeout) out.push(["grpc-timeout", formatGrpcTimeout(expected)]);
  return out;
}

/** True when a header named `k` is replaced by the timeout headers `set`. */
function replacedBy(k: string, set: readonly [string, string][]): boolean {
  for (let i = 0; i < set.length; i++) {
    const n = set[i][0];
    if (k === n || (n === EXPECTED_TIMEOUT_HEADER && k === EXPECTED[0])) return true;
  }
  return false;
}

/** `list` with the timeout headers replaced by `set` (the same list when there is nothing to do). */
export function withTimeoutHeaders(
  list: [string, string][],
  set: readonly [string, string][],
): [string, string][] {
  return set.length === 0 ? list : putTimeoutHeaders(list.slice(), set);
}

/**
 * {@linkcode withTimeoutHeaders} on a list the caller owns: changed in place (the headers
 * replaced removed, `set` appended) and returned, without a copy.
 */
export function putTimeoutHeaders(
  list: [string, string][],
  set: readonly [string, string][],
): [string, string][] {
  if (set.length === 0) return list;
  let w = 0;
  for (let r = 0; r < list.length; r++) {
    if (!replacedBy(list[r][0], set)) list[w++] = list[r];
  }
  list.length = w;
  for (let i = 0; i < set.length; i++) list.push(set[i] as [string, string]);
  return list;
}
