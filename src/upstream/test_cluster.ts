/**
 * Builds {@linkcode EffectiveCluster} objects for tests with Envoy's defaults filled in. The
 * proxy itself builds them with `effectiveCluster()` of `src/config/effective_cluster.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { testCluster } from "./test_cluster.ts";
 * const c = testCluster("demo", [["127.0.0.1", 8080]]);
 * assert.equal(c.thresholds[0].max_connections, 1024);
 * ```
 * @module
 */
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import { type ProxyResponse, toResponse } from "../http/proxy_response.ts";

/** A STATIC round-robin cluster over `hosts`, with `over` applied on top. */
export function testCluster(
  name: string,
  hosts: [string, number, number?][],
  over: Partial<EffectiveCluster> = {},
): EffectiveCluster {
  return {
    name,
    statName: name.replaceAll(":", "_"),
    type: "STATIC",
    lbPolicy: "ROUND_ROBIN",
    connectTimeoutMs: 5000,
    perConnectionBufferLimitBytes: 1024 * 1024,
    maxRequestsPerConnection: 0,
    upstreamIdleTimeoutMs: 3_600_000,
    maxConnectionDurationMs: 0,
    hosts: hosts.map(([address, port, weight]) => ({
      address,
      port,
      hostname: "",
      weight: weight ?? 1,
      priority: 0,
      region: "",
      zone: "",
      sub_zone: "",
      metadata: {},
    })),
    thresholds: [
      {
        priority: "DEFAULT",
        max_connections: 1024,
        max_pending_requests: 1024,
        max_requests: 1024,
        max_retries: 3,
      },
      {
        priority: "HIGH",
        max_connections: 1024,
        max_pending_requests: 1024,
        max_requests: 1024,
        max_retries: 3,
      },
    ],
    http2: false,
    protocolSelection: "USE_CONFIGURED_PROTOCOL",
    tls: null,
    upstreamBind: null,
    tcpKeepalive: null,
    dnsRefreshRateMs: 5000,
    respectDnsTtl: false,
    dnsLookupFamily: "AUTO",
    cleanupIntervalMs: 5000,
    healthyPanicThreshold: 50,
    updateMergeWindowMs: 1000,
    ignoreNewHostsUntilFirstHc: false,
    ringHash: { minimumRingSize: 1024, maximumRingSize: 8388608, hashFunction: "XX_HASH" },
    leastRequest: { choiceCount: 2 },
    useHttpHeader: false,
    healthChecks: [],
    outlierDetection: null,
    closeConnectionsOnHostHealthFailure: false,
    drainConnectionsOnHostRemoval: false,
    config: { name },
    ...over,
  };
}

/** A GET `/` request to `example.test` with default settings, `over` applied on top. */
export function testRequest(over: Partial<UpstreamRequest> = {}): UpstreamRequest {
  return {
    method: "GET",
    path: "/",
    authority: "example.test",
    headers: [],
    body: null,
    contentLength: 0,
    timeoutMs: 15000,
    priority: 0,
    downstreamH2: false,
    ...over,
  };
}

/** `cluster.forward(r)` as a Fetch `Response` (for reading bodies in tests). */
export async function forwardResponse(
  cluster: { forward(r: UpstreamRequest): Promise<ProxyResponse> },
  r: UpstreamRequest,
): Promise<Response> {
  return toResponse(await cluster.forward(r));
}
