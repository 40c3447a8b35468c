/**
 * The downstream limits of an HTTP connection manager, as Envoy has them: the connection's
 * `common_http_protocol_options` (`idle_timeout`, default 1 h; `max_connection_duration`;
 * `max_stream_duration`;
 * `max_headers_count`, default 100; `max_requests_per_connection`; `headers_with_underscores_action`,
 * default `ALLOW`) and the manager's own
 * `request_headers_timeout`, `stream_idle_timeout` (default 5 min), `request_timeout` and
 * `max_request_headers_kb` (default 60). A zero duration turns a timeout off. The v2 top-level
 * `idle_timeout` is read too when the common options do not set it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headerLimitError, parseDownstreamLimits } from "./downstream_limits.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const l = parseDownstreamLimits({
 *   common_http_protocol_options: { idle_timeout: "0.5s", max_headers_count: 2 },
 *   stream_idle_timeout: "0s",
 * }, "hcm", errors);
 * assert.equal(l.idleTimeoutMs, 500);
 * assert.equal(l.streamIdleTimeoutMs, 0);
 * assert.equal(l.requestHeadersBytes, 60 * 1024);
 * const h = new Headers([["a", "1"], ["b", "2"], ["c", "3"]]);
 * assert.equal(headerLimitError(h, l)?.status, 431);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import { durationMs, type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import type { CodecError } from "../http/downstream_request.ts";
import { parseEnum } from "../config/values.ts";
import type { Counter, Scope } from "../stats/types.ts";

/**
 * `headers_with_underscores_action` (core.HttpProtocolOptions.HeadersWithUnderscoresAction, in
 * proto number order): what a request header whose name holds an underscore gets.
 */
export const UNDERSCORE_ACTIONS = ["ALLOW", "REJECT_REQUEST", "DROP_HEADER"] as const;

/** One of {@linkcode UNDERSCORE_ACTIONS}. */
export type UnderscoreAction = typeof UNDERSCORE_ACTIONS[number];

/** The limits one downstream connection of a connection manager is held to. */
export interface DownstreamLimits {
  /** Close a connection without requests after this long; 0: never. */
  idleTimeoutMs: number;
  /** Drain a connection this long after it was accepted; 0: never. */
  maxConnectionDurationMs: number;
  /** End a stream this long after it started (`stream_duration.ts`); 0: never. */
  maxStreamDurationMs: number;
  /** Close a connection after this many requests; 0: unlimited. */
  maxRequestsPerConnection: number;
  /** Answer 431 to a request with more header fields. */
  maxHeadersCount: number;
  /**
   * A request header (or trailer) whose name holds `_`: passed on (`ALLOW`), dropped
   * (`DROP_HEADER`) or the request answered 400 (`REJECT_REQUEST`), as Envoy's codecs do.
   */
  headersWithUnderscores: UnderscoreAction;
  /** Answer 431 to a request whose header block is larger (bytes). */
  requestHeadersBytes: number;
  /** Answer 408 when a request head takes longer; 0: never. */
  requestHeadersTimeoutMs: number;
  /** Answer 408 (or 504, or reset) when a stream sees no activity this long; 0: never. */
  streamIdleTimeoutMs: number;
  /** Answer 408 when a request has not been received in full this long; 0: never. */
  requestTimeoutMs: number;
  /**
   * The listener's `per_connection_buffer_limit_bytes` (default 1 MiB): at most this many bytes
   * of a request body are read ahead of the upstream (at least 16 KiB).
   */
  bufferLimitBytes: number;
}

/** Envoy's defaults. */
export const DEFAULT_LIMITS: DownstreamLimits = {
  idleTimeoutMs: 3_600_000,
  maxConnectionDurationMs: 0,
  maxStreamDurationMs: 0,
  maxRequestsPerConnection: 0,
  maxHeadersCount: 100,
  headersWithUnderscores: "ALLOW",
  requestHeadersBytes: 60 * 1024,
  requestHeadersTimeoutMs: 0,
  streamIdleTimeoutMs: 300_000,
  requestTimeoutMs: 0,
  bufferLimitBytes: 1024 * 1024,
};

/** Envoy's upper bound of `max_request_headers_kb`. */
const MAX_HEADERS_KB = 8192;

function duration(v: Json | undefined, path: string, errors: Errors, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  const ms = durationMs(v, path, errors);
  return ms === null ? dflt : ms;
}

function uint(
  v: Json | undefined,
  path: string,
  errors: Errors,
  dflt: number,
  min: number,
  max = 4294967295,
): number {
  const x = unwrap(v);
  if (x === undefined || x === null) return dflt;
  const n = typeof x === "string" && /^\d+$/.test(x) ? Number(x) : x;
  if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
    fail(errors, path, `must be an integer from ${min} to ${max}, got ${JSON.stringify(x)}`);
    return dflt;
  }
  return n;
}

