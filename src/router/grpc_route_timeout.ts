/**
 * The route timeout of a gRPC request, as Envoy's `FilterUtility::finalTimeout` computes it for a
 * route with `max_grpc_timeout` (and no `max_stream_duration`, whose "new timeouts" replace
 * both): the request's `grpc-timeout` header (absent: no limit), less `grpc_timeout_offset` when
 * the offset is smaller than it, then capped at `max_grpc_timeout` unless that is 0 (a request
 * without a limit gets the cap). The limit the upstream may use (the route's `per_try_timeout`
 * when it is shorter) goes upstream as the new `grpc-timeout` value. Other requests, and routes
 * without `max_grpc_timeout`, keep the route's `timeout`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grpcRouteTimeoutMs } from "./grpc_route_timeout.ts";
 * const route = { timeoutMs: 15000, maxGrpcTimeoutMs: 1000, grpcTimeoutOffsetMs: 50 };
 * const grpc = (t: string) => new Headers({ "content-type": "application/grpc", "grpc-timeout": t });
 * const h = grpc("300m");
 * assert.equal(grpcRouteTimeoutMs(route, 0, h), 250);
 * assert.equal(h.get("grpc-timeout"), "250m");
 * assert.equal(grpcRouteTimeoutMs(route, 0, grpc("5S")), 1000);
 * assert.equal(grpcRouteTimeoutMs(route, 0, new Headers({ "grpc-timeout": "5S" })), 15000);
 * ```
 * @module
 */
import { formatGrpcTimeout, parseGrpcTimeout } from "../http/grpc_timeout.ts";
import { isGrpcRequest } from "../http/grpc_local_reply.ts";

/** What {@linkcode grpcRouteTimeoutMs} reads of a route (all in ms). */
export interface GrpcTimeoutRoute {
  /** The route's `timeout` (0: none). */
  timeoutMs: number;
  /** `max_grpc_timeout` (0: the header's value is not capped); null when unset. */
  maxGrpcTimeoutMs: number | null;
  /** `grpc_timeout_offset`; null when unset. */
  grpcTimeoutOffsetMs: number | null;
}

/**
 * The global timeout (ms, 0: none) of a gRPC request with headers `headers` on a route with
 * `max_grpc_timeout`: its `grpc-timeout` less the offset, capped.
 */
export function grpcGlobalTimeoutMs(route: GrpcTimeoutRoute, headers: Headers): number {
  const max = route.maxGrpcTimeoutMs ?? 0;
  let ms = parseGrpcTimeout(headers.get("grpc-timeout")) ?? 0;
  const off = route.grpcTimeoutOffsetMs;
  // The offset applies only when it leaves some time: 0 would mean no limit at all.
  if (off !== null && off < ms) ms -= off;
  if (max !== 0 && (ms === 0 || ms > max)) ms = max;
  return ms;
}

/**
 * The global timeout (ms, 0: none) of a request with headers `headers` on `route`, whose retry
 * policy's `per_try_timeout` is `perTryMs` (0: none); a gRPC request on a route with
 * `max_grpc_timeout` has its `grpc-timeout` header set to the time the upstream has.
 */
export function grpcRouteTimeoutMs(
  route: GrpcTimeoutRoute,
  perTryMs: number,
  headers: Headers,
): number {
  const max = route.maxGrpcTimeoutMs;
  if (max === null || !isGrpcRequest(headers)) return route.timeoutMs;
  const ms = grpcGlobalTimeoutMs(route, headers);
  let expected = perTryMs > 0 && (ms === 0 || perTryMs < ms) ? perTryMs : ms;
  if (ms > 0) expected = Math.min(expected, ms);
  if (expected > 0) headers.set("grpc-timeout", formatGrpcTimeout(expected));
  return ms;
}
