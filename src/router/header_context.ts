/**
 * What the command operators in a route's header values see: the downstream request and
 * connection, the time it started, its dynamic metadata, and (for response headers) the upstream
 * host and response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headerRecord } from "./header_context.ts";
 * const a = { transport: "tcp" as const, hostname: "127.0.0.1", port: 1 };
 * const r = headerRecord({ method: "GET", path: "/", authority: "h", scheme: "http",
 *   headers: new Headers(), h2: false }, { remoteAddr: a, localAddr: a }, Date.now(), null, null);
 * assert.equal(r.req!(":path"), "/");
 * ```
 * @module
 */
import type { LogRecord } from "../access_log/access_log_format.ts";
import type { DownstreamConn, MatchInput } from "../http/downstream_request.ts";
import type { DynamicMetadata } from "../http/dynamic_metadata.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { hostPort } from "../upstream/host.ts";

/** A record for formatting header values of request `m` on `conn`. */
export function headerRecord(
  m: MatchInput & { h2: boolean; dynamicMetadata?: DynamicMetadata },
  conn: DownstreamConn,
  startMs: number,
  upstream: { readonly address: string; readonly port: number } | null | undefined,
  res: ProxyResponse | null,
  cluster: string | null = null,
): LogRecord {
  return {
    startMs,
    protocol: m.h2 ? "HTTP/2" : "HTTP/1.1",
    req: (name) => {
      switch (name) {
        case ":method":
          return m.method;
        case ":path":
          return m.path;
        case ":authority":
          return m.authority;
        case ":scheme":
          return m.scheme;
      }
      return m.headers.get(name);
    },
    resp: res === null ? null : res.headers,
    status: res === null ? 0 : res.status,
    flags: res?.flag === undefined ? [] : [res.flag],
    bytesReceived: 0,
    bytesSent: 0,
    durationMs: Date.now() - startMs,
    upstreamHost: upstream ? hostPort(upstream.address, upstream.port) : null,
    upstreamCluster: cluster,
    downstreamRemote: conn.remoteAddr,
    downstreamLocal: conn.localAddr,
    dynamicMetadata: m.dynamicMetadata ?? null,
  };
}
