/**
 * The citation shared by the rows of `cluster.objects` that come from real Envoy.
 *
 * @module
 */
/**
 * The specification leaves the fields of the referenced message types unshown; rows for them
 * (check `internal`, facts from real Envoy in the `envoy` column) all cite this sentence.
 */
export const NOT_SHOWN = {
  section: "Cluster (configuration object)",
  quote:
    "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
} as const;
