/**
 * Local replies to gRPC requests, as Envoy's `Utility::prepareLocalReply` makes them: a request
 * whose `content-type` is `application/grpc` (alone or followed by `+`, as
 * `Grpc::Common::hasGrpcContentType`; `application/grpc-web` is not gRPC) gets every reply the
 * proxy makes itself as a trailers-only gRPC response: `:status` 200, `content-type:
 * application/grpc`, `grpc-status` (kept when the reply already has one; else the status the
 * reply was made with, else the HTTP status mapped by `Grpc::Utility::httpToGrpcStatus`),
 * `grpc-message` with the body text percent-encoded (`PercentEncoding::encode`; none for an empty
 * body or a HEAD request; a JSON body loses its final newline), and no body.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localReply } from "./local_reply.ts";
 * import { httpToGrpcStatus, isGrpcRequest, toGrpcLocalReply } from "./grpc_local_reply.ts";
 * assert.equal(isGrpcRequest(new Headers({ "content-type": "application/grpc+proto" })), true);
 * assert.equal(isGrpcRequest(new Headers({ "content-type": "application/grpc-web" })), false);
 * assert.equal(httpToGrpcStatus(503), 14);
 * const r = toGrpcLocalReply(localReply(413, "too large"), false);
 * assert.equal(r.status, 200);
 * assert.equal(r.headers.get("grpc-status"), "2");
 * assert.equal(r.headers.get("grpc-message"), "too large");
 * assert.equal(r.body, null);
 * ```
 * @module
 */
import type { ProxyResponse } from "./proxy_response.ts";

const GRPC = "application/grpc";

/** True when `h` has a gRPC content type: exactly `application/grpc`, or `application/grpc+...`. */
export function isGrpcRequest(h: Headers): boolean {
  const ct = h.get("content-type");
  if (ct === null || !ct.startsWith(GRPC)) return false;
  return ct.length === GRPC.length || ct.charCodeAt(GRPC.length) === 0x2b;
}

/** gRPC's status for an HTTP status (the mapping of gRPC's `http-grpc-status-mapping.md`). */
export function httpToGrpcStatus(status: number): number {
  switch (status) {
    case 400:
      return 13; // INTERNAL
    case 401:
      return 16; // UNAUTHENTICATED
    case 403:
      return 7; // PERMISSION_DENIED
    case 404:
      return 12; // UNIMPLEMENTED
    case 429:
    case 502:
    case 503:
    case 504:
      return 14; // UNAVAILABLE
    default:
      return 2; // UNKNOWN
  }
}

const encoder = new TextEncoder();
const HEX = "0123456789ABCDEF";

/**
 * `text` percent-encoded for a `grpc-message` header: each UTF-8 byte below a space, from `~` up,
 * and `%` becomes `%XX` (upper-case hex); the rest is kept.
 */
export function percentEncodeGrpcMessage(text: string): string {
  let plain = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c >= 0x7e || c === 0x25) {
      plain = false;
      break;
    }
  }
  if (plain) return text;
  let out = "";
  for (const b of encoder.encode(text)) {
    out += b < 0x20 || b >= 0x7e || b === 0x25
      ? `%${HEX[b >> 4]}${HEX[b & 15]}`
      : String.fromCharCode(b);
  }
  return out;
}

/**
 * Turns the local reply `res` (its body text in `res.localBody`) into a trailers-only gRPC
 * response, in place; `head` is true for a HEAD request (no `grpc-message`).
 */
export function toGrpcLocalReply(res: ProxyResponse, head: boolean): ProxyResponse {
  const h = res.headers;
  let text = res.localBody ?? "";
  if (h.get("content-type") === "application/json" && text.endsWith("\n")) {
    text = text.slice(0, -1);
  }
  if (!h.has("grpc-status")) {
    h.set("grpc-status", String(res.grpcStatus ?? httpToGrpcStatus(res.status)));
  }
  if (text !== "" && !head) h.set("grpc-message", percentEncodeGrpcMessage(text));
  h.set("content-type", GRPC);
  h.delete("content-length");
  if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
  res.body = null;
  res.status = 200;
  return res;
}
