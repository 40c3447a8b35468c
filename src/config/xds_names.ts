/**
 * The names of the xDS services without their messages: the resource type URLs, the REST paths
 * and the gRPC method paths. Code that only names a resource type imports them from here, so
 * the protobuf runtime (`xds_wire.ts`, loaded through `protobuf_module.ts`) stays out of a
 * process that never speaks xDS.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GRPC_METHODS, REST_PATHS, TYPE_URLS } from "./xds_names.ts";
 * assert.equal(REST_PATHS[TYPE_URLS.cds], "/v3/discovery:clusters");
 * assert.ok(GRPC_METHODS.ads.endsWith("/StreamAggregatedResources"));
 * ```
 * @module
 */

/** The v3 type URLs of the resource types, by their xDS short name. */
export const TYPE_URLS = {
  cds: "type.googleapis.com/envoy.config.cluster.v3.Cluster",
  eds: "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
  lds: "type.googleapis.com/envoy.config.listener.v3.Listener",
  rds: "type.googleapis.com/envoy.config.route.v3.RouteConfiguration",
} as const;

/** The REST paths (`api_type: REST`) per resource type URL. */
export const REST_PATHS: Record<string, string> = {
  [TYPE_URLS.cds]: "/v3/discovery:clusters",
  [TYPE_URLS.eds]: "/v3/discovery:endpoints",
  [TYPE_URLS.lds]: "/v3/discovery:listeners",
  [TYPE_URLS.rds]: "/v3/discovery:routes",
};

/** The gRPC method paths per resource type (`ads` is the aggregated one). */
export const GRPC_METHODS = {
  ads: "/envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources",
  adsDelta: "/envoy.service.discovery.v3.AggregatedDiscoveryService/DeltaAggregatedResources",
  cds: "/envoy.service.cluster.v3.ClusterDiscoveryService/StreamClusters",
  cdsDelta: "/envoy.service.cluster.v3.ClusterDiscoveryService/DeltaClusters",
  eds: "/envoy.service.endpoint.v3.EndpointDiscoveryService/StreamEndpoints",
  edsDelta: "/envoy.service.endpoint.v3.EndpointDiscoveryService/DeltaEndpoints",
  lds: "/envoy.service.listener.v3.ListenerDiscoveryService/StreamListeners",
  ldsDelta: "/envoy.service.listener.v3.ListenerDiscoveryService/DeltaListeners",
  rds: "/envoy.service.route.v3.RouteDiscoveryService/StreamRoutes",
  rdsDelta: "/envoy.service.route.v3.RouteDiscoveryService/DeltaRoutes",
} as const;
