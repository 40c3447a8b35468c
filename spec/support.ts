/**
 * Table `support`: what this build honours of the configuration that has no rule rows (the
 * bootstrap around the clusters, listeners, filter chains, the HTTP connection manager, routes,
 * HTTP filters, the upstream TLS context and HTTP/2 options). Cluster fields and their nested
 * objects carry the same `support` column on their own rows (`cluster/`), command-line options on
 * theirs (`cli/options.ts`); nothing is restated here.
 *
 * One row per field, addressed as `<message>.<field>` (proto field names). A message that has
 * rows here is closed: a field of it that no row lists is refused like a `refused` row (the row
 * `<message>.*`, when there is one, gives the note). `type` names the message the value is (one
 * with rows here, or a cluster message such as `core.ConfigSource`), so the check descends into
 * it; a value of a field without `type` is taken as a whole. `@network`, `@http` and `@sink`
 * stand for the message a filter's or sink's `name` selects.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SUPPORT } from "./support.ts";
 * const row = SUPPORT.find((r) => r.path === "HttpConnectionManager.tracing");
 * assert.equal(row?.support, "refused");
 * ```
 * @module
 */
import type { Support } from "./rule.ts";

/** One configuration field and whether this build honours it. */
export interface SupportRow {
  /** `<message>.<field>`, e.g. `Listener.socket_options`; `<message>.*` for the rest. */
  path: string;
  support: Support;
  /** Why it is refused or limited, or how it is honoured; shown with a refusal. */
  supportNote?: string;
  /** The message the field's value is; the check descends into it. */
  type?: string;
  /** For `default-only`: the values accepted (proto3 JSON), the default first. */
  accepts?: readonly unknown[];
}

const HC = "active health checking is not implemented";
const XDS = "control planes (gRPC, REST, ADS) are not implemented";
const HDRS = "header manipulation is not implemented";
const PER_FILTER =
  "compiled by the filter it names (cors, fault, local_ratelimit, buffer, ext_authz)";
const TLS_DOWN = "client certificate details are not forwarded";
const DENO_TLS =
  "the runtime's TLS (rustls through node:tls) chooses cipher suites, curves and signature algorithms itself";
const UPGRADES =
  "HTTP/1.1 Upgrade types (websocket, ...) and CONNECT (ended here with an empty connect_config, else passed on) over HTTP/1.1 downstream connections; connect_config.proxy_protocol_config, allow_post and upgrade filters are refused";
const MIRROR =
  "cluster, cluster_header, runtime_fraction.default_value, disable_shadow_host_suffix_append; runtime keys and trace_sampled are refused";
const RETRY =
  "every retry_on condition, num_retries, per_try_timeout, retry_back_off, retriable_status_codes, retriable_headers, retriable_request_headers, the previous_hosts predicate, host_selection_retry_max_attempts and per_try_idle_timeout (its timer starts once the request body is read; a silent attempt is abandoned, not reset); retry_priority, retry_options_predicates and rate_limited_retry_back_off are refused";

