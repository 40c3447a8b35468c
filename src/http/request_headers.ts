/**
 * Request headers on their way upstream, rebuilt once: hop-by-hop headers and those named in
 * `connection` removed, `host`/`content-length`/`transfer-encoding` taken out (the client sets
 * them), `x-forwarded-for`, `x-forwarded-proto` and `x-request-id` handled as Envoy does.
 * `te` is hop-by-hop too, but as in Envoy a value with the `trailers` token goes on as
 * `te: trailers` (gRPC servers require it), and any other value is removed.
 *
 * X-Forwarded-For follows Envoy: with `use_remote_address` the downstream address is appended,
 * or the server's local address (of `--local-address-ip-version`) when the downstream address is
 * loopback; without it the header is passed on unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { upstreamHeaders } from "./request_headers.ts";
 * const h = upstreamHeaders(new Headers({ connection: "x-a", "x-a": "1", accept: "*\/*" }),
 *   { appendXff: "10.0.0.1", proto: "http", requestId: true, overwriteProto: true });
 * assert.deepEqual(h.map(([k]) => k).sort(), [
 *   "accept",
 *   "x-forwarded-for",
 *   "x-forwarded-proto",
 *   "x-request-id",
 * ]);
 * ```
 * @module
 */
import { connectionTokens, HOP_BY_HOP } from "./response_headers.ts";
import { uuidV4 } from "./request_id.ts";

/** What to add. */
export interface ForwardingOptions {
  /** The address to append to `x-forwarded-for`, or `null` to leave it alone. */
  appendXff: string | null;
  /** The downstream scheme for `x-forwarded-proto`. */
  proto: string;
  /** Overwrite `x-forwarded-proto` (trusted edge) instead of only setting it when absent. */
  overwriteProto: boolean;
  /** Generate `x-request-id` when absent. */
  requestId: boolean;
}

const SKIP = new Set([...HOP_BY_HOP, "host", "content-length"]);

/** The upstream header list. */
export function upstreamHeaders(h: Headers, o: ForwardingOptions): [string, string][] {
  const named = connectionTokens(h.get("connection"));
  const out: [string, string][] = [];
  let xff: string | null = null;
  let proto = false;
  let rid = false;
  let te = false;
  h.forEach((v, k) => {
    if (k === "te") {
      te ||= v.split(",").some((t) => t.split(";")[0].trim().toLowerCase() === "trailers");
      return;
    }
    if (SKIP.has(k) || (named !== null && named.has(k))) return;
    if (k === "x-forwarded-for") {
      xff = xff === null ? v : `${xff}, ${v}`;
      return;
    }
    if (k === "x-forwarded-proto") {
      if (o.overwriteProto) return;
      proto = true;
    } else if (k === "x-request-id") rid = true;
    out.push([k, v]);
  });
  if (o.appendXff !== null) {
    out.push(["x-forwarded-for", xff ? `${xff}, ${o.appendXff}` : o.appendXff]);
  } else if (xff !== null) out.push(["x-forwarded-for", xff]);
  if (!proto) out.push(["x-forwarded-proto", o.proto]);
  if (!rid && o.requestId) out.push(["x-request-id", uuidV4()]);
  if (te) out.push(["te", "trailers"]);
  return out;
}

/** True for 127.0.0.0/8, ::1 and ::ffff:127.x.y.z. */
export function isLoopback(ip: string): boolean {
  return ip.startsWith("127.") || ip === "::1" || ip.startsWith("::ffff:127.");
}
