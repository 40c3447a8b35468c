/**
 * A request as the connection manager sees it, whichever codec decoded it: our HTTP/1.1 codec
 * (`http1_codec.ts`) builds it directly from the bytes, the HTTP/2 server from each stream's head
 * (`h2_stream.ts`); a Fetch `Request` (tests, embedders) is converted with {@linkcode fromRequest}. It is also what route matchers see
 * (it is a {@linkcode MatchInput}).
 *
 * A codec that found the request malformed still hands it over, with `error` set, so the
 * connection manager answers it as a local reply (counted and logged, flag `DPE`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromRequest } from "./downstream_request.ts";
 * const r = fromRequest(new Request("http://a.example/p?q", { headers: { host: "a.example" } }));
 * assert.equal(r.method, "GET");
 * assert.equal(r.path, "/p?q");
 * assert.equal(r.authority, "a.example");
 * assert.equal(r.h2, false);
 * ```
 * @module
 */
import type { StreamReset } from "./stream_reset.ts";
import type { DynamicMetadata } from "./dynamic_metadata.ts";
import type { FilterState } from "./filter_state.ts";
import type { TrailerSlot } from "./trailers.ts";
import type { MemoryAccount } from "./memory_account.ts";

/** What a matcher can look at. */
export interface MatchInput {
  /** Path with query. */
  path: string;
  method: string;
  authority: string;
  scheme: string;
  headers: Headers;
}

/** The addresses of one downstream connection, shared by all its requests. */
export interface DownstreamConn {
  remoteAddr: Deno.NetAddr;
  localAddr: Deno.NetAddr;
  /** True when the connection is TLS (the request's scheme is `https`). */
  tls?: boolean;
}

/**
 * The abort reason of a request's `signal` when its client closed or reset the connection before
 * the answer was written (HTTP/1.1): Envoy's remote close with an active stream.
 */
export const DOWNSTREAM_REMOTE_CLOSE: Error = new Error(
  "downstream connection closed by the client",
);

/**
 * How an HTTP/2 request's client went away when it reset the stream (RST_STREAM) before the
 * answer, its connection still open: Envoy's `DR` (DownstreamRemoteReset).
 */
export const DOWNSTREAM_REMOTE_RESET: Error = new Error("downstream stream reset by the client");

/** A codec error: the status to answer with and its details (for logs). */
export interface CodecError {
  status: 400 | 426 | 431;
  details: string;
}

/** One downstream request. */
export interface DownstreamRequest extends MatchInput {
  /** Request body; null when there is none. */
  body: ReadableStream<Uint8Array> | null;
  /** Length of `body`: the content-length, 0 without a body, -1 when chunked. */
  contentLength: number;
  /** Arrived over HTTP/2. */
  h2: boolean;
  /** Set when the codec found the request malformed; it is then answered, never forwarded. */
  error: CodecError | null;
  /**
   * The request trailers, filled before the body stream ends: set on chunked HTTP/1.1 requests
   * when the connection manager's `enable_trailers` is.
   */
  trailers?: TrailerSlot;
  /** The codec error found in the body while it was read, if any (HTTP/1.1 codec only). */
  bodyError?: () => CodecError | null;
  /**
   * On an HTTP/1.1 `Upgrade` request: takes over the connection's following bytes (the upgraded
   * protocol's) as a stream; a 101 answer then goes out as is, followed by its body's bytes.
   */
  upgrade?: () => ReadableStream<Uint8Array>;
  /**
   * Replaces the stream idle timeout of this request (a route's `idle_timeout`; 0 turns it off),
   * on codecs that run one.
   */
  setIdleTimeout?: (ms: number) => void;
  /** The request's filter state, created by the first filter that stores an object in it. */
  filterState?: FilterState;
  /** The request's dynamic metadata, created by the first filter that writes to it. */
  dynamicMetadata?: DynamicMetadata;
  /**
   * Aborts when the stream is reset: by the client (an HTTP/2 reset, or an HTTP/1.1 connection
   * closed before the answer, reason {@linkcode DOWNSTREAM_REMOTE_CLOSE}), or by the overload
   * manager.
   */
  signal?: StreamReset;
  /**
   * Once the stream has ended early, whether its client went away: reset the stream
   * ({@linkcode DOWNSTREAM_REMOTE_RESET}) or closed its connection; null when it did not (codecs
   * whose `signal` does not carry the reason: HTTP/2). Asked once the request is handled.
   */
  clientGone?: () => Error | null;
  /** Resets the stream without an answer (codecs that can: HTTP/1.1 closes the connection). */
  reset?: () => void;
  /** The stream's buffer account, charged by the buffers that hold its bytes. */
  account?: MemoryAccount;
}

/**
 * The value of a `content-length` header: a decimal number, or a comma-separated list of equal
 * ones (optional spaces around each); -1 when malformed.
 */
export function parseContentLength(v: string): number {
  let value = -1;
  let cur = -1;
  let spaceAfter = false;
  for (let i = 0; i <= v.length; i++) {
    const c = i === v.length ? 44 : v.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (spaceAfter) return -1;
      cur = cur < 0 ? c - 48 : cur * 10 + (c - 48);
      if (cur > Number.MAX_SAFE_INTEGER) return -1;
    } else if (c === 32 || c === 9) {
      if (cur >= 0) spaceAfter = true;
    } else if (c === 44) {
      if (cur < 0 || (value >= 0 && cur !== value)) return -1;
      value = cur;
      cur = -1;
      spaceAfter = false;
    } else return -1;
  }
  return value;
}

/**
 * The body framing of a request from its `content-length` and `transfer-encoding` values:
 * the length (0 and up), -1 for chunked, or a codec error for both headers, a malformed or
 * conflicting length, or a transfer coding other than `chunked`.
 */
export function requestFraming(cl: string | null, te: string | null): number | CodecError {
  if (cl !== null) {
    if (te !== null) return { status: 400, details: "both content-length and transfer-encoding" };
    const n = parseContentLength(cl);
    return n < 0 ? { status: 400, details: "invalid content-length" } : n;
  }
  if (te === null) return 0;
  return te.trim().toLowerCase() === "chunked"
    ? -1
    : { status: 400, details: "unsupported transfer-encoding" };
}

/** A Fetch `Request` (from `Deno.serve`, or made by hand) as a downstream request. */
export function fromRequest(req: Request): DownstreamRequest {
  const h = req.headers;
  const url = req.url;
  const a = url.indexOf("://") + 3;
  const slash = url.indexOf("/", a);
  const hostHeader = h.get("host");
  const cl = h.get("content-length");
  const framing = requestFraming(cl, h.get("transfer-encoding"));
  const error = typeof framing === "number" ? null : framing;
  // Without a content-length (HTTP/2 needs none) a body has unknown length.
  const length = req.body === null
    ? 0
    : cl === null
    ? -1
    : typeof framing === "number"
    ? framing
    : -1;
  return {
    method: req.method,
    path: slash < 0 ? "/" : url.slice(slash),
    authority: hostHeader ?? url.slice(a, slash < 0 ? url.length : slash),
    scheme: "http",
    headers: h,
    body: req.body,
    contentLength: length,
    h2: hostHeader === null,
    error,
  };
}
