/**
 * For every configuration field this build honours (the support column of the cluster rows and
 * the `support` table), the test that observes its effect: `[file, test name or a unique part of
 * it]`. `support_walk_test.ts` fails when an honoured field has no entry, or an entry names a test
 * that does not exist. Fields whose effect is a value of the effective cluster name the test of
 * that mapping (`defaults_test.ts`) when the consumer's own test builds the effective form
 * directly.
 *
 * @module
 */

const UP = "src/upstream/";
const HCM = "src/listener/http_connection_manager_test.ts";
const DUMP = "src/admin/config_dump_handler_test.ts";
const DEFAULTS = "src/config/defaults_test.ts";
const TYPED = "src/config/upstream_http_options_test.ts";
const TYPED_UP = "src/listener/upstream_protocol_test.ts";
const LIMITS_UP = "src/upstream/connection_limits_test.ts";
const DUMPED = "configuration data no filter reads (metadata, names) is shown as configured";
const TLS = `${UP}protocols_test.ts`;
const MTLS = "the client certificate is presented to the upstream (mTLS";
const VERIFIED = "verified against trusted_ca with SNI";
const ROUTING = "listener http routing actions: cluster, prefix_rewrite";
const EFFECTS = "listener http server_name, generate_request_id false, redirect actions";
const HC_FILTER = "health check filter answers 200, and 503 while failing";
const EDS = `${UP}eds_test.ts`;
const EDS_LOAD = "initial load from a file sets hosts, health and stats";
const HOSTS = "hosts come from load_assignment";
const CLUSTERS_TEXT = "admin.endpoints.clusters, admin.resources.clusters.version_info-static";
const BIND = "src/server/bind_proxy_test.ts";
const CB = `${UP}cluster_test.ts`;
const WALK = "src/cli/support_walk_test.ts";
const SERVED = "the walking test's minimal bootstrap itself is valid and served as written";
const TCP = "src/listener/tcp_proxy_test.ts";
const LIMITS = "src/listener/downstream_limits_test.ts";
const INTERNAL = "src/listener/internal_headers_test.ts";
const OVERLOAD = "src/server/overload_manager_test.ts";
const HEADERS = [
  "src/listener/route_headers_test.ts",
  "route, virtual host and route table in Envoy's order",
] as const;
const UPGRADE = [
  "src/listener/route_upgrade_test.ts",
  "messages flow both ways; a route can turn it off",
] as const;
const MIRROR = ["src/listener/route_mirror_test.ts", "a shadow copy with its body"] as const;
const REDIRECTS = ["src/listener/route_redirect_test.ts", "as Envoy builds it"] as const;
const REWRITES = [
  "src/listener/route_redirect_test.ts",
  "regex_rewrite, host_rewrite_header, host_rewrite_path_regex",
] as const;
const SUBSET = `${UP}lb/subset_test.ts`;
const SUBSET_ROUTING = "src/listener/subset_routing_test.ts";
const SUBSET_THROUGH = "route and weighted-cluster metadata_match route to the matching subset";
const XDS_TEST = "tools/xds_server_test.ts";
const XDS_ADS = "the proxy bootstrapped with ads_config gets clusters and endpoints";
const XDS_API = "api_config_source GRPC and DELTA_GRPC streams per type carry CDS and EDS";
const TLS_L = "src/listener/tls_listener_test.ts";
const DOWN = "downstream TLS: HTTPS through a TLS filter chain";
const MTLS_DOWN = "require_client_certificate with trusted_ca refuses";
const SNI = "server_names choose the chain and its certificate";
const FCM = "src/listener/filter_chain_match_test.ts";
const SDS = "src/listener/sds_test.ts";
const SDS_STATIC = "from static_resources.secrets";
const SDS_FILE = "from an SDS file (path_config_source)";
const SDS_UP = "upstream client certificate and CA from static secrets";
const FILTERS = "src/listener/http_filters_test.ts";
const HCM_OPTS = "src/listener/hcm_options_test.ts";
const ADMIN_LOG = "src/access_log/admin_access_log_test.ts";

