/**
 * Response headers on their way downstream: hop-by-hop headers (and those named in
 * `connection`) removed, `x-proxy-upstream-service-time` added as Envoy adds
 * `x-envoy-upstream-service-time`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildResponseHeaders } from "./response_headers.ts";
 * const h = buildResponseHeaders([["connection", "close"], ["x-a", "1"]], performance.now());
 * assert.equal(h.has("connection"), false); // hop-by-hop: removed
 * assert.equal(h.get("x-a"), "1");
 * ```
 * @module
 */
import { HeaderMap } from "./header_map.ts";

/** Hop-by-hop headers, removed in both directions. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Names listed in a `connection` header value, lower-cased. */
export function connectionTokens(value: string | null): Set<string> | null {
  if (!value) return null;
  // The usual values name no header.
  if (value.length <= 10) {
    const v = value.toLowerCase();
    if (v === "keep-alive" || v === "close") return null;
  }
  const s = new Set<string>();
  for (const t of value.split(",")) {
    const n = t.trim().toLowerCase();
    if (n && n !== "close" && n !== "keep-alive") s.add(n);
  }
  return s.size ? s : null;
}

/**
 * Builds the downstream response headers from upstream ones (names lower-case, as the codecs
 * give them); the upstream service time runs from `t0` to `now` (performance clock).
 */
export function buildResponseHeaders(
  list: readonly [string, string][],
  t0: number,
  now: number = performance.now(),
): Headers {
  let named: Set<string> | null = null;
  for (const [k, v] of list) if (k === "connection") named = connectionTokens(v);
  // The names are lower-case already (the hop-by-hop test needs them so): taken as they are.
  const kv: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const k = list[i][0];
    if (HOP_BY_HOP.has(k) || named?.has(k)) continue;
    kv.push(k, list[i][1]);
  }
  const h = HeaderMap.fromFlat(kv);
  h.set("x-proxy-upstream-service-time", String(Math.round(now - t0)));
  return h;
}
