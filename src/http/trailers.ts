/**
 * HTTP trailers: header fields that come after a body (RFC 9110 §6.5). A response learns its
 * trailers only once its body has ended, so a {@linkcode ProxyResponse} carries a
 * {@linkcode TrailerSlot}: an object the upstream side fills before it ends the body stream, and
 * that the downstream codec and the access log read after it. The slot is shared by reference,
 * so a filter that copies the response (`{ ...res, body }`) keeps it.
 *
 * On HTTP/1.1 trailers exist only with chunked framing (RFC 9112 §7.1.2): the last chunk is
 * followed by field lines and an empty line ({@linkcode lastChunkWithTrailers}). As in Envoy,
 * the HTTP/1 codec reads and writes them only when `enable_trailers` is set on its
 * `http_protocol_options`, and drops them otherwise; HTTP/2 always carries them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastChunkWithTrailers, parseTrailerLine } from "./trailers.ts";
 * assert.deepEqual(parseTrailerLine("Grpc-Status: 0 "), ["grpc-status", "0"]);
 * assert.equal(lastChunkWithTrailers(new Headers({ "x-a": "1" })), "0\r\nx-a: 1\r\n\r\n");
 * ```
 * @module
 */
import { HeaderMap, lowerName } from "./header_map.ts";

/** Where a message's trailers land once its body has ended (null until then, or when none). */
export interface TrailerSlot {
  headers: Headers | null;
}

/** An empty slot. */
export function trailerSlot(): TrailerSlot {
  return { headers: null };
}

/**
 * Fields that may not be sent (or acted on) as trailers: framing, routing, request modifiers,
 * authentication, response control and payload processing (RFC 9110 §6.5.1), and HTTP/2
 * pseudo-headers.
 */
const FORBIDDEN: ReadonlySet<string> = new Set([
  "authorization",
  "cache-control",
  "connection",
  "content-encoding",
  "content-length",
  "content-range",
  "content-type",
  "expect",
  "host",
  "keep-alive",
  "max-forwards",
  "pragma",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "range",
  "set-cookie",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "www-authenticate",
]);

/** True when a trailer field named `name` (lower-case) may be forwarded. */
export function forwardableTrailer(name: string): boolean {
  return !FORBIDDEN.has(name) && !name.startsWith(":");
}

const TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;

/** True when `v` holds no control character other than horizontal tab. */
function isFieldValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 127) return false;
  }
  return true;
}

/**
 * One trailer field line (`name: value`) as `[lower-case name, trimmed value]`, or null when it
 * is not a well-formed field line.
 */
export function parseTrailerLine(line: string): [string, string] | null {
  const c = line.indexOf(":");
  if (c <= 0) return null;
  const name = line.slice(0, c);
  const value = line.slice(c + 1).trim();
  if (!TOKEN.test(name) || !isFieldValue(value)) return null;
  return [lowerName(name), value];
}

/** Trailers from a list of fields: the forwardable ones, or null when none is left. */
export function trailersOf(list: readonly (readonly [string, string])[]): Headers | null {
  let h: Headers | null = null;
  for (const [k, v] of list) {
    if (!forwardableTrailer(k)) continue;
    (h ??= new HeaderMap()).append(k, v);
  }
  return h;
}

/**
 * The end of a chunked body with `trailers`: the last chunk, a field line per trailer and the
 * empty line. Without trailers (or none forwardable) it is the plain `0\r\n\r\n`.
 */
export function lastChunkWithTrailers(trailers: Headers | null): string {
  let text = "0\r\n";
  trailers?.forEach((v, k) => {
    if (forwardableTrailer(k)) text += k + ": " + v + "\r\n";
  });
  return text + "\r\n";
}