/** Honoured field (`<message>.<field>`) -> `[test file from the repository root, test name]`. */
export const HONOURED: Readonly<Record<string, readonly [string, string]>> = {
  "core.HealthCheck.timeout": [
    `${UP}health_check/health_checker_test.ts`,
    "garbage answers fail by timeout",
  ],
  "core.HealthCheck.interval": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the next check waits as Envoy chooses",
  ],
  "core.HealthCheck.initial_jitter": [
    `${UP}health_check/health_check_connection_test.ts`,
    "the first check waits a random share of initial_jitter",
  ],
  "core.HealthCheck.interval_jitter": [
    `${UP}health_check/health_check_interval_test.ts`,
    "jitter adds a random share of both",
  ],
  "core.HealthCheck.interval_jitter_percent": [
    `${UP}health_check/health_check_interval_test.ts`,
    "jitter adds a random share of both",
  ],
  "core.HealthCheck.unhealthy_threshold": [
    `${UP}health_check/health_transition_test.ts`,
    "the failed flag follows the thresholds exactly",
  ],
  "core.HealthCheck.healthy_threshold": [
    `${UP}health_check/health_transition_test.ts`,
    "the failed flag follows the thresholds exactly",
  ],
  "core.HealthCheck.reuse_connection": [
    `${UP}health_check/health_check_connection_test.ts`,
    "TCP checks keep one connection with reuse_connection",
  ],
  "core.HealthCheck.http_health_check": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.tcp_health_check": [
    `${UP}health_check/health_checker_test.ts`,
    "send and receive hex payloads",
  ],
  "core.HealthCheck.grpc_health_check": [
    `${UP}health_check/health_checker_test.ts`,
    "grpc.health.v1.Health/Check over HTTP/2",
  ],
  "core.HealthCheck.no_traffic_interval": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the next check waits as Envoy chooses",
  ],
  "core.HealthCheck.unhealthy_interval": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the next check waits as Envoy chooses",
  ],
  "core.HealthCheck.unhealthy_edge_interval": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the next check waits as Envoy chooses",
  ],
  "core.HealthCheck.healthy_edge_interval": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the next check waits as Envoy chooses",
  ],
  "core.HealthCheck.event_log_path": [
    `${UP}health_check/health_checker_test.ts`,
    "JSON lines as Envoy writes them",
  ],
  "core.HealthCheck.always_log_health_check_failures": [
    `${UP}health_check/health_checker_test.ts`,
    "JSON lines as Envoy writes them",
  ],
  "core.HealthCheck.tls_options": [
    `${UP}health_check/health_check_connection_test.ts`,
    "checks over TLS offer tls_options.alpn_protocols",
  ],
  "core.HealthCheck.no_traffic_healthy_interval": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the next check waits as Envoy chooses",
  ],
  "core.HealthCheck.Payload.text": [
    `${UP}health_check/health_checker_test.ts`,
    "send and receive hex payloads",
  ],
  "core.HealthCheck.HttpHealthCheck.host": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.HttpHealthCheck.path": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.HttpHealthCheck.request_headers_to_add": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.HttpHealthCheck.request_headers_to_remove": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.HttpHealthCheck.expected_statuses": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.HttpHealthCheck.retriable_statuses": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "core.HealthCheck.HttpHealthCheck.codec_client_type": [
    `${UP}health_check/health_checker_test.ts`,
    "HTTP2 checks over one reused session",
  ],
  "core.HealthCheck.HttpHealthCheck.service_name_matcher": [
    `${UP}health_check/health_check_interval_test.ts`,
    "the checked cluster header must match",
  ],
  "core.HealthCheck.Payload.binary": [
    `${UP}health_check/health_checker_test.ts`,
    "binary payloads (base64)",
  ],
  "core.HealthCheck.TcpHealthCheck.send": [
    `${UP}health_check/health_checker_test.ts`,
    "send and receive hex payloads",
  ],
  "core.HealthCheck.TcpHealthCheck.receive": [
    `${UP}health_check/health_checker_test.ts`,
    "send and receive hex payloads",
  ],
  "core.HealthCheck.GrpcHealthCheck.service_name": [
    `${UP}health_check/health_checker_test.ts`,
    "grpc.health.v1.Health/Check over HTTP/2",
  ],
  "core.HealthCheck.GrpcHealthCheck.authority": [
    `${UP}health_check/health_checker_test.ts`,
    "grpc.health.v1.Health/Check over HTTP/2",
  ],
  "core.HealthCheck.TlsOptions.alpn_protocols": [
    `${UP}health_check/health_check_connection_test.ts`,
    "checks over TLS offer tls_options.alpn_protocols",
  ],
  "type.Int64Range.start": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "type.Int64Range.end": [
    `${UP}health_check/health_checker_test.ts`,
    "status, expected_statuses, headers to add and remove",
  ],
  "cluster.OutlierDetection.consecutive_5xx": [
    `${UP}outlier/outlier_detector_test.ts`,
    "ejected after consecutive_5xx, back after the ejection time",
  ],
  "cluster.OutlierDetection.interval": [
    `${UP}outlier/outlier_detector_test.ts`,
    "ejected after consecutive_5xx, back after the ejection time",
  ],
  "cluster.OutlierDetection.base_ejection_time": [
    `${UP}outlier/outlier_detector_test.ts`,
    "ejected after consecutive_5xx, back after the ejection time",
  ],
  "cluster.OutlierDetection.max_ejection_percent": [
    `${UP}outlier/outlier_detector_test.ts`,
    "ejections never exceed max_ejection_percent",
  ],
  "cluster.OutlierDetection.enforcing_consecutive_5xx": [
    `${UP}outlier/outlier_detector_test.ts`,
    "runtime values override the configuration without a restart",
  ],
  "cluster.OutlierDetection.enforcing_success_rate": [
    `${UP}outlier/outlier_detector_test.ts`,
    "success-rate outliers are ejected; figures are shown",
  ],
  "cluster.OutlierDetection.success_rate_minimum_hosts": [
    `${UP}outlier/outlier_detector_test.ts`,
    "success-rate outliers are ejected; figures are shown",
  ],
  "cluster.OutlierDetection.success_rate_request_volume": [
    `${UP}outlier/outlier_detector_test.ts`,
    "success-rate outliers are ejected; figures are shown",
  ],
  "cluster.OutlierDetection.success_rate_stdev_factor": [
    `${UP}outlier/outlier_detector_test.ts`,
    "success-rate outliers are ejected; figures are shown",
  ],
  "cluster.OutlierDetection.consecutive_gateway_failure": [
    `${UP}outlier/outlier_detector_test.ts`,
    "gateway failures eject only when enforced",
  ],
  "cluster.OutlierDetection.enforcing_consecutive_gateway_failure": [
    `${UP}outlier/outlier_detector_test.ts`,
    "gateway failures eject only when enforced",
  ],
  "cluster.OutlierDetection.split_external_local_origin_errors": [
    `${UP}outlier/outlier_detector_test.ts`,
    "local-origin failures count apart with the split",
  ],
  "cluster.OutlierDetection.consecutive_local_origin_failure": [
    `${UP}outlier/outlier_detector_test.ts`,
    "local-origin failures count apart with the split",
  ],
  "cluster.OutlierDetection.enforcing_consecutive_local_origin_failure": [
    `${UP}outlier/outlier_detector_test.ts`,
    "local-origin failures count apart with the split",
  ],
  "cluster.OutlierDetection.enforcing_local_origin_success_rate": [
    `${UP}outlier/outlier_detector_test.ts`,
    "local-origin failures count apart with the split",
  ],
  "cluster.OutlierDetection.failure_percentage_threshold": [
    `${UP}outlier/outlier_detector_test.ts`,
    "failure-percentage ejection when enforced",
  ],
  "cluster.OutlierDetection.enforcing_failure_percentage": [
    `${UP}outlier/outlier_detector_test.ts`,
    "failure-percentage ejection when enforced",
  ],
  "cluster.OutlierDetection.enforcing_failure_percentage_local_origin": [
    `${UP}outlier/outlier_detector_test.ts`,
    "failure-percentage ejection when enforced",
  ],
  "cluster.OutlierDetection.failure_percentage_minimum_hosts": [
    `${UP}outlier/outlier_detector_test.ts`,
    "failure-percentage ejection when enforced",
  ],
  "cluster.OutlierDetection.failure_percentage_request_volume": [
    `${UP}outlier/outlier_detector_test.ts`,
    "failure-percentage ejection when enforced",
  ],
  "cluster.OutlierDetection.max_ejection_time": [
    `${UP}outlier/outlier_detector_test.ts`,
    "repeated ejections back off, capped by max_ejection_time",
  ],
  "cluster.OutlierDetection.max_ejection_time_jitter": [
    `${UP}outlier/outlier_detector_test.ts`,
    "repeated ejections back off, capped by max_ejection_time",
  ],
  "cluster.OutlierDetection.successful_active_health_check_uneject_host": [
    `${UP}health_check/health_checker_test.ts`,
    "a passing active check returns an ejected host",
  ],
  "Cluster.health_checks": [
    `${UP}health_check/health_checker_test.ts`,
    "an origin that stops listening becomes /failed_active_hc",
  ],
  "Cluster.outlier_detection": [
    `${UP}outlier/outlier_origin_test.ts`,
    "an origin answering 503 is ejected after consecutive_5xx",
  ],
  "Cluster.CommonLbConfig.ignore_new_hosts_until_first_hc": [
    `${UP}priority_load_test.ts`,
    "hosts not checked yet leave the denominator but stay eligible in panic",
  ],
  "Cluster.name": ["src/stats/naming_test.ts", "cluster.fields.name: stats use the name"],
  "Cluster.alt_stat_name": ["src/stats/naming_test.ts", "alt_stat_name replaces the name"],
  "Cluster.type": [`${UP}dns_test.ts`, "LOGICAL_DNS keeps one host, the first address"],
  "Cluster.cluster_type": [WALK, "cluster_type selects the behaviour of its discovery type"],
  "Cluster.eds_cluster_config": [EDS, EDS_LOAD],
  "Cluster.connect_timeout": [TLS, "a TLS handshake that never completes ends at connect_timeout"],
  "Cluster.per_connection_buffer_limit_bytes": [CB, "a large response is read ahead by a bounded"],
  "Cluster.lb_policy": [`${UP}lb/load_balancer_test.ts`, "LEAST_REQUEST compares choice_count"],
  "Cluster.original_dst_lb_config": [
    "src/listener/original_dst_routing_test.ts",
    "ORIGINAL_DST with use_http_header reaches the origin the header names",
  ],
  "Cluster.OriginalDstLbConfig.use_http_header": [
    "src/listener/original_dst_routing_test.ts",
    "without use_http_header the header is not read",
  ],
  "Cluster.cleanup_interval": [
    "src/listener/original_dst_routing_test.ts",
    "the ORIGINAL_DST clean-up timer removes an unused host by itself",
  ],
  "Cluster.lb_subset_config": [SUBSET_ROUTING, SUBSET_THROUGH],
  "Cluster.LbSubsetConfig.fallback_policy": [
    SUBSET,
    "NO_FALLBACK, ANY_ENDPOINT and DEFAULT_SUBSET",
  ],
  "Cluster.LbSubsetConfig.default_subset": [SUBSET, "NO_FALLBACK, ANY_ENDPOINT and DEFAULT_SUBSET"],
  "Cluster.LbSubsetConfig.subset_selectors": [SUBSET, "criteria select the hosts with exactly"],
  "Cluster.LbSubsetConfig.panic_mode_any": [SUBSET, "a fallback that finds no host uses any"],
  "Cluster.LbSubsetConfig.list_as_any": [SUBSET, "an endpoint list value matches each element"],
  "Cluster.LbSubsetConfig.LbSubsetSelector.keys": [SUBSET, "criteria select the hosts with"],
  "Cluster.LbSubsetConfig.LbSubsetSelector.fallback_policy": [
    SUBSET,
    "a selector's own policy overrides the top-level one",
  ],
  "Cluster.CommonLbConfig.locality_weighted_lb_config": [
    "src/listener/locality_routing_test.ts",
    "through a listener, localities share traffic by their load_balancing_weight",
  ],
  "endpoint.LocalityLbEndpoints.load_balancing_weight": [
    `${UP}lb/locality_weighted_test.ts`,
    "a locality's weight shrinks with its availability",
  ],
  "Cluster.LbSubsetConfig.locality_weight_aware": [
    `${UP}lb/locality_weighted_test.ts`,
    "subsets weigh localities only when asked",
  ],
  "Cluster.LbSubsetConfig.scale_locality_weight": [
    `${UP}lb/locality_weighted_test.ts`,
    "scale_locality_weight scales by the subset's share",
  ],
  "Cluster.CommonLbConfig.zone_aware_lb_config": [
    "src/listener/zone_routing_test.ts",
    "zone-aware routing keeps traffic in the proxy's zone",
  ],
  "Cluster.CommonLbConfig.ZoneAwareLbConfig.routing_enabled": [
    `${UP}lb/zone_aware_test.ts`,
    "routing_enabled is the share of requests routed zone-aware",
  ],
  "Cluster.CommonLbConfig.ZoneAwareLbConfig.min_cluster_size": [
    `${UP}lb/zone_aware_test.ts`,
    "below min_cluster_size, or with routing_enabled 0",
  ],
  "ClusterManager.outlier_detection": [
    "src/server/workers_outlier_test.ts",
    "the event log has one line each",
  ],
  "ClusterManager.OutlierDetection.event_log_path": [
    `${UP}outlier/outlier_event_log_test.ts`,
    "as Envoy writes OutlierDetectionEvent",
  ],
  "ClusterManager.local_cluster_name": [
    "src/listener/zone_routing_test.ts",
    "zone-aware routing keeps traffic in the proxy's zone",
  ],
  "Cluster.CommonLbConfig.update_merge_window": [
    `${UP}host_set_updates_test.ts`,
    "health changes within the window reach the balancer when it ends",
  ],
  "Cluster.close_connections_on_host_health_failure": [
    "src/listener/tcp_health_close_test.ts",
    "the TCP proxy's connections to a host that turns unhealthy close at once",
  ],
  "Cluster.drain_connections_on_host_removal": [
    `${UP}host_set_updates_test.ts`,
    "a removed host passing its checks stays until it fails them",
  ],
  "Cluster.ring_hash_lb_config": [`${UP}lb/lb_config_test.ts`, "their settings reach the balancer"],
  "Cluster.hosts": [DEFAULTS, HOSTS],
  "Cluster.load_assignment": [DEFAULTS, HOSTS],
  "Cluster.max_requests_per_connection": [CB, "value 1 disables keep-alive"],
  "Cluster.circuit_breakers": [CB, "the third request overflows with 503"],
  "Cluster.tls_context": [TLS, VERIFIED],
  "Cluster.http2_protocol_options": [TLS, "HTTP/2 prior knowledge (h2c), one session"],
  "Cluster.typed_extension_protocol_options": [TYPED_UP, "explicit_http_config with http2"],
  "upstreams.HttpProtocolOptions.explicit_http_config": [
    TYPED_UP,
    "explicit_http_config with http2",
  ],
  "upstreams.HttpProtocolOptions.use_downstream_protocol_config": [
    TYPED_UP,
    "use_downstream_protocol_config follows",
  ],
  "upstreams.HttpConfig.http_protocol_options": [TYPED_UP, "with http_protocol_options HTTP/1.1"],
  "upstreams.HttpProtocolOptions.auto_config": [
    "src/listener/upstream_alpn_test.ts",
    "each host speaks what its TLS handshake chooses",
  ],
  "core.Http2ProtocolOptions.max_concurrent_streams": [
    `${UP}http2_streams_test.ts`,
    "makes the next stream open another connection",
  ],
  "Cluster.http_protocol_options": [
    "src/listener/trailers_test.ts",
    "the cluster's own http_protocol_options.enable_trailers",
  ],
  "Cluster.common_http_protocol_options": [LIMITS_UP, "idle_timeout closes an idle upstream"],
  "upstreams.HttpProtocolOptions.common_http_protocol_options": [
    TYPED,
    "common_http_protocol_options inside typed",
  ],
  "core.Http1ProtocolOptions.enable_trailers": [
    "src/listener/trailers_test.ts",
    "trailers reach an HTTP/1.1 client with enable_trailers on both sides",
  ],
  "core.HttpProtocolOptions.idle_timeout": [LIMITS_UP, "idle_timeout closes an idle upstream"],
  "core.HttpProtocolOptions.max_connection_duration": [
    LIMITS_UP,
    "max_connection_duration lets the",
  ],
  "core.HttpProtocolOptions.max_stream_duration": [
    "src/listener/upstream_stream_limits_test.ts",
    "a silent upstream stream is reset and answered 504",
  ],
  "core.HttpProtocolOptions.max_headers_count": [
    "src/listener/upstream_stream_limits_test.ts",
    "a response head with more fields is a protocol error (503)",
  ],
  "core.HttpProtocolOptions.max_requests_per_connection": [
    TYPED,
    "common_http_protocol_options inside typed",
  ],
  "upstreams.HttpConfig.http2_protocol_options": [TYPED, "HTTP/2 settings inside the typed"],
  "Cluster.dns_refresh_rate": [
    `${UP}dns_test.ts`,
    "STRICT_DNS makes one host per address and follows",
  ],
  "Cluster.dns_lookup_family": [`${UP}dns_test.ts`, "the system resolver finds localhost"],
  "Cluster.upstream_bind_config": [
    BIND,
    "HTTP through the proxy reaches the origin from the source",
  ],
  "Cluster.least_request_lb_config": [
    `${UP}lb/load_balancer_test.ts`,
    "LEAST_REQUEST compares choice_count random draws",
  ],
  "Cluster.common_lb_config": [`${UP}lb/load_balancer_test.ts`, "all unhealthy enters panic"],
  "Cluster.transport_socket": [TLS, VERIFIED],
  "Cluster.metadata": [DUMP, DUMPED],
  "Cluster.protocol_selection": [TLS, "USE_DOWNSTREAM_PROTOCOL follows the downstream protocol"],
  "Cluster.upstream_connection_options": [`${UP}tcp_keepalive_test.ts`, "reach the socket"],
  "Cluster.CustomClusterType.name": [WALK, "cluster_type selects the behaviour"],
  "Cluster.EdsClusterConfig.eds_config": [EDS, EDS_LOAD],
  "Cluster.EdsClusterConfig.service_name": [`${UP}eds_source_test.ts`, "service_name, else"],
  "Cluster.LeastRequestLbConfig.choice_count": [
    `${UP}lb/load_balancer_test.ts`,
    "LEAST_REQUEST compares choice_count random draws",
  ],
  "Cluster.RingHashLbConfig.minimum_ring_size": [
    `${UP}lb/ring_hash_test.ts`,
    "ring scaled up to whole hashes per host",
  ],
  "Cluster.RingHashLbConfig.maximum_ring_size": [
    `${UP}lb/ring_hash_test.ts`,
    "weights 1, 2, 3 on a ring of exactly 6",
  ],
  "Cluster.RingHashLbConfig.hash_function": [
    `${UP}lb/ring_hash_test.ts`,
    "MURMUR_HASH_2 picks as Envoy",
  ],
  "Cluster.maglev_lb_config": [`${UP}lb/policy_options_test.ts`, "table has table_size slots"],
  "Cluster.MaglevLbConfig.table_size": [`${UP}lb/policy_options_test.ts`, "has table_size slots"],
  "Cluster.LeastRequestLbConfig.active_request_bias": [
    `${UP}lb/policy_options_test.ts`,
    "weight / (active + 1) ^ bias",
  ],
  "Cluster.round_robin_lb_config": [`${UP}lb/policy_options_test.ts`, "ROUND_ROBIN: a host added"],
  "Cluster.RoundRobinLbConfig.slow_start_config": [
    `${UP}lb/policy_options_test.ts`,
    "ROUND_ROBIN: a host added",
  ],
  "Cluster.LeastRequestLbConfig.slow_start_config": [
    `${UP}lb/policy_options_test.ts`,
    "LEAST_REQUEST: a host added",
  ],
  "Cluster.SlowStartConfig.slow_start_window": [
    `${UP}lb/slow_start_hc_test.ts`,
    "re-enters slow start",
  ],
  "Cluster.SlowStartConfig.aggression": [
    `${UP}lb/policy_options_test.ts`,
    "(elapsed / window) ^ (1 / aggression)",
  ],
  "Cluster.SlowStartConfig.min_weight_percent": [
    `${UP}lb/policy_options_test.ts`,
    "starts at min_weight_percent",
  ],
  "core.RuntimeDouble.default_value": [`${UP}lb/policy_options_test.ts`, "runtime over default"],
  "core.RuntimeDouble.runtime_key": [`${UP}lb/policy_options_test.ts`, "runtime over default"],
  "Cluster.CommonLbConfig.healthy_panic_threshold": [
    `${UP}lb/load_balancer_test.ts`,
    "all unhealthy enters panic",
  ],
  "UpstreamBindConfig.source_address": [BIND, "reaches the origin from the source address"],
  "UpstreamConnectionOptions.tcp_keepalive": [`${UP}tcp_keepalive_test.ts`, "reach the socket"],
  "core.Address.socket_address": [WALK, SERVED],
  "core.SocketAddress.address": [WALK, SERVED],
  "core.SocketAddress.port_value": [WALK, SERVED],
  "core.TcpKeepalive.keepalive_probes": [`${UP}tcp_keepalive_test.ts`, "reach the socket"],
  "core.TcpKeepalive.keepalive_time": [`${UP}tcp_keepalive_test.ts`, "reach the socket"],
  "core.TcpKeepalive.keepalive_interval": [`${UP}tcp_keepalive_test.ts`, "reach the socket"],
  "core.Metadata.filter_metadata": [DUMP, DUMPED],
  "core.Metadata.typed_filter_metadata": [DUMP, DUMPED],
  "core.TransportSocket.name": [TLS, VERIFIED],
  "core.TransportSocket.config": [TLS, VERIFIED],
  "core.TransportSocket.typed_config": [TLS, VERIFIED],
  "core.ConfigSource.path": [EDS, EDS_LOAD],
  "core.ConfigSource.path_config_source": [`${UP}eds_source_test.ts`, "service_name, else"],
  "core.PathConfigSource.path": [`${UP}eds_source_test.ts`, "service_name, else"],
  "core.ConfigSource.resource_api_version": [EDS, EDS_LOAD],
  "core.ConfigSource.ads": [XDS_TEST, XDS_ADS],
  "core.ConfigSource.api_config_source": [XDS_TEST, XDS_API],
  "core.ConfigSource.initial_fetch_timeout": [XDS_TEST, XDS_API],
  "cluster.CircuitBreakers.thresholds": [CB, "the third request overflows with 503"],
  "cluster.CircuitBreakers.Thresholds.priority": [
    "src/admin/clusters_handler_test.ts",
    "admin.general.thresholds-priority",
  ],
  "cluster.CircuitBreakers.Thresholds.max_connections": [CB, "the third request overflows"],
  "cluster.CircuitBreakers.Thresholds.max_pending_requests": [CB, "the third request overflows"],
  "cluster.CircuitBreakers.Thresholds.max_requests": [CB, "max_requests overflow counts"],
  "cluster.CircuitBreakers.Thresholds.max_retries": [
    "src/listener/route_retry_test.ts",
    "max_retries 0 stops every retry",
  ],
  "cluster.CircuitBreakers.Thresholds.retry_budget": [
    "src/listener/retry_budget_test.ts",
    "a budget replaces max_retries",
  ],
  "cluster.CircuitBreakers.Thresholds.RetryBudget.budget_percent": [
    "src/listener/retry_budget_test.ts",
    "retries over the budget overflow",
  ],
  "cluster.CircuitBreakers.Thresholds.RetryBudget.min_retry_concurrency": [
    "src/listener/retry_budget_test.ts",
    "retries over the budget overflow",
  ],
  "ClusterLoadAssignment.cluster_name": [EDS, EDS_LOAD],
  "ClusterLoadAssignment.endpoints": [DEFAULTS, HOSTS],
  "endpoint.LocalityLbEndpoints.locality": [EDS, EDS_LOAD],
  "endpoint.LocalityLbEndpoints.lb_endpoints": [DEFAULTS, HOSTS],
  "endpoint.LocalityLbEndpoints.priority": [DEFAULTS, HOSTS],
  "core.Locality.region": [EDS, EDS_LOAD],
  "core.Locality.zone": ["src/admin/clusters_handler_test.ts", CLUSTERS_TEXT],
  "core.Locality.sub_zone": ["src/admin/clusters_handler_test.ts", CLUSTERS_TEXT],
  "endpoint.LbEndpoint.endpoint": [DEFAULTS, HOSTS],
  "endpoint.LbEndpoint.health_status": [EDS, EDS_LOAD],
  "endpoint.LbEndpoint.metadata": [SUBSET_ROUTING, SUBSET_THROUGH],
  "endpoint.LbEndpoint.load_balancing_weight": [DEFAULTS, HOSTS],
  "endpoint.Endpoint.address": [DEFAULTS, HOSTS],
  "endpoint.Endpoint.hostname": [DEFAULTS, HOSTS],
  "Bootstrap.node": [DUMP, DUMPED],
  "Bootstrap.static_resources": [WALK, SERVED],
  "Bootstrap.dynamic_resources": [
    `${UP}dynamic_clusters_test.ts`,
    "CDS from a file adds clusters and reports its version",
  ],
  "Bootstrap.cluster_manager": [BIND, "cluster_manager.upstream_bind_config binds clusters"],
  "Bootstrap.stats_sinks": ["src/server/lifecycle_test.ts", "features come from the command line"],
  "Bootstrap.stats_flush_interval": [
    "src/server/flush_timer_test.ts",
    "the timer flushes the store",
  ],
  "Bootstrap.runtime": ["src/server/runtime_test.ts", "static, disk and admin layers in order"],
  "Bootstrap.admin": ["src/cli/serve_test.ts", "serves the admin on the bootstrap address"],
  "Bootstrap.layered_runtime": ["src/server/runtime_test.ts", "static, disk and admin layers"],
  "Bootstrap.stats_server_version_override": [
    WALK,
    "stats_server_version_override is server.version",
  ],
  "Bootstrap.stats_flush_on_admin": [
    "src/admin/stats_handler_test.ts",
    "stats_flush_on_admin flushes before answering",
  ],
  "StaticResources.listeners": [WALK, SERVED],
  "StaticResources.clusters": [WALK, SERVED],
  "StaticResources.secrets": [DUMP, "every dump in Envoy's order, secrets redacted"],
  "DynamicResources.cds_config": [`${UP}dynamic_clusters_test.ts`, "CDS from a file adds clusters"],
  "DynamicResources.ads_config": [XDS_TEST, XDS_ADS],
  "DynamicResources.lds_config": [XDS_TEST, "listeners come from LDS over ADS"],
  "ClusterManager.upstream_bind_config": [BIND, "cluster_manager.upstream_bind_config binds"],
  "ClusterManager.load_stats_config": [
    "tools/xds_lrs_test.ts",
    "load reports carry per-locality request counts",
  ],
  "StatsSink.name": ["src/server/lifecycle_test.ts", "features come from the command line"],
  "StatsSink.config": ["src/server/lifecycle_test.ts", "features come from the command line"],
  "StatsSink.typed_config": ["src/server/lifecycle_test.ts", "features come from the command"],
  "Admin.profile_path": [
    "src/admin/profiling_handler_test.ts",
    "the CPU profile is written to admin.profile_path",
  ],
  "Admin.address": ["src/cli/serve_test.ts", "serves the admin on the bootstrap address"],
  "Admin.access_log": [ADMIN_LOG, "v3 access_log list: admin requests are logged"],
  "Admin.access_log_path": [ADMIN_LOG, "v2 access_log_path: admin requests are logged"],
  "VirtualHost.cors": [FILTERS, "the virtual host policy applies"],
  "VirtualHost.per_filter_config": [FILTERS, "the virtual host policy applies"],
  "VirtualHost.typed_per_filter_config": [FILTERS, "the virtual host policy applies"],
  "Route.per_filter_config": [FILTERS, "buffer filter: a body over max_request_bytes"],
  "Route.typed_per_filter_config": [FILTERS, "per-route override"],
  "RouteAction.cors": [FILTERS, "preflight answered from the route policy"],
  "HttpFilter.is_optional": [FILTERS, "is_optional ones are skipped with a warning"],
  "Listener.name": ["src/admin/listeners_handler_test.ts", "text lists name::address"],
  "Listener.address": ["src/listener/listener_manager_test.ts", "port 0 binds a free port"],
  "Listener.filter_chains": [HCM, ROUTING],
  "Listener.metadata": [DUMP, DUMPED],
  "Listener.traffic_direction": [
    "src/listener/listener_manager_test.ts",
    "inboundonly only INBOUND ones",
  ],
  "FilterChain.filters": [HCM, ROUTING],
  "FilterChain.filter_chain_match": [TLS_L, SNI],
  "CommonTlsContext.tls_certificate_sds_secret_configs": [SDS, SDS_UP],
  "CommonTlsContext.validation_context_sds_secret_config": [SDS, SDS_UP],
  "DownstreamCommonTlsContext.tls_certificate_sds_secret_configs": [SDS, SDS_STATIC],
  "DownstreamCommonTlsContext.validation_context_sds_secret_config": [SDS, SDS_STATIC],
  "SdsSecretConfig.name": [SDS, SDS_STATIC],
  "SdsSecretConfig.sds_config": [SDS, SDS_FILE],
  "SdsConfigSource.path": [SDS, "a missing SDS file"],
  "SdsConfigSource.path_config_source": [SDS, SDS_FILE],
  "SdsConfigSource.resource_api_version": [SDS, SDS_FILE],
  "FilterChain.transport_socket": [TLS_L, DOWN],
  "FilterChain.tls_context": [TLS_L, "v2 tls_context"],
  "FilterChain.transport_socket_connect_timeout": [TLS_L, "transport_socket_connect_timeout"],
  "Listener.listener_filters": [TLS_L, SNI],
  "Listener.use_original_dst": [
    "src/listener/original_dst_listener_test.ts",
    "goes to the listener bound to its original destination",
  ],
  "Listener.listener_filters_timeout": [TLS_L, "listener_filters_timeout"],
  "Listener.continue_on_listener_filters_timeout": [TLS_L, "listener_filters_timeout"],
  "Listener.default_filter_chain": [TLS_L, SNI],
  "FilterChainMatch.destination_port": [FCM, "destination_port"],
  "FilterChainMatch.prefix_ranges": [FCM, "prefix_ranges"],
  "FilterChainMatch.server_names": [FCM, "server_names"],
  "FilterChainMatch.transport_protocol": [TLS_L, "no_filter_chain_match"],
  "FilterChainMatch.application_protocols": [TLS_L, "http_inspector"],
  "FilterChainMatch.direct_source_prefix_ranges": [FCM, "source criteria"],
  "FilterChainMatch.source_type": [FCM, "source criteria"],
  "FilterChainMatch.source_prefix_ranges": [FCM, "source criteria"],
  "FilterChainMatch.source_ports": [FCM, "source criteria"],
  "DownstreamTransportSocket.name": [TLS_L, DOWN],
  "DownstreamTransportSocket.typed_config": [TLS_L, DOWN],
  "DownstreamTransportSocket.config": [TLS_L, "v2 tls_context"],
  "auth.DownstreamTlsContext.common_tls_context": [TLS_L, DOWN],
  "auth.DownstreamTlsContext.require_client_certificate": [TLS_L, MTLS_DOWN],
  "auth.DownstreamTlsContext.require_sni": [TLS_L, "require_sni"],
  "DownstreamCommonTlsContext.tls_params": [TLS_L, "tls_params bound"],
  "DownstreamCommonTlsContext.tls_certificates": [TLS_L, SNI],
  "DownstreamCommonTlsContext.validation_context": [TLS_L, MTLS_DOWN],
  "DownstreamCommonTlsContext.alpn_protocols": [TLS_L, "HTTP/2 over TLS by ALPN"],
  "DownstreamTlsParams.tls_minimum_protocol_version": [TLS_L, "tls_params bound"],
  "DownstreamTlsParams.tls_maximum_protocol_version": [TLS_L, "tls_params bound"],
  "DownstreamValidationContext.trusted_ca": [TLS_L, MTLS_DOWN],
  "DownstreamValidationContext.match_typed_subject_alt_names": [TLS_L, "SAN matchers"],
  "DownstreamValidationContext.match_subject_alt_names": [TLS_L, "SAN matchers"],
  "FilterChain.name": [DUMP, DUMPED],
  "FilterChain.metadata": [DUMP, DUMPED],
  "NetworkFilter.name": [HCM, ROUTING],
  "NetworkFilter.config": [TCP, "listener tcp_proxy echoes bytes both ways"],
  "NetworkFilter.typed_config": [HCM, ROUTING],
  "HttpConnectionManager.stat_prefix": [HCM, "downstream stats: downstream_rq_total"],
  "HttpConnectionManager.route_config": [HCM, ROUTING],
  "HttpConnectionManager.http_filters": [HCM, HC_FILTER],
  "HttpConnectionManager.rds": [XDS_TEST, "a listener's routes come from RDS"],
  "HttpConnectionManager.access_log": ["src/listener/access_log_test.ts", "v3 text_format lines"],
  "HttpConnectionManager.use_remote_address": [HCM, "without use_remote_address leaves"],
  "HttpConnectionManager.server_name": [HCM, EFFECTS],
  "HttpConnectionManager.generate_request_id": [HCM, EFFECTS],
  "HttpConnectionManager.common_http_protocol_options": [LIMITS, "downstream idle_timeout"],
  "HttpConnectionManager.max_request_headers_kb": [LIMITS, "max_request_headers_kb answer 431"],
  "HttpConnectionManager.idle_timeout": [LIMITS, "unset fields take Envoy's defaults"],
  "HttpConnectionManager.stream_idle_timeout": [LIMITS, "downstream stream_idle_timeout"],
  "HttpConnectionManager.request_timeout": [LIMITS, "downstream request_timeout"],
  "HttpConnectionManager.request_headers_timeout": [LIMITS, "downstream request_headers_timeout"],
  "Listener.per_connection_buffer_limit_bytes": [
    "src/listener/back_pressure_test.ts",
    "an upstream that does not read an upload",
  ],
  "Bootstrap.overload_manager": [OVERLOAD, "stop_accepting_requests: 503"],
  "OverloadManager.refresh_interval": [OVERLOAD, "refresh_interval: the monitors are read"],
  "OverloadManager.resource_monitors": [OVERLOAD, "stop_accepting_requests: 503"],
  "OverloadManager.actions": [OVERLOAD, "stop_accepting_connections: no connection"],
  "OverloadManager.buffer_factory_config": [
    "src/server/overload_reset_test.ts",
    "reset_high_memory_stream: the stream buffering the most is reset",
  ],
  "HttpConnectionManager.xff_num_trusted_hops": [INTERNAL, "x-forwarded-for entry xff_num"],
  "HttpConnectionManager.skip_xff_append": [INTERNAL, "skip_xff_append leaves"],
  "HttpConnectionManager.internal_address_config": [INTERNAL, "never reach the upstream"],
  "InternalAddressConfig.cidr_ranges": [INTERNAL, "never reach the upstream"],
  "DownstreamHttpProtocolOptions.idle_timeout": [LIMITS, "downstream idle_timeout"],
  "DownstreamHttpProtocolOptions.max_connection_duration": [
    LIMITS,
    "downstream max_connection_duration",
  ],
  "DownstreamHttpProtocolOptions.max_headers_count": [LIMITS, "max_request_headers_kb answer 431"],
  "DownstreamHttpProtocolOptions.headers_with_underscores_action": [
    "src/listener/headers_with_underscores_test.ts",
    "DROP_HEADER removes it over HTTP/1.1",
  ],
  "DownstreamHttpProtocolOptions.max_requests_per_connection": [
    LIMITS,
    "downstream max_requests_per_connection",
  ],
  "DownstreamHttpProtocolOptions.max_stream_duration": [
    "src/listener/stream_duration_test.ts",
    "DownstreamHttpProtocolOptions.max_stream_duration: a silent HTTP/1.1 origin: 504",
  ],
  "RouteAction.max_stream_duration": [
    "src/listener/stream_duration_test.ts",
    "RouteAction.max_stream_duration: replaces the connection manager's limit, 0 turns it off",
  ],
  "MaxStreamDuration.max_stream_duration": [
    "src/listener/stream_duration_test.ts",
    "RouteAction.max_stream_duration: replaces the connection manager's limit, 0 turns it off",
  ],
  "MaxStreamDuration.grpc_timeout_header_max": [
    "src/listener/stream_duration_test.ts",
    "MaxStreamDuration.grpc_timeout_header_max: the grpc-timeout header gives the limit",
  ],
  "MaxStreamDuration.grpc_timeout_header_offset": [
    "src/listener/stream_duration_test.ts",
    "MaxStreamDuration.grpc_timeout_header_max: the grpc-timeout header gives the limit, capped, less grpc_timeout_header_offset",
  ],
  "RouteAction.max_grpc_timeout": [
    "src/listener/grpc_route_timeout_test.ts",
    "RouteAction.max_grpc_timeout: a client grpc-timeout larger than the cap",
  ],
  "RouteAction.grpc_timeout_offset": [
    "src/listener/grpc_route_timeout_test.ts",
    "RouteAction.grpc_timeout_offset: a client grpc-timeout smaller than the cap",
  ],
  "Router.suppress_envoy_headers": [
    "src/listener/route_timeout_headers_test.ts",
    "Router.suppress_envoy_headers: no x-proxy-expected-rq-timeout-ms upstream",
  ],
  "Router.respect_expected_rq_timeout": [
    "src/listener/route_timeout_headers_test.ts",
    "Router.respect_expected_rq_timeout: an x-envoy-expected-rq-timeout-ms request header",
  ],
  "HttpConnectionManager.local_reply_config": [HCM_OPTS, "local_reply_config: a mapper"],
  "HttpConnectionManager.codec_type": [HCM_OPTS, "codec_type: HTTP1 refuses h2c"],
  "HttpConnectionManager.http_protocol_options": [HCM_OPTS, "http_protocol_options: HTTP/1.0"],
  "HttpConnectionManager.server_header_transformation": [HCM_OPTS, "server_header_transformation"],
  "HttpConnectionManager.normalize_path": [HCM_OPTS, "normalize_path and merge_slashes"],
  "HttpConnectionManager.merge_slashes": [HCM_OPTS, "normalize_path and merge_slashes"],
  "HttpConnectionManager.path_with_escaped_slashes_action": [HCM_OPTS, "escaped slashes"],
  "RouteConfiguration.name": [DUMP, DUMPED],
  "RouteConfiguration.virtual_hosts": ["src/router/route_config_test.ts", "route virtual hosts"],
  "RouteConfiguration.validate_clusters": [
    "src/listener/listener_manager_test.ts",
    "constructor throws ConfigLoadError for an unknown route cluster",
  ],
  "VirtualHost.name": [DUMP, DUMPED],
  "VirtualHost.domains": ["src/router/route_config_test.ts", "route virtual hosts"],
  "VirtualHost.routes": ["src/router/route_config_test.ts", "route match kinds"],
  "Route.name": [DUMP, DUMPED],
  "Route.match": ["src/router/route_config_test.ts", "route match kinds"],
  "Route.route": [HCM, ROUTING],
  "Route.redirect": [HCM, EFFECTS],
  "Route.direct_response": [HCM, "listener http direct_response, 404 when no route"],
  "RouteAction.cluster": [HCM, ROUTING],
  "RouteAction.metadata_match": [SUBSET_ROUTING, SUBSET_THROUGH],
  "ClusterWeight.metadata_match": [SUBSET_ROUTING, SUBSET_THROUGH],
  "RouteAction.cluster_header": [HCM, ROUTING],
  "RouteAction.weighted_clusters": [HCM, ROUTING],
  "RouteAction.prefix_rewrite": [HCM, ROUTING],
  "RouteAction.host_rewrite": [HCM, ROUTING],
  "RouteAction.host_rewrite_literal": [HCM, ROUTING],
  "RouteAction.timeout": [CB, "upstream route timeout answers 504"],
  "RouteAction.priority": [HCM, "a HIGH priority route uses the HIGH circuit breaker"],
  "RouteAction.hash_policy": [
    "src/listener/hash_routing_test.ts",
    "the same header value always reaches the same origin",
  ],
  "WeightedCluster.clusters": [HCM, ROUTING],
  "WeightedCluster.total_weight": [HCM, EFFECTS],
  "ClusterWeight.name": [HCM, ROUTING],
  "ClusterWeight.weight": [HCM, ROUTING],
  "RedirectAction.host_redirect": [HCM, EFFECTS],
  "RedirectAction.path_redirect": [HCM, EFFECTS],
  "RedirectAction.https_redirect": [HCM, EFFECTS],
  "RedirectAction.response_code": [HCM, EFFECTS],
  "RouteConfiguration.response_headers_to_add": HEADERS,
  "RouteConfiguration.response_headers_to_remove": HEADERS,
  "RouteConfiguration.request_headers_to_add": HEADERS,
  "RouteConfiguration.request_headers_to_remove": HEADERS,
  "VirtualHost.response_headers_to_add": HEADERS,
  "VirtualHost.response_headers_to_remove": HEADERS,
  "VirtualHost.request_headers_to_add": HEADERS,
  "VirtualHost.request_headers_to_remove": HEADERS,
  "Route.response_headers_to_add": HEADERS,
  "Route.response_headers_to_remove": HEADERS,
  "Route.request_headers_to_add": HEADERS,
  "Route.request_headers_to_remove": HEADERS,
  "RouteConfiguration.most_specific_header_mutations_wins": HEADERS,
  "VirtualHost.include_request_attempt_count": [
    "src/listener/route_retry_test.ts",
    "attempt counts go upstream and back",
  ],
  "VirtualHost.include_attempt_count_in_response": [
    "src/listener/route_retry_test.ts",
    "attempt counts go upstream and back",
  ],
  "VirtualHost.retry_policy": [
    "src/listener/route_retry_test.ts",
    "its policy applies to routes without one",
  ],
  "VirtualHost.per_request_buffer_limit_bytes": [
    "src/listener/route_retry_test.ts",
    "retries are abandoned",
  ],
  "Route.per_request_buffer_limit_bytes": [
    "src/listener/route_retry_test.ts",
    "retries are abandoned",
  ],
  "RouteAction.retry_policy": [
    "src/listener/route_retry_test.ts",
    "an origin that fails twice is retried",
  ],
  "RouteAction.regex_rewrite": REWRITES,
  "RouteAction.host_rewrite_header": REWRITES,
  "RouteAction.request_mirror_policy": MIRROR,
  "RouteAction.upgrade_configs": UPGRADE,
  "HttpConnectionManager.preserve_external_request_id": [
    "src/listener/request_id_test.ts",
    "an edge request keeps its x-request-id",
  ],
  "core.Http2ProtocolOptions.initial_stream_window_size": [
    "src/listener/upstream_http2_settings_test.ts",
    "the SETTINGS and connection window reach the upstream",
  ],
  "core.Http2ProtocolOptions.initial_connection_window_size": [
    "src/listener/upstream_http2_settings_test.ts",
    "the SETTINGS and connection window reach the upstream",
  ],
  "core.Http2ProtocolOptions.hpack_table_size": [
    "src/listener/upstream_http2_settings_test.ts",
    "the SETTINGS and connection window reach the upstream",
  ],
  "RouteAction.internal_redirect_policy": [
    "src/listener/internal_redirect_test.ts",
    "followed by the proxy as Envoy does",
  ],
  "RouteAction.idle_timeout": [
    "src/listener/route_idle_timeout_test.ts",
    "replaces the connection manager's stream_idle_timeout",
  ],
  "HttpConnectionManager.upgrade_configs": UPGRADE,
  "RouteAction.request_mirror_policies": MIRROR,
  "RouteAction.auto_host_rewrite": REWRITES,
  "RouteAction.host_rewrite_path_regex": REWRITES,
  "RedirectAction.scheme_redirect": REDIRECTS,
  "RedirectAction.port_redirect": REDIRECTS,
  "RedirectAction.prefix_rewrite": REDIRECTS,
  "RedirectAction.regex_rewrite": REDIRECTS,
  "RedirectAction.strip_query": REDIRECTS,
  "HttpFilter.name": [HCM, HC_FILTER],
  "HttpFilter.config": [HCM, HC_FILTER],
  "HttpFilter.typed_config": [HCM, HC_FILTER],
  "HealthCheckFilter.pass_through_mode": [HCM, "in pass_through_mode forwards passing checks"],
  "HealthCheckFilter.headers": [HCM, HC_FILTER],
  "HealthCheckFilter.endpoint": [HCM, "the v2 health check endpoint matches the path"],
  "TapFilter.common_config": ["src/admin/tap_proxy_test.ts", "any_match streams an http_buffered"],
  "TcpProxy.stat_prefix": [TCP, "listener tcp_proxy echoes bytes both ways"],
  "TcpProxy.cluster": [TCP, "listener tcp_proxy echoes bytes both ways"],
  "TcpProxy.access_log": ["src/listener/access_log_test.ts", "tcp_proxy lines with bytes each way"],
  "HttpConnectionManager.delayed_close_timeout": [
    "src/listener/delayed_close_test.ts",
    "a client still writing after the response is not reset",
  ],
  "HttpConnectionManager.http2_protocol_options": [
    "src/listener/h2_server_test.ts",
    "are the SETTINGS clients see, initial_connection_window_size the connection window",
  ],
  "HttpConnectionManager.drain_timeout": [
    "src/listener/h2c_drain_timeout_test.ts",
    "HttpConnectionManager.drain_timeout: between the GOAWAY notice and the final GOAWAY",
  ],
  "TcpProxy.idle_timeout": [
    "src/listener/tcp_timers_test.ts",
    "TcpProxy.idle_timeout: a silent connection is closed on both sides and counted",
  ],
  "TcpProxy.max_downstream_connection_duration": [
    "src/listener/tcp_timers_test.ts",
    "TcpProxy.max_downstream_connection_duration: a connection is closed on both sides",
  ],
  "auth.UpstreamTlsContext.common_tls_context": [TLS, VERIFIED],
  "auth.UpstreamTlsContext.sni": [TLS, "a certificate not valid for the SNI is refused"],
  "CommonTlsContext.tls_certificates": [TLS, MTLS],
  "CommonTlsContext.validation_context": [TLS, VERIFIED],
  "CommonTlsContext.alpn_protocols": [TLS, "alpn_protocols are offered in the TLS handshake"],
  "TlsCertificate.certificate_chain": [TLS, MTLS],
  "TlsCertificate.private_key": [TLS, MTLS],
  "CertificateValidationContext.trusted_ca": [TLS, VERIFIED],
};
