/**
 * Local replies: responses the proxy makes itself (no route, no healthy upstream, connect
 * failure, overflow, timeout), with Envoy's bodies and a `text/plain` content type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localReply, NO_HEALTHY_UPSTREAM } from "./local_reply.ts";
 * const r = localReply(503, NO_HEALTHY_UPSTREAM);
 * assert.equal(r.status, 503);
 * assert.equal(r.flag, "UH");
 * ```
 * @module
 */
import { HeaderMap } from "./header_map.ts";
import type { ProxyResponse } from "./proxy_response.ts";

/** Body when the cluster has no host to choose. */
export const NO_HEALTHY_UPSTREAM = "no healthy upstream";
/** Body when the route's timeout expires before the response. */
export const UPSTREAM_TIMEOUT = "upstream request timeout";
/** Body prefix when the upstream could not be reached or reset the stream. */
export const RESET_BEFORE_HEADERS =
  "upstream connect error or disconnect/reset before headers. reset reason: ";

/** A reset reason shown after {@linkcode RESET_BEFORE_HEADERS}. */
export type ResetReason =
  | "connection failure"
  | "overflow"
  | "connection termination"
  | "remote reset"
  | "protocol error";

/** The body Envoy sends for a reset reason. */
export function resetBody(reason: ResetReason): string {
  return RESET_BEFORE_HEADERS + reason;
}

/** Envoy's access log response flag of each local reply body made here. */
const FLAG_OF_BODY: ReadonlyMap<string, string> = new Map([
  [NO_HEALTHY_UPSTREAM, "UH"],
  [UPSTREAM_TIMEOUT, "UT"],
  [resetBody("connection failure"), "UF"],
  [resetBody("overflow"), "UO"],
  [resetBody("connection termination"), "UC"],
  [resetBody("remote reset"), "UR"],
  [resetBody("protocol error"), "UPE"],
]);

const encoder = new TextEncoder();
/** Encoded bodies of the replies made so far (the same few texts over and over). */
const BODIES = new Map<string, Uint8Array>();

function bodyOf(text: string): Uint8Array {
  let b = BODIES.get(text);
  if (b === undefined) {
    b = encoder.encode(text);
    if (BODIES.size < 256) BODIES.set(text, b);
  }
  return b;
}

/**
 * A local reply with a plain-text body (no body for 204 and 304). `flag` is the access log
 * response flag; by default the one of the body (`UH`, `UT`, `UF`, `UO`, `UC`, `UR`, `UPE`).
 */
export function localReply(
  status: number,
  body: string,
  extra?: Readonly<Record<string, string>>,
  flag?: string,
): ProxyResponse {
  const headers = new HeaderMap(extra === undefined ? undefined : Object.entries(extra));
  if (body) headers.set("content-type", "text/plain");
  const res: ProxyResponse = {
    status,
    headers,
    body: status === 204 || status === 304 || body === "" ? null : bodyOf(body),
  };
  const f = flag ?? FLAG_OF_BODY.get(body);
  if (f) res.flag = f;
  res.localBody = body;
  return res;
}
