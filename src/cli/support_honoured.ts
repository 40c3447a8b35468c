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
const FILTERS = "src/listener/http_filters_test.ts";
const HCM_OPTS = "src/listener/hcm_options_test.ts";
const ADMIN_LOG = "src/access_log/admin_access_log_test.ts";

/** Honoured field (`<message>.<field>`) → `[test file from the repository root, test name]`. */
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
    `${UP}health_check/health_check_interval_test.ts`,
    "jitter adds a random share of both",
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
    `${UP}health_check/health_checker_test.ts`,
    "HTTP2 checks over one reused session",
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
    `${UP}health_check/health_checker_test.ts`,
    "checks go over the cluster's TLS",
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
    `${UP}health_check/health_checker_test.ts`,
    "checks go over the cluster's TLS",
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
  "Cluster.ring_hash_lb_config": [`${UP}lb/lb_config_test.ts`, "their settings reach the balancer"],
  "Cluster.hosts": [DEFAULTS, HOSTS],
  "Cluster.load_assignment": [DEFAULTS, HOSTS],
  "Cluster.max_requests_per_connection": [CB, "value 1 disables keep-alive"],
  "Cluster.circuit_breakers": [CB, "the third request overflows with 503"],
  "Cluster.tls_context": [TLS, VERIFIED],
  "Cluster.http2_protocol_options": [TLS, "HTTP/2 prior knowledge (h2c), one session"],
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
  "cluster.CircuitBreakers.thresholds": [CB, "the third request overflows with 503"],
  "cluster.CircuitBreakers.Thresholds.priority": [
    "src/admin/clusters_handler_test.ts",
    "admin.general.thresholds-priority",
  ],
  "cluster.CircuitBreakers.Thresholds.max_connections": [CB, "the third request overflows"],
  "cluster.CircuitBreakers.Thresholds.max_pending_requests": [CB, "the third request overflows"],
  "cluster.CircuitBreakers.Thresholds.max_requests": [CB, "max_requests overflow counts"],
  "cluster.CircuitBreakers.Thresholds.max_retries": [
    "src/admin/clusters_handler_test.ts",
    "admin.general.thresholds-fields",
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
  "ClusterManager.upstream_bind_config": [BIND, "cluster_manager.upstream_bind_config binds"],
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
  "FilterChain.name": [DUMP, DUMPED],
  "FilterChain.metadata": [DUMP, DUMPED],
  "NetworkFilter.name": [HCM, ROUTING],
  "NetworkFilter.config": [TCP, "listener tcp_proxy echoes bytes both ways"],
  "NetworkFilter.typed_config": [HCM, ROUTING],
  "HttpConnectionManager.stat_prefix": [HCM, "downstream stats: downstream_rq_total"],
  "HttpConnectionManager.route_config": [HCM, ROUTING],
  "HttpConnectionManager.http_filters": [HCM, HC_FILTER],
  "HttpConnectionManager.access_log": ["src/listener/access_log_test.ts", "v3 text_format lines"],
  "HttpConnectionManager.use_remote_address": [HCM, "without use_remote_address leaves"],
  "HttpConnectionManager.server_name": [HCM, EFFECTS],
  "HttpConnectionManager.generate_request_id": [HCM, EFFECTS],
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
  "auth.UpstreamTlsContext.common_tls_context": [TLS, VERIFIED],
  "auth.UpstreamTlsContext.sni": [TLS, "a certificate not valid for the SNI is refused"],
  "CommonTlsContext.tls_certificates": [TLS, MTLS],
  "CommonTlsContext.validation_context": [TLS, VERIFIED],
  "CommonTlsContext.alpn_protocols": [TLS, "alpn_protocols are offered in the TLS handshake"],
  "TlsCertificate.certificate_chain": [TLS, MTLS],
  "TlsCertificate.private_key": [TLS, MTLS],
  "CertificateValidationContext.trusted_ca": [TLS, VERIFIED],
};