/** Rows of the `support` table. */
export const SUPPORT = [
  // Bootstrap
  { path: "Bootstrap.node", support: "honoured", supportNote: "shown by /server_info" },
  { path: "Bootstrap.static_resources", support: "honoured", type: "StaticResources" },
  { path: "Bootstrap.dynamic_resources", support: "honoured", type: "DynamicResources" },
  { path: "Bootstrap.cluster_manager", support: "honoured", type: "ClusterManager" },
  { path: "Bootstrap.flags_path", support: "refused", supportNote: "flag files are not read" },
  {
    path: "Bootstrap.stats_sinks",
    support: "honoured",
    type: "StatsSink",
    supportNote: "the hystrix sink only",
  },
  { path: "Bootstrap.stats_flush_interval", support: "honoured" },
  { path: "Bootstrap.watchdog", support: "refused", supportNote: "there is no watchdog" },
  { path: "Bootstrap.tracing", support: "refused", supportNote: "tracing is not implemented" },
  { path: "Bootstrap.runtime", support: "honoured" },
  { path: "Bootstrap.admin", support: "honoured", type: "Admin" },
  {
    path: "Bootstrap.stats_config",
    support: "refused",
    supportNote: "custom tags, stats matchers and bucket settings are not implemented",
  },
  { path: "Bootstrap.hds_config", support: "refused", supportNote: HC },
  { path: "Bootstrap.overload_manager", support: "honoured", type: "OverloadManager" },
  {
    path: "Bootstrap.enable_dispatcher_stats",
    support: "default-only",
    accepts: [false],
    supportNote: "dispatcher stats are not published",
  },
  { path: "Bootstrap.layered_runtime", support: "honoured" },
  {
    path: "Bootstrap.header_prefix",
    support: "refused",
    supportNote: "header names are fixed (x-proxy-*)",
  },
  { path: "Bootstrap.stats_server_version_override", support: "honoured" },
  {
    path: "Bootstrap.use_tcp_for_dns_lookups",
    support: "default-only",
    accepts: [false],
    supportNote: "the system resolver decides",
  },
  {
    path: "Bootstrap.bootstrap_extensions",
    support: "refused",
    supportNote: "no bootstrap extension is implemented",
  },
  { path: "Bootstrap.config_sources", support: "refused", supportNote: XDS },
  { path: "Bootstrap.default_config_source", support: "refused", supportNote: XDS },
  {
    path: "Bootstrap.default_socket_interface",
    support: "refused",
    supportNote: "one socket interface is built in",
  },
  { path: "Bootstrap.stats_flush_on_admin", support: "honoured" },
  { path: "StaticResources.listeners", support: "honoured", type: "Listener" },
  {
    path: "StaticResources.clusters",
    support: "honoured",
    supportNote: "each cluster field has its own support column (cluster tables)",
  },
  {
    path: "StaticResources.secrets",
    support: "honoured",
    supportNote: "shown (redacted) by /config_dump; TLS contexts refer to them by name (SDS)",
  },
  { path: "DynamicResources.cds_config", support: "honoured", type: "core.ConfigSource" },
  { path: "DynamicResources.lds_config", support: "honoured", type: "core.ConfigSource" },
  {
    path: "DynamicResources.ads_config",
    support: "honoured",
    supportNote:
      "GRPC and DELTA_GRPC to a static cluster (envoy_grpc, TLS when the cluster has it) or a google_grpc target; REST and other settings are refused",
  },
  { path: "ClusterManager.upstream_bind_config", support: "honoured" },
  {
    path: "ClusterManager.local_cluster_name",
    support: "honoured",
    supportNote: "the local cluster of zone-aware routing; it must be a static cluster",
  },
  {
    path: "ClusterManager.outlier_detection",
    support: "honoured",
    type: "ClusterManager.OutlierDetection",
  },
  {
    path: "ClusterManager.OutlierDetection.event_log_path",
    support: "honoured",
    supportNote: "one JSON line per ejection and return, as Envoy writes OutlierDetectionEvent",
  },
  {
    path: "ClusterManager.load_stats_config",
    support: "honoured",
    supportNote:
      "LRS over one GRPC stream (envoy_grpc or google_grpc): per cluster and locality request counts on the server's interval; endpoint granularity is not reported",
  },
  { path: "StatsSink.name", support: "honoured", supportNote: "the hystrix sink only" },
  { path: "StatsSink.config", support: "honoured" },
  { path: "StatsSink.typed_config", support: "honoured" },
  {
    path: "Admin.access_log_path",
    support: "honoured",
    supportNote: "admin requests are logged in the default format",
  },
  {
    path: "Admin.access_log",
    support: "honoured",
    supportNote: "the file, stdout and stderr loggers, with filters",
  },
  { path: "Admin.profile_path", support: "honoured" },
  { path: "Admin.address", support: "honoured" },
  {
    path: "Admin.socket_options",
    support: "refused",
    supportNote: "socket options are not set",
  },
  // Listener
  { path: "Listener.name", support: "honoured" },
  { path: "Listener.address", support: "honoured", type: "core.Address" },
  { path: "Listener.filter_chains", support: "honoured", type: "FilterChain" },
  {
    path: "Listener.use_original_dst",
    support: "honoured",
    supportNote:
      "a netfilter-redirected connection's local address becomes its SO_ORIGINAL_DST (Linux, through the C library), and the listener bound to that address (or to every address on its port) serves it; Envoy counts the connection on that listener only, this build on the receiving one too",
  },
  {
    path: "Listener.per_connection_buffer_limit_bytes",
    support: "honoured",
    supportNote:
      "bounds the request body read ahead of the upstream (at least 16 KiB); response bodies are pulled one chunk at a time as the client reads",
  },
  { path: "Listener.metadata", support: "honoured", supportNote: "shown by /config_dump" },
  { path: "Listener.deprecated_v1", support: "refused" },
  {
    path: "Listener.drain_type",
    support: "default-only",
    accepts: ["DEFAULT"],
    supportNote: "a listener drains on every drain",
  },
  {
    path: "Listener.listener_filters",
    support: "honoured",
    supportNote:
      "tls_inspector, http_inspector and original_dst (the local address becomes the SO_ORIGINAL_DST of a netfilter-redirected connection; Linux, read through the C library)",
  },
  { path: "Listener.transparent", support: "default-only", accepts: [false, { value: false }] },
  { path: "Listener.freebind", support: "default-only", accepts: [false, { value: false }] },
  { path: "Listener.tcp_fast_open_queue_length", support: "refused" },
  {
    path: "Listener.socket_options",
    support: "refused",
    supportNote: "socket options are not set",
  },
  { path: "Listener.listener_filters_timeout", support: "honoured" },
  { path: "Listener.traffic_direction", support: "honoured" },
  { path: "Listener.continue_on_listener_filters_timeout", support: "honoured" },
  {
    path: "Listener.udp_listener_config",
    support: "refused",
    supportNote: "UDP is not implemented",
  },
  { path: "Listener.api_listener", support: "refused" },
  { path: "Listener.connection_balance_config", support: "refused" },
  { path: "Listener.reuse_port", support: "default-only", accepts: [false] },
  {
    path: "Listener.access_log",
    support: "refused",
    supportNote: "listener access logs are not implemented; use the filter's access_log",
  },
  { path: "Listener.tcp_backlog_size", support: "refused" },
  { path: "Listener.default_filter_chain", support: "honoured", type: "FilterChain" },
  { path: "Listener.bind_to_port", support: "default-only", accepts: [true, { value: true }] },
  {
    path: "Listener.stat_prefix",
    support: "refused",
    supportNote: "listener stats are named by address",
  },
  { path: "FilterChain.filters", support: "honoured", type: "NetworkFilter" },
  { path: "FilterChain.name", support: "honoured" },
  { path: "FilterChain.metadata", support: "honoured", supportNote: "shown by /config_dump" },
  { path: "FilterChain.filter_chain_match", support: "honoured", type: "FilterChainMatch" },
  { path: "FilterChain.transport_socket", support: "honoured", type: "DownstreamTransportSocket" },
  { path: "FilterChain.tls_context", support: "honoured", type: "auth.DownstreamTlsContext" },
  { path: "FilterChainMatch.destination_port", support: "honoured" },
  { path: "FilterChainMatch.prefix_ranges", support: "honoured" },
  { path: "FilterChainMatch.server_names", support: "honoured" },
  { path: "FilterChainMatch.transport_protocol", support: "honoured" },
  { path: "FilterChainMatch.application_protocols", support: "honoured" },
  { path: "FilterChainMatch.direct_source_prefix_ranges", support: "honoured" },
  { path: "FilterChainMatch.source_type", support: "honoured" },
  { path: "FilterChainMatch.source_prefix_ranges", support: "honoured" },
  { path: "FilterChainMatch.source_ports", support: "honoured" },
  {
    path: "FilterChainMatch.address_suffix",
    support: "refused",
    supportNote: "Envoy does not implement it either",
  },
  { path: "FilterChainMatch.suffix_len", support: "refused" },
  { path: "DownstreamTransportSocket.name", support: "honoured" },
  { path: "DownstreamTransportSocket.typed_config", support: "honoured" },
  { path: "DownstreamTransportSocket.config", support: "honoured" },
  // Downstream TLS (filter chain transport_socket tls, v2 tls_context)
  {
    path: "auth.DownstreamTlsContext.common_tls_context",
    support: "honoured",
    type: "DownstreamCommonTlsContext",
  },
  { path: "auth.DownstreamTlsContext.require_client_certificate", support: "honoured" },
  { path: "auth.DownstreamTlsContext.require_sni", support: "honoured" },
  {
    path: "auth.DownstreamTlsContext.*",
    support: "refused",
    supportNote: "session tickets, session timeouts and OCSP policies are the runtime's",
  },
  {
    path: "DownstreamCommonTlsContext.tls_params",
    support: "honoured",
    type: "DownstreamTlsParams",
  },
  {
    path: "DownstreamCommonTlsContext.tls_certificates",
    support: "honoured",
    type: "TlsCertificate",
    supportNote: "one certificate per context",
  },
  {
    path: "DownstreamCommonTlsContext.validation_context",
    support: "honoured",
    type: "DownstreamValidationContext",
  },
  { path: "DownstreamCommonTlsContext.alpn_protocols", support: "honoured" },
  {
    path: "DownstreamCommonTlsContext.tls_certificate_sds_secret_configs",
    support: "honoured",
    type: "SdsSecretConfig",
    supportNote: "static secrets and SDS files (watched)",
  },
  {
    path: "DownstreamCommonTlsContext.validation_context_sds_secret_config",
    support: "honoured",
    type: "SdsSecretConfig",
    supportNote: "static secrets and SDS files (watched)",
  },
  {
    path: "DownstreamCommonTlsContext.*",
    support: "refused",
    supportNote: "combined validation contexts and certificate providers are not implemented",
  },
  { path: "DownstreamTlsParams.tls_minimum_protocol_version", support: "honoured" },
  { path: "DownstreamTlsParams.tls_maximum_protocol_version", support: "honoured" },
  {
    path: "DownstreamTlsParams.*",
    support: "refused",
    supportNote: DENO_TLS,
  },
  { path: "DownstreamValidationContext.trusted_ca", support: "honoured" },
  { path: "DownstreamValidationContext.match_typed_subject_alt_names", support: "honoured" },
  { path: "DownstreamValidationContext.match_subject_alt_names", support: "honoured" },
  {
    path: "DownstreamValidationContext.*",
    support: "refused",
    supportNote: "only trusted_ca and SAN matchers are checked (no hash, SPKI or CRL checks)",
  },
  {
    path: "FilterChain.use_proxy_proto",
    support: "refused",
    supportNote: "PROXY protocol is not implemented",
  },
  {
    path: "FilterChain.transport_socket_connect_timeout",
    support: "honoured",
    supportNote: "unset: 15 s",
  },
  { path: "NetworkFilter.name", support: "honoured" },
  { path: "NetworkFilter.config", support: "honoured", type: "@network" },
  { path: "NetworkFilter.typed_config", support: "honoured", type: "@network" },
  // HTTP connection manager
  { path: "HttpConnectionManager.stat_prefix", support: "honoured" },
  {
    path: "HttpConnectionManager.codec_type",
    support: "honoured",
    supportNote: "AUTO (HTTP/1.1 and h2c told apart per connection), HTTP1, HTTP2 (h2c only)",
  },
  { path: "HttpConnectionManager.route_config", support: "honoured", type: "RouteConfiguration" },
  {
    path: "HttpConnectionManager.rds",
    support: "honoured",
    supportNote: "config_source and route_config_name; the routes are swapped whole per update",
  },
  { path: "HttpConnectionManager.scoped_routes", support: "refused" },
  { path: "HttpConnectionManager.http_filters", support: "honoured", type: "HttpFilter" },
  { path: "HttpConnectionManager.access_log", support: "honoured" },
  { path: "HttpConnectionManager.use_remote_address", support: "honoured" },
  { path: "HttpConnectionManager.server_name", support: "honoured" },
  { path: "HttpConnectionManager.generate_request_id", support: "honoured" },
  {
    path: "HttpConnectionManager.add_user_agent",
    support: "default-only",
    accepts: [false, { value: false }],
  },
  {
    path: "HttpConnectionManager.tracing",
    support: "refused",
    supportNote: "tracing is not implemented",
  },
  {
    path: "HttpConnectionManager.common_http_protocol_options",
    support: "honoured",
    type: "DownstreamHttpProtocolOptions",
  },
  {
    path: "HttpConnectionManager.http_protocol_options",
    support: "honoured",
    supportNote:
      "accept_http_10, default_host_for_http_10, header_key_format.proper_case_words, enable_trailers (HTTP/1.1 clients; HTTP/2 clients always get trailers)",
  },
  {
    path: "HttpConnectionManager.http2_protocol_options",
    support: "honoured",
    type: "core.Http2ProtocolOptions",
    supportNote:
      "SETTINGS of downstream HTTP/2 connections (Envoy's defaults when unset): max_concurrent_streams, initial_stream_window_size, initial_connection_window_size, hpack_table_size; a client opening more streams than acknowledged gets a GOAWAY (the runtime's codec makes it a connection error)",
  },
  {
    path: "HttpConnectionManager.server_header_transformation",
    support: "honoured",
    supportNote: "OVERWRITE, APPEND_IF_ABSENT, PASS_THROUGH",
  },
  { path: "HttpConnectionManager.max_request_headers_kb", support: "honoured" },
  { path: "HttpConnectionManager.idle_timeout", support: "honoured" },
  { path: "HttpConnectionManager.stream_idle_timeout", support: "honoured" },
  { path: "HttpConnectionManager.request_timeout", support: "honoured" },
  { path: "HttpConnectionManager.request_headers_timeout", support: "honoured" },
  {
    path: "HttpConnectionManager.drain_timeout",
    support: "honoured",
    supportNote:
      "HTTP/2: from the GOAWAY notice to the final GOAWAY when idle_timeout, max_connection_duration or a listener drain ends a connection",
  },
  {
    path: "HttpConnectionManager.delayed_close_timeout",
    support: "honoured",
    supportNote:
      "HTTP/1.1 and HTTP/2 connections the proxy ends (default 1 s, 0: at once): it ends its side at once (Envoy waits with its side open) and drops what the client still sends until the client closes or the time runs out (downstream_cx_delayed_close_timeout)",
  },
  { path: "HttpConnectionManager.xff_num_trusted_hops", support: "honoured" },
  {
    path: "HttpConnectionManager.internal_address_config",
    support: "honoured",
    type: "InternalAddressConfig",
  },
  { path: "HttpConnectionManager.skip_xff_append", support: "honoured" },
  { path: "HttpConnectionManager.via", support: "refused", supportNote: HDRS },
  {
    path: "HttpConnectionManager.preserve_external_request_id",
    support: "honoured",
    supportNote: "an edge request keeps the x-request-id it came with",
  },
  {
    path: "HttpConnectionManager.forward_client_cert_details",
    support: "default-only",
    accepts: ["SANITIZE"],
    supportNote: TLS_DOWN,
  },
  {
    path: "HttpConnectionManager.set_current_client_cert_details",
    support: "refused",
    supportNote: TLS_DOWN,
  },
  { path: "HttpConnectionManager.proxy_100_continue", support: "default-only", accepts: [false] },
  {
    path: "HttpConnectionManager.represent_ipv4_remote_address_as_ipv4_mapped_ipv6",
    support: "default-only",
    accepts: [false],
  },
  {
    path: "HttpConnectionManager.upgrade_configs",
    support: "honoured",
    supportNote: UPGRADES,
  },
  {
    path: "HttpConnectionManager.normalize_path",
    support: "honoured",
    supportNote: "dot segments (also %2E) resolved before routing",
  },
  { path: "HttpConnectionManager.merge_slashes", support: "honoured" },
  { path: "HttpConnectionManager.path_with_escaped_slashes_action", support: "honoured" },
  { path: "HttpConnectionManager.request_id_extension", support: "refused" },
  {
    path: "HttpConnectionManager.local_reply_config",
    support: "honoured",
    supportNote: "mappers (access log filters, status_code, body, headers_to_add) and body_format",
  },
  {
    path: "HttpConnectionManager.strip_matching_host_port",
    support: "default-only",
    accepts: [false],
  },
  { path: "HttpConnectionManager.stream_error_on_invalid_http_message", support: "refused" },
  // Overload manager
  { path: "OverloadManager.refresh_interval", support: "honoured" },
  {
    path: "OverloadManager.resource_monitors",
    support: "honoured",
    supportNote: "the fixed_heap monitor; others are refused",
  },
  {
    path: "OverloadManager.actions",
    support: "honoured",
    supportNote:
      "stop_accepting_connections, stop_accepting_requests, disable_http_keepalive, shrink_heap (a full garbage collection every 10 s while saturated), reset_high_memory_stream (with buffer_factory_config)",
  },
  {
    path: "OverloadManager.buffer_factory_config",
    support: "honoured",
    supportNote:
      "minimum_account_to_track_power_of_two: streams are accounted by the request bodies buffered for retries, shadows, internal redirects and the buffer filter; reset_high_memory_stream resets the largest",
  },
  {
    path: "OverloadManager.*",
    support: "refused",
    supportNote: "loadshed_points are not implemented",
  },
  // core.HttpProtocolOptions as the connection manager's common_http_protocol_options
  { path: "DownstreamHttpProtocolOptions.idle_timeout", support: "honoured" },
  { path: "DownstreamHttpProtocolOptions.max_connection_duration", support: "honoured" },
  { path: "DownstreamHttpProtocolOptions.max_headers_count", support: "honoured" },
  { path: "DownstreamHttpProtocolOptions.max_requests_per_connection", support: "honoured" },
  {
    path: "DownstreamHttpProtocolOptions.max_stream_duration",
    support: "honoured",
    supportNote:
      "408 or 504 downstream duration timeout before the response; after its head the stream is reset",
  },
  {
    path: "DownstreamHttpProtocolOptions.headers_with_underscores_action",
    support: "honoured",
    supportNote:
      "REJECT_REQUEST answers an HTTP/2 request 400 where Envoy resets the stream (the runtime's HTTP/2 server cannot reset a stream before answering)",
  },
  {
    path: "DownstreamHttpProtocolOptions.*",
    support: "refused",
    supportNote: "not implemented",
  },
  { path: "InternalAddressConfig.cidr_ranges", support: "honoured" },
  {
    path: "InternalAddressConfig.unix_sockets",
    support: "default-only",
    accepts: [false],
    supportNote: "listeners accept TCP connections only",
  },
  // Routes
  { path: "RouteConfiguration.name", support: "honoured" },
  { path: "RouteConfiguration.virtual_hosts", support: "honoured", type: "VirtualHost" },
  { path: "RouteConfiguration.internal_only_headers", support: "refused", supportNote: HDRS },
  { path: "RouteConfiguration.response_headers_to_add", support: "honoured" },
  { path: "RouteConfiguration.response_headers_to_remove", support: "honoured" },
  { path: "RouteConfiguration.request_headers_to_add", support: "honoured" },
  { path: "RouteConfiguration.request_headers_to_remove", support: "honoured" },
  {
    path: "RouteConfiguration.validate_clusters",
    support: "honoured",
    supportNote:
      "true (the default): route clusters are checked against the static clusters; false: they may come from CDS",
  },
  { path: "RouteConfiguration.vhds", support: "refused", supportNote: XDS },
  { path: "RouteConfiguration.most_specific_header_mutations_wins", support: "honoured" },
  { path: "VirtualHost.name", support: "honoured" },
  { path: "VirtualHost.domains", support: "honoured" },
  { path: "VirtualHost.routes", support: "honoured", type: "Route" },
  { path: "VirtualHost.require_tls", support: "default-only", accepts: ["NONE"] },
  { path: "VirtualHost.virtual_clusters", support: "refused" },
  {
    path: "VirtualHost.rate_limits",
    support: "refused",
    supportNote: "rate limiting is not implemented",
  },
  { path: "VirtualHost.request_headers_to_add", support: "honoured" },
  { path: "VirtualHost.request_headers_to_remove", support: "honoured" },
  { path: "VirtualHost.response_headers_to_add", support: "honoured" },
  { path: "VirtualHost.response_headers_to_remove", support: "honoured" },
  { path: "VirtualHost.cors", support: "honoured", supportNote: "read by the cors filter" },
  { path: "VirtualHost.per_filter_config", support: "honoured", supportNote: PER_FILTER },
  { path: "VirtualHost.typed_per_filter_config", support: "honoured", supportNote: PER_FILTER },
  { path: "VirtualHost.include_request_attempt_count", support: "honoured" },
  { path: "VirtualHost.include_attempt_count_in_response", support: "honoured" },
  { path: "VirtualHost.per_request_buffer_limit_bytes", support: "honoured" },
  {
    path: "VirtualHost.retry_policy",
    support: "honoured",
    supportNote: RETRY,
  },
  { path: "VirtualHost.hedge_policy", support: "refused" },
  { path: "Route.name", support: "honoured" },
  {
    path: "Route.match",
    support: "honoured",
    supportNote: "prefix, path, safe_regex, connect_matcher, case_sensitive, headers",
  },
  { path: "Route.route", support: "honoured", type: "RouteAction" },
  { path: "Route.redirect", support: "honoured", type: "RedirectAction" },
  { path: "Route.direct_response", support: "honoured" },
  {
    path: "Route.metadata",
    support: "refused",
    supportNote: "no filter of this build reads route metadata",
  },
  { path: "Route.decorator", support: "refused", supportNote: "tracing is not implemented" },
  { path: "Route.per_filter_config", support: "honoured", supportNote: PER_FILTER },
  { path: "Route.typed_per_filter_config", support: "honoured", supportNote: PER_FILTER },
  { path: "Route.request_headers_to_add", support: "honoured" },
  { path: "Route.request_headers_to_remove", support: "honoured" },
  { path: "Route.response_headers_to_add", support: "honoured" },
  { path: "Route.response_headers_to_remove", support: "honoured" },
  { path: "Route.tracing", support: "refused", supportNote: "tracing is not implemented" },
  { path: "Route.per_request_buffer_limit_bytes", support: "honoured" },
  { path: "RouteAction.cluster", support: "honoured" },
  { path: "RouteAction.cluster_header", support: "honoured" },
  { path: "RouteAction.weighted_clusters", support: "honoured", type: "WeightedCluster" },
  {
    path: "RouteAction.cluster_not_found_response_code",
    support: "default-only",
    accepts: ["SERVICE_UNAVAILABLE"],
  },
  {
    path: "RouteAction.metadata_match",
    support: "honoured",
    supportNote: "the proxy.lb / envoy.lb criteria select a subset of the cluster",
  },
  { path: "RouteAction.prefix_rewrite", support: "honoured" },
  { path: "RouteAction.host_rewrite", support: "honoured" },
  { path: "RouteAction.host_rewrite_literal", support: "honoured" },
  { path: "RouteAction.timeout", support: "honoured" },
  { path: "RouteAction.priority", support: "honoured" },
  {
    path: "RouteAction.idle_timeout",
    support: "honoured",
    supportNote:
      "replaces the connection manager's stream_idle_timeout for the route's requests (0: none), on HTTP/1.1 and HTTP/2 downstream connections",
  },
  {
    path: "RouteAction.retry_policy",
    support: "honoured",
    supportNote: RETRY,
  },
  {
    path: "RouteAction.hash_policy",
    support: "honoured",
    supportNote:
      "header, cookie (generated with a ttl), connection_properties.source_ip, query_parameter, filter_state (objects of envoy.filters.http.set_filter_state made by envoy.hashable_string) and terminal",
  },
  { path: "RouteAction.regex_rewrite", support: "honoured" },
  { path: "RouteAction.host_rewrite_header", support: "honoured" },
  { path: "RouteAction.host_rewrite_path_regex", support: "honoured" },
  {
    path: "RouteAction.auto_host_rewrite",
    support: "honoured",
    supportNote: "the chosen host's hostname (DNS clusters, endpoint hostname)",
  },
  {
    path: "RouteAction.request_mirror_policy",
    support: "honoured",
    supportNote: MIRROR,
  },
  {
    path: "RouteAction.request_mirror_policies",
    support: "honoured",
    supportNote: MIRROR,
  },
  {
    path: "RouteAction.rate_limits",
    support: "refused",
    supportNote: "rate limiting is not implemented",
  },
  { path: "RouteAction.cors", support: "honoured", supportNote: "read by the cors filter" },
  {
    path: "RouteAction.max_grpc_timeout",
    support: "honoured",
    supportNote:
      "gRPC requests: the grpc-timeout header (less grpc_timeout_offset) capped at it (0: uncapped) is the route timeout and goes upstream; ignored when max_stream_duration is set",
  },
  { path: "RouteAction.grpc_timeout_offset", support: "honoured" },
  { path: "RouteAction.upgrade_configs", support: "honoured", supportNote: UPGRADES },
  {
    path: "RouteAction.internal_redirect_policy",
    support: "honoured",
    supportNote:
      "max_internal_redirects, redirect_response_codes, allow_cross_scheme_redirect; predicates and response_headers_to_copy are refused",
  },
  { path: "RouteAction.max_stream_duration", support: "honoured", type: "MaxStreamDuration" },
  { path: "MaxStreamDuration.max_stream_duration", support: "honoured" },
  {
    path: "MaxStreamDuration.grpc_timeout_header_max",
    support: "honoured",
    supportNote: "the grpc-timeout request header gives the limit, capped (0: uncapped)",
  },
  { path: "MaxStreamDuration.grpc_timeout_header_offset", support: "honoured" },
  { path: "WeightedCluster.clusters", support: "honoured", type: "ClusterWeight" },
  { path: "WeightedCluster.total_weight", support: "honoured" },
  { path: "WeightedCluster.runtime_key_prefix", support: "refused" },
  { path: "ClusterWeight.name", support: "honoured" },
  { path: "ClusterWeight.weight", support: "honoured" },
  {
    path: "ClusterWeight.metadata_match",
    support: "honoured",
    supportNote: "the proxy.lb / envoy.lb criteria select a subset of the cluster",
  },
  { path: "RedirectAction.host_redirect", support: "honoured" },
  { path: "RedirectAction.path_redirect", support: "honoured" },
  { path: "RedirectAction.https_redirect", support: "honoured" },
  { path: "RedirectAction.scheme_redirect", support: "honoured" },
  { path: "RedirectAction.port_redirect", support: "honoured" },
  { path: "RedirectAction.prefix_rewrite", support: "honoured" },
  { path: "RedirectAction.regex_rewrite", support: "honoured" },
  { path: "RedirectAction.response_code", support: "honoured" },
  { path: "RedirectAction.strip_query", support: "honoured" },
  // HTTP filters
  {
    path: "HttpFilter.name",
    support: "honoured",
    supportNote:
      "router, health_check, tap, cors, fault, local_ratelimit, buffer, compressor (gzip), ext_authz (HTTP or gRPC service), set_filter_state, header_to_metadata",
  },
  {
    path: "HttpFilter.is_optional",
    support: "honoured",
    supportNote: "an optional filter this build does not have is skipped with a warning",
  },
  { path: "HttpFilter.config", support: "honoured", type: "@http" },
  { path: "HttpFilter.typed_config", support: "honoured", type: "@http" },
  {
    path: "Router.dynamic_stats",
    support: "default-only",
    accepts: [true, { value: true }],
  },
  { path: "Router.start_child_span", support: "default-only", accepts: [false] },
  { path: "Router.upstream_log", support: "refused" },
  {
    path: "Router.suppress_envoy_headers",
    support: "honoured",
    supportNote:
      "no x-proxy-expected-rq-timeout-ms upstream, no x-proxy-upstream-service-time or x-proxy-overloaded downstream",
  },
  { path: "Router.respect_expected_rq_timeout", support: "honoured" },
  { path: "Router.strict_check_headers", support: "refused" },
  { path: "HealthCheckFilter.pass_through_mode", support: "honoured" },
  { path: "HealthCheckFilter.headers", support: "honoured" },
  { path: "HealthCheckFilter.endpoint", support: "honoured" },
  { path: "HealthCheckFilter.cache_time", support: "refused" },
  { path: "HealthCheckFilter.cluster_min_healthy_percentages", support: "refused" },
  { path: "TapFilter.common_config", support: "honoured" },
  // Network filters other than the HTTP connection manager
  { path: "TcpProxy.stat_prefix", support: "honoured" },
  { path: "TcpProxy.cluster", support: "honoured" },
  { path: "TcpProxy.access_log", support: "honoured" },
  { path: "TcpProxy.weighted_clusters", support: "refused" },
  {
    path: "TcpProxy.metadata_match",
    support: "refused",
    supportNote: "the TCP proxy does not pass metadata_match criteria to subset load balancing",
  },
  {
    path: "TcpProxy.idle_timeout",
    support: "honoured",
    supportNote: "default 1 hour, 0 disables; counted tcp.<stat_prefix>.idle_timeout",
  },
  {
    path: "TcpProxy.downstream_idle_timeout",
    support: "refused",
    supportNote: "Envoy does not implement it either (not-implemented-hide); use idle_timeout",
  },
  {
    path: "TcpProxy.upstream_idle_timeout",
    support: "refused",
    supportNote: "Envoy does not implement it either (not-implemented-hide); use idle_timeout",
  },
  {
    path: "TcpProxy.max_downstream_connection_duration",
    support: "honoured",
    supportNote: "counted tcp.<stat_prefix>.max_downstream_connection_duration, flag DT",
  },
  { path: "TcpProxy.max_connect_attempts", support: "default-only", accepts: [1, { value: 1 }] },
  { path: "TcpProxy.hash_policy", support: "refused" },
  { path: "TcpProxy.tunneling_config", support: "refused" },
  // Upstream TLS (cluster tls_context, transport_socket tls)
  {
    path: "auth.UpstreamTlsContext.common_tls_context",
    support: "honoured",
    type: "CommonTlsContext",
  },
  { path: "auth.UpstreamTlsContext.sni", support: "honoured" },
  {
    path: "auth.UpstreamTlsContext.allow_renegotiation",
    support: "default-only",
    accepts: [false],
  },
  { path: "auth.UpstreamTlsContext.max_session_keys", support: "refused" },
  {
    path: "CommonTlsContext.tls_params",
    support: "refused",
    supportNote: "TLS versions and ciphers are the runtime's",
  },
  {
    path: "CommonTlsContext.tls_certificates",
    support: "honoured",
    type: "TlsCertificate",
    supportNote: "the first certificate is presented to the upstream (mTLS)",
  },
  {
    path: "CommonTlsContext.tls_certificate_sds_secret_configs",
    support: "honoured",
    type: "SdsSecretConfig",
    supportNote: "static secrets and SDS files",
  },
  {
    path: "CommonTlsContext.validation_context",
    support: "honoured",
    type: "CertificateValidationContext",
  },
  {
    path: "CommonTlsContext.validation_context_sds_secret_config",
    support: "honoured",
    type: "SdsSecretConfig",
    supportNote: "static secrets and SDS files",
  },
  { path: "SdsSecretConfig.name", support: "honoured" },
  { path: "SdsSecretConfig.sds_config", support: "honoured", type: "SdsConfigSource" },
  { path: "SdsConfigSource.path", support: "honoured" },
  { path: "SdsConfigSource.path_config_source", support: "honoured" },
  { path: "SdsConfigSource.resource_api_version", support: "honoured" },
  { path: "SdsConfigSource.*", support: "refused", supportNote: XDS },
  { path: "CommonTlsContext.combined_validation_context", support: "refused" },
  { path: "CommonTlsContext.alpn_protocols", support: "honoured" },
  { path: "TlsCertificate.certificate_chain", support: "honoured" },
  { path: "TlsCertificate.private_key", support: "honoured" },
  {
    path: "TlsCertificate.password",
    support: "refused",
    supportNote: "encrypted keys are not read",
  },
  { path: "TlsCertificate.ocsp_staple", support: "refused" },
  { path: "TlsCertificate.signed_certificate_timestamp", support: "refused" },
  { path: "TlsCertificate.private_key_provider", support: "refused" },
  {
    path: "CertificateValidationContext.trusted_ca",
    support: "honoured",
    supportNote: "the upstream certificate must chain to it",
  },
  {
    path: "CertificateValidationContext.*",
    support: "refused",
    supportNote: "only trusted_ca is checked (no SAN, hash, SPKI or CRL checks)",
  },
  // The upstream HTTP protocol options of typed_extension_protocol_options
  // (envoy.extensions.upstreams.http.v3.HttpProtocolOptions).
  {
    path: "upstreams.HttpProtocolOptions.explicit_http_config",
    support: "honoured",
    type: "upstreams.HttpConfig",
    supportNote: "HTTP/2 (prior knowledge) when http2_protocol_options is set, else HTTP/1.1",
  },
  {
    path: "upstreams.HttpProtocolOptions.use_downstream_protocol_config",
    support: "honoured",
    type: "upstreams.HttpConfig",
    supportNote:
      "HTTP/2 for HTTP/2 downstream requests when http2_protocol_options is set, else HTTP/1.1",
  },
  {
    path: "upstreams.HttpProtocolOptions.auto_config",
    support: "honoured",
    type: "upstreams.HttpConfig",
    supportNote:
      "TLS clusters only: each host's protocol is learned once by a TLS handshake offering h2 and http/1.1 (HTTP/2 when the host chooses h2, else HTTP/1.1); Envoy's mixed pool keeps that first connection, this build closes it",
  },
  {
    path: "upstreams.HttpProtocolOptions.common_http_protocol_options",
    support: "honoured",
    type: "core.HttpProtocolOptions",
  },
  {
    path: "upstreams.HttpProtocolOptions.*",
    support: "refused",
    supportNote:
      "upstream_http_protocol_options, upstream HTTP filters, header validation and the per-protocol outlier settings are not implemented",
  },
  {
    path: "upstreams.HttpConfig.http_protocol_options",
    support: "honoured",
    type: "core.Http1ProtocolOptions",
  },
  {
    path: "upstreams.HttpConfig.http2_protocol_options",
    support: "honoured",
    type: "core.Http2ProtocolOptions",
  },
  {
    path: "upstreams.HttpConfig.*",
    support: "refused",
    supportNote: "HTTP/3 upstream connections are not implemented",
  },
  // common_http_protocol_options of upstream connections (the cluster's, or the typed options').
  {
    path: "core.HttpProtocolOptions.idle_timeout",
    support: "honoured",
    supportNote: "idle upstream connections close (default 1 h; 0 never)",
  },
  {
    path: "core.HttpProtocolOptions.max_connection_duration",
    support: "honoured",
    supportNote: "upstream connections take no new request after it and close",
  },
  {
    path: "core.HttpProtocolOptions.max_requests_per_connection",
    support: "honoured",
    supportNote: "as the cluster's own max_requests_per_connection",
  },
  {
    path: "core.HttpProtocolOptions.max_stream_duration",
    support: "honoured",
    supportNote:
      "each upstream request is reset after it (counted upstream_rq_max_duration_reached): 504, or 408 while the request was arriving, retried as a reset; a started response is cut",
  },
  {
    path: "core.HttpProtocolOptions.max_headers_count",
    support: "honoured",
    supportNote:
      "of upstream response heads and trailers (default 100): more is a protocol error, 503",
  },
  {
    path: "core.HttpProtocolOptions.*",
    support: "refused",
    supportNote:
      "headers_with_underscores_action has no effect on clusters in Envoy (it applies to downstream request headers), so it is refused there; max_response_headers_kb is not implemented",
  },
  {
    path: "core.Http1ProtocolOptions.enable_trailers",
    support: "honoured",
    supportNote:
      "response trailers of chunked HTTP/1.1 upstream responses are kept, request trailers are sent; else dropped, as Envoy",
  },
  {
    path: "core.Http1ProtocolOptions.*",
    support: "refused",
    supportNote: "of the HTTP/1.1 upstream options only enable_trailers is implemented",
  },
  {
    path: "core.Http2ProtocolOptions.initial_stream_window_size",
    support: "honoured",
    supportNote: "sent in the connection's SETTINGS (upstream and downstream)",
  },
  {
    path: "core.Http2ProtocolOptions.initial_connection_window_size",
    support: "honoured",
    supportNote: "the connection's receive window (upstream and downstream)",
  },
  {
    path: "core.Http2ProtocolOptions.hpack_table_size",
    support: "honoured",
    supportNote: "sent in the connection's SETTINGS (upstream and downstream)",
  },
  {
    path: "core.Http2ProtocolOptions.max_concurrent_streams",
    support: "honoured",
    supportNote:
      "streams per connection, sent in SETTINGS; upstream, a full connection makes another (within max_connections)",
  },
  {
    path: "core.Http2ProtocolOptions.*",
    support: "refused",
    supportNote:
      "HTTP/2 connections (upstream and downstream) take initial_stream_window_size, initial_connection_window_size, hpack_table_size and max_concurrent_streams; the other settings (allow_connect, stream error and flood limits, keepalive) are not implemented",
  },
] as const satisfies readonly SupportRow[];