function underscoreAction(v: Json | undefined, at: string, errors: Errors): UnderscoreAction {
  if (v === undefined || v === null) return DEFAULT_LIMITS.headersWithUnderscores;
  const e = parseEnum(v, UNDERSCORE_ACTIONS, [0, 1, 2]);
  if (e.ok) return e.value as UnderscoreAction;
  fail(errors, `${at}.headers_with_underscores_action`, e.error);
  return DEFAULT_LIMITS.headersWithUnderscores;
}

/** Reads the limits from the connection manager's configuration `c` (found at `path`). */
export function parseDownstreamLimits(
  c: JsonObject,
  path: string,
  errors: Errors,
): DownstreamLimits {
  const at = `${path}.common_http_protocol_options`;
  let p: JsonObject = {};
  if (c.common_http_protocol_options !== undefined) {
    if (isObject(c.common_http_protocol_options)) p = c.common_http_protocol_options;
    else fail(errors, at, "common_http_protocol_options must be an object");
  }
  const idle = p.idle_timeout !== undefined
    ? duration(p.idle_timeout, `${at}.idle_timeout`, errors, DEFAULT_LIMITS.idleTimeoutMs)
    : duration(c.idle_timeout, `${path}.idle_timeout`, errors, DEFAULT_LIMITS.idleTimeoutMs);
  const kb = uint(
    c.max_request_headers_kb,
    `${path}.max_request_headers_kb`,
    errors,
    DEFAULT_LIMITS.requestHeadersBytes / 1024,
    1,
    MAX_HEADERS_KB,
  );
  return {
    idleTimeoutMs: idle,
    maxConnectionDurationMs: duration(
      p.max_connection_duration,
      `${at}.max_connection_duration`,
      errors,
      0,
    ),
    maxStreamDurationMs: duration(
      p.max_stream_duration,
      `${at}.max_stream_duration`,
      errors,
      0,
    ),
    maxRequestsPerConnection: uint(
      p.max_requests_per_connection,
      `${at}.max_requests_per_connection`,
      errors,
      0,
      0,
    ),
    maxHeadersCount: uint(
      p.max_headers_count,
      `${at}.max_headers_count`,
      errors,
      DEFAULT_LIMITS.maxHeadersCount,
      1,
    ),
    headersWithUnderscores: underscoreAction(p.headers_with_underscores_action, at, errors),
    requestHeadersBytes: kb * 1024,
    requestHeadersTimeoutMs: duration(
      c.request_headers_timeout,
      `${path}.request_headers_timeout`,
      errors,
      0,
    ),
    streamIdleTimeoutMs: duration(
      c.stream_idle_timeout,
      `${path}.stream_idle_timeout`,
      errors,
      DEFAULT_LIMITS.streamIdleTimeoutMs,
    ),
    requestTimeoutMs: duration(c.request_timeout, `${path}.request_timeout`, errors, 0),
    bufferLimitBytes: DEFAULT_LIMITS.bufferLimitBytes,
  };
}

/**
 * The codec counters of `headers_with_underscores_action`, which Envoy keeps per codec in the
 * root scope (`http1.` and `http2.`), not per connection manager.
 */
export interface UnderscoreCounters {
  /** `dropped_headers_with_underscores`: one per header dropped. */
  dropped: Counter;
  /** `requests_rejected_with_underscores_in_headers`: one per request answered 400. */
  rejected: Counter;
}

/** The counters of codec `codec` (`http1` or `http2`) in the root scope `root`. */
export function underscoreCounters(root: Scope, codec: "http1" | "http2"): UnderscoreCounters {
  const s = root.scope(codec);
  return {
    dropped: s.counter("dropped_headers_with_underscores"),
    rejected: s.counter("requests_rejected_with_underscores_in_headers"),
  };
}

/**
 * The codec error of a request head over the limits (431, as Envoy answers), or null. The size
 * counts each field as name, value and the four bytes of `: ` and CRLF. Under
 * `headers_with_underscores_action` a field whose name holds `_` is dropped from `headers`
 * (`DROP_HEADER`) or makes the request a 400 (`REJECT_REQUEST`, with Envoy's details
 * `<codec>.unexpected_underscore`), counted in `underscores` when given.
 */
