/**
 * Table `cluster.objects`: every field of the nested objects the specification describes
 * (CustomClusterType, EdsClusterConfig, LbSubsetConfig, LbSubsetSelector, LeastRequestLbConfig,
 * RingHashLbConfig, OriginalDstLbConfig, CommonLbConfig, ZoneAwareLbConfig, UpstreamBindConfig,
 * UpstreamConnectionOptions), then the parts of the referenced messages the specification does
 * not show but real Envoy pins with validation rules (core.Address, CircuitBreakers, HealthCheck,
 * OutlierDetection, ClusterLoadAssignment, ...). Those rows are `check: "internal"`, cite the
 * sentence that names the types, and give Envoy's rule in the `envoy` column. A message type
 * with no rows here (HttpHealthCheck, UpstreamTlsContext, Http2ProtocolOptions, ...) is opaque:
 * the validator only checks that it is an object.
 *
 * The rows live in `objects/`, one file per message (the rows the specification shows apart
 * from those taken from real Envoy); this module concatenates them in table order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLUSTER_OBJECTS } from "./objects.ts";
 * const ring = CLUSTER_OBJECTS.filter((r) => r.message === "Cluster.RingHashLbConfig");
 * assert.deepEqual(
 *   ring.map((r) => r.field),
 *   ["minimum_ring_size", "hash_function", "maximum_ring_size"],
 * );
 * ```
 * @module
 */
import type { FieldRow } from "../rule.ts";
import { CUSTOM_CLUSTER_TYPE } from "./objects/custom_cluster_type.ts";
import { EDS_CLUSTER_CONFIG } from "./objects/eds_cluster_config.ts";
import { LB_SUBSET_CONFIG } from "./objects/lb_subset_config.ts";
import {
  LEAST_REQUEST_LB_CONFIG,
  LEAST_REQUEST_LB_CONFIG_ENVOY,
} from "./objects/least_request_lb_config.ts";
import { MAGLEV_LB_CONFIG_ENVOY } from "./objects/maglev_lb_config.ts";
import { SLOW_START_CONFIG_ENVOY } from "./objects/slow_start_config.ts";
import { RING_HASH_LB_CONFIG } from "./objects/ring_hash_lb_config.ts";
import { ORIGINAL_DST_LB_CONFIG } from "./objects/original_dst_lb_config.ts";
import { COMMON_LB_CONFIG } from "./objects/common_lb_config.ts";
import {
  UPSTREAM_BIND_CONFIG,
  UPSTREAM_BIND_CONFIG_ENVOY,
} from "./objects/upstream_bind_config.ts";
import { UPSTREAM_CONNECTION_OPTIONS } from "./objects/upstream_connection_options.ts";
import { ADDRESS_ENVOY } from "./objects/address.ts";
import { SOCKET_ADDRESS_ENVOY } from "./objects/socket_address.ts";
import { PIPE_ENVOY } from "./objects/pipe.ts";
import { TCP_KEEPALIVE_ENVOY } from "./objects/tcp_keepalive.ts";
import { METADATA_ENVOY } from "./objects/metadata.ts";
import { TRANSPORT_SOCKET_ENVOY } from "./objects/transport_socket.ts";
import { CONFIG_SOURCE_ENVOY } from "./objects/config_source.ts";
import { CIRCUIT_BREAKERS_ENVOY } from "./objects/circuit_breakers.ts";
import { HEALTH_CHECK_ENVOY } from "./objects/health_check.ts";
import { OUTLIER_DETECTION_ENVOY } from "./objects/outlier_detection.ts";
import { CLUSTER_LOAD_ASSIGNMENT_ENVOY } from "./objects/cluster_load_assignment.ts";
import { LOCALITY_LB_ENDPOINTS_ENVOY } from "./objects/locality_lb_endpoints.ts";
import { LOCALITY_ENVOY } from "./objects/locality.ts";
import { LB_ENDPOINT, LB_ENDPOINT_ENVOY } from "./objects/lb_endpoint.ts";
import { ENDPOINT_ENVOY } from "./objects/endpoint.ts";

export { NOT_SHOWN } from "./objects/not_shown.ts";

/** Rows of the `cluster.objects` table. */
export const CLUSTER_OBJECTS = [
  ...CUSTOM_CLUSTER_TYPE,
  ...EDS_CLUSTER_CONFIG,
  ...LB_SUBSET_CONFIG,
  ...LEAST_REQUEST_LB_CONFIG,
  ...RING_HASH_LB_CONFIG,
  ...ORIGINAL_DST_LB_CONFIG,
  ...COMMON_LB_CONFIG,
  ...UPSTREAM_BIND_CONFIG,
  ...UPSTREAM_BIND_CONFIG_ENVOY,
  ...UPSTREAM_CONNECTION_OPTIONS,
  ...ADDRESS_ENVOY,
  ...SOCKET_ADDRESS_ENVOY,
  ...PIPE_ENVOY,
  ...TCP_KEEPALIVE_ENVOY,
  ...METADATA_ENVOY,
  ...TRANSPORT_SOCKET_ENVOY,
  ...CONFIG_SOURCE_ENVOY,
  ...CIRCUIT_BREAKERS_ENVOY,
  ...HEALTH_CHECK_ENVOY,
  ...OUTLIER_DETECTION_ENVOY,
  ...CLUSTER_LOAD_ASSIGNMENT_ENVOY,
  ...LOCALITY_LB_ENDPOINTS_ENVOY,
  ...LOCALITY_ENVOY,
  ...LB_ENDPOINT_ENVOY,
  ...LB_ENDPOINT,
  ...ENDPOINT_ENVOY,
  ...LEAST_REQUEST_LB_CONFIG_ENVOY,
  ...MAGLEV_LB_CONFIG_ENVOY,
  ...SLOW_START_CONFIG_ENVOY,
] as const satisfies readonly FieldRow[];
