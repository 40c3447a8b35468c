/**
 * What the router hands to a cluster: a request already cleaned by the connection manager
 * (hop-by-hop headers removed, `host` rewritten if the route says so, forwarding headers added).
 *
 * @example
 * ```ts
 * import { headText, type UpstreamRequest } from "./upstream_request.ts";
 * const r: UpstreamRequest = {
 *   method: "GET", path: "/", authority: "example.com", headers: [["accept", "*\/*"]],
 *   body: null, contentLength: 0, timeoutMs: 15000, priority: 0, downstreamH2: false,
 * };
 * console.log(headText(r).startsWith("GET / HTTP/1.1\r\nhost: example.com\r\n")); // true
 * ```
 * @module
 */
import type { LbContext } from "./lb/load_balancer.ts";

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
  /** The route timeout; 0 disables it. */
  timeoutMs: number;
  /** 0 DEFAULT, 1 HIGH. */
  priority: 0 | 1;
  /** The downstream connection speaks HTTP/2 (for USE_DOWNSTREAM_PROTOCOL). */
  downstreamH2: boolean;
  lb?: LbContext;
  /** Set by the pool when a host was chosen (for `%UPSTREAM_HOST%`). */
  upstream?: { readonly address: string; readonly port: number } | null;
}

const encoder = new TextEncoder();
// deno-lint-ignore no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

const latin1 = new TextDecoder("latin1");

/**
 * Decodes `b[from, to)` as a header block, one character per byte (TextDecoder's "latin1" is
 * windows-1252, which maps 0x80-0x9f elsewhere: those blocks are decoded byte by byte).
 */
export function decodeHead(b: Uint8Array, from: number, to: number): string {
  const s = latin1.decode(b.subarray(from, to));
  if (!NON_ASCII.test(s)) return s;
  let out = "";
  for (let i = from; i < to; i++) out += String.fromCharCode(b[i]);
  return out;
}

/** Encodes a header block as bytes, one byte per character (headers are Latin-1). */
export function encodeHead(s: string): Uint8Array {
  if (!NON_ASCII.test(s)) return encoder.encode(s);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

/**
 * Encodes a header block into `into` when it fits and is all ASCII (the usual case: no
 * allocation); the number of bytes written, or -1 (then use {@linkcode encodeHead}).
 */
export function encodeHeadInto(s: string, into: Uint8Array): number {
  if (s.length > into.length) return -1;
  const r = encoder.encodeInto(s, into);
  return r.read === s.length && r.written === s.length ? r.written : -1;
}

/**
 * The HTTP/1.1 request line and headers of `r`, ending with the empty line, as text (one
 * character per byte; {@linkcode encodeHead} makes the bytes).
 */
export function headText(r: UpstreamRequest): string {
  let h = r.method + " " + r.path + " HTTP/1.1\r\nhost: " + r.authority + "\r\n";
  const hs = r.headers;
  for (let i = 0; i < hs.length; i++) h += hs[i][0] + ": " + hs[i][1] + "\r\n";
  if (r.body !== null) {
    h += r.contentLength >= 0
      ? "content-length: " + r.contentLength + "\r\n"
      : "transfer-encoding: chunked\r\n";
  } else if (r.method === "POST" || r.method === "PUT" || r.method === "PATCH") {
    h += "content-length: 0\r\n";
  }
  return h + "\r\n";
}