export function headerLimitError(
  headers: Headers,
  limits: DownstreamLimits,
  underscores?: UnderscoreCounters,
  codec: "http1" | "http2" = "http1",
): CodecError | null {
  let n = 0;
  let bytes = 0;
  const action = limits.headersWithUnderscores;
  let drop = undefined as string[] | undefined;
  let reject = false as boolean;
  headers.forEach((v, k) => {
    if (action !== "ALLOW" && k.includes("_")) {
      if (action === "REJECT_REQUEST") reject = true;
      else (drop ??= []).push(k);
      return;
    }
    n++;
    bytes += k.length + v.length + 4;
  });
  if (reject) {
    underscores?.rejected.inc();
    return { status: 400, details: `${codec}.unexpected_underscore` };
  }
  if (drop !== undefined) {
    for (const k of drop) headers.delete(k);
    underscores?.dropped.inc(drop.length);
  }
  if (n > limits.maxHeadersCount) return { status: 431, details: "too many headers" };
  if (bytes > limits.requestHeadersBytes) return { status: 431, details: "headers too large" };
  return null;
}

/** The counters the limits are counted with, in `http.<stat_prefix>.`. */
export interface LimitCounters {
  cxIdleTimeout: Counter;
  cxMaxDurationReached: Counter;
  cxMaxRequestsReached: Counter;
  /** `delayed_close_timeout` ran out before the client closed (`downstream_cx_delayed_close_timeout`). */
  cxDelayedCloseTimeout: Counter;
  rqHeaderTimeout: Counter;
  rqIdleTimeout: Counter;
  rqTimeout: Counter;
  cxRxBytes: Counter;
  cxTxBytes: Counter;
  /** The codecs' `headers_with_underscores_action` counters (root scope). */
  http1Underscores: UnderscoreCounters;
  http2Underscores: UnderscoreCounters;
  /**
   * Connections closed (`downstream_cx_destroy`), by the client (`..._remote`) or by the proxy
   * (`..._local`): counted once per connection, when it has closed, as Envoy's `onEvent`.
   */
  cxDestroy: Counter;
  cxDestroyRemote: Counter;
  cxDestroyLocal: Counter;
  /** A client closed its connection while a request was in flight (`..._remote_active_rq`). */
  cxDestroyRemoteActiveRq: Counter;
  /** The proxy closed a connection while a request was in flight (`..._local_active_rq`). */
  cxDestroyLocalActiveRq: Counter;
  cxDestroyActiveRq: Counter;
  /** Streams reset (counted by the codec when its client went away). */
  rqRxReset: Counter;
  /** Streams the proxy reset toward its client (`downstream_rq_tx_reset`). */
  rqTxReset: Counter;
}

/**
 * Creates the counters in the connection manager's scope `s` (`http.<stat_prefix>`), and the
 * codec counters in the root scope `root`.
 */
export function limitCounters(s: Scope, root: Scope): LimitCounters {
  return {
    cxIdleTimeout: s.counter("downstream_cx_idle_timeout"),
    cxMaxDurationReached: s.counter("downstream_cx_max_duration_reached"),
    cxMaxRequestsReached: s.counter("downstream_cx_max_requests_reached"),
    cxDelayedCloseTimeout: s.counter("downstream_cx_delayed_close_timeout"),
    rqHeaderTimeout: s.counter("downstream_rq_header_timeout"),
    rqIdleTimeout: s.counter("downstream_rq_idle_timeout"),
    rqTimeout: s.counter("downstream_rq_timeout"),
    cxRxBytes: s.counter("downstream_cx_rx_bytes_total"),
    cxTxBytes: s.counter("downstream_cx_tx_bytes_total"),
    http1Underscores: underscoreCounters(root, "http1"),
    http2Underscores: underscoreCounters(root, "http2"),
    cxDestroy: s.counter("downstream_cx_destroy"),
    cxDestroyRemote: s.counter("downstream_cx_destroy_remote"),
    cxDestroyLocal: s.counter("downstream_cx_destroy_local"),
    cxDestroyRemoteActiveRq: s.counter("downstream_cx_destroy_remote_active_rq"),
    cxDestroyLocalActiveRq: s.counter("downstream_cx_destroy_local_active_rq"),
    cxDestroyActiveRq: s.counter("downstream_cx_destroy_active_rq"),
    rqRxReset: s.counter("downstream_rq_rx_reset"),
    rqTxReset: s.counter("downstream_rq_tx_reset"),
  };
}

/**
 * Counts a closed connection as Envoy's `ConnectionManagerImpl::onEvent` does: every one
 * (`downstream_cx_destroy`), by who closed it first (`_remote`, `_local`), and, when a request
 * was in flight (`active`), `_remote_active_rq` or `_local_active_rq` and `_active_rq`.
 */
export function countClose(n: LimitCounters, by: "remote" | "local", active: boolean): void {
  n.cxDestroy.inc();
  if (by === "remote") {
    n.cxDestroyRemote.inc();
    if (active) n.cxDestroyRemoteActiveRq.inc();
  } else {
    n.cxDestroyLocal.inc();
    if (active) n.cxDestroyLocalActiveRq.inc();
  }
  if (active) n.cxDestroyActiveRq.inc();
}
