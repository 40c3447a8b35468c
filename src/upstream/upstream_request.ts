/**
 * What the router hands to a cluster: a request already cleaned by the connection manager
 * (hop-by-hop headers removed, `host` rewritten if the route says so, forwarding headers added).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headText, type UpstreamRequest } from "./upstream_request.ts";
 * const r: UpstreamRequest = {
 *   method: "GET", path: "/", authority: "example.com", headers: [["accept", "*\/*"]],
 *   body: null, contentLength: 0, timeoutMs: 15000, priority: 0, downstreamH2: false,
 * };
 * assert.equal(headText(r).startsWith("GET / HTTP/1.1\r\nhost: example.com\r\n"), true);
 * ```
 * @module
 */
import type { LbContext } from "./lb/load_balancer.ts";
import type { TrailerSlot } from "../http/trailers.ts";

/**
 * An attempt in flight that the router can abandon: `abort` resets it upstream (an HTTP/1.1
 * connection is closed, not pooled again; an HTTP/2 stream gets RST_STREAM; a request still
 * waiting for a connection leaves the queue). It does nothing once the response head came (the
 * body's `cancel` ends the exchange then) or after the exchange ended.
 */
export interface UpstreamAttempt {
  abort(): void;
}

/** A request on its way upstream. */
export interface UpstreamRequest {
  method: string;
  /** Path and query. */
  path: string;
  /** The `host` / `:authority` to send. */
  authority: string;
  /** Lower-case names; no `host`, `content-length`, `transfer-encoding` or hop-by-hop headers. */
  headers: [string, string][];
  body: ReadableStream<Uint8Array> | null;
  /** Length of `body` when known, else -1. */
  contentLength: number;
  /** The request trailers, filled before `body` ends (sent after it, when the protocol can). */
  trailers?: TrailerSlot;
  /** The route timeout; 0 disables it. */
  timeoutMs: number;
  /** 0 DEFAULT, 1 HIGH. */
  priority: 0 | 1;
  /** The downstream connection speaks HTTP/2 (for USE_DOWNSTREAM_PROTOCOL). */
  downstreamH2: boolean;
  lb?: LbContext;
  /** The timeout is the route's per-try timeout (counted as `upstream_rq_per_try_timeout`). */
  perTryTimeout?: boolean;
  /** The status of the reply to a timeout (`x-proxy-upstream-rq-timeout-alt-response`: 204). */
  timeoutStatus?: 504 | 204;
  /** `auto_host_rewrite`: the chosen host's hostname, when it has one, becomes the authority. */
  autoHostRewrite?: boolean;
  /** The route's `metadata_match` criteria for subset balancing (`proxy.lb` / `envoy.lb`). */
  metadataMatch?: LbContext["metadataMatch"];
  /** The downstream connection's local address (the destination of ORIGINAL_DST clusters). */
  downstreamLocal?: { readonly hostname: string; readonly port: number };
  /** Set when the request is sent to a host: the attempt in flight, for the router to abandon. */
  attempt?: UpstreamAttempt | null;
  /** Set by the pool when a host was chosen (for `%UPSTREAM_HOST%`). */
  upstream?: { readonly address: string; readonly port: number } | null;
}

/**
 * The HTTP/1.1 request line and headers of `r`, ending with the empty line, as text (one
 * character per byte; `encodeHead` of `src/http/head_bytes.ts` makes the bytes).
 */
export function headText(r: UpstreamRequest): string {
  let h = "";
  composeHead(r, (s) => {
    h += s;
  });
  return h;
}

/**
 * {@linkcode headText} handed to `put` piece by piece (e.g. a `HeadWriter`'s, which writes the
 * bytes without making the text).
 */
export function composeHead(r: UpstreamRequest, put: (s: string) => void): void {
  put(r.method);
  put(" ");
  put(r.path);
  put(" HTTP/1.1\r\nhost: ");
  put(r.authority);
  put("\r\n");
  const hs = r.headers;
  for (let i = 0; i < hs.length; i++) {
    put(hs[i][0]);
    put(": ");
    put(hs[i][1]);
    put("\r\n");
  }
  if (r.body !== null) {
    if (r.contentLength >= 0) {
      put("content-length: ");
      put(String(r.contentLength));
      put("\r\n");
    } else put("transfer-encoding: chunked\r\n");
  } else if (r.method === "POST" || r.method === "PUT" || r.method === "PATCH") {
    put("content-length: 0\r\n");
  }
  put("\r\n");
}
