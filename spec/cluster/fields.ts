/**
 * Table `cluster.fields`: the 37 fields of the Cluster configuration object, one row each, with
 * the columns the validator (`src/config/validate_cluster.ts`) and the defaults
 * (`src/config/defaults.ts`) interpret: value kind, cardinality, nested type or enum, required,
 * default (proto3 JSON form), range, exclusivity group, the discovery types a field applies to,
 * and the v2 proto field number. Durations in `range` are in milliseconds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLUSTER_FIELDS } from "./fields.ts";
 * const lb = CLUSTER_FIELDS.find((r) => r.field === "lb_policy");
 * assert.equal(lb?.default, "ROUND_ROBIN");
 * ```
 * @module
 */
import type { FieldRow } from "../rule.ts";
import { NOT_SHOWN } from "./objects/not_shown.ts";

/** Rows of the `cluster.fields` table. */
export const CLUSTER_FIELDS = [
  {
    id: "cluster.fields.name",
    level: "MUST",
    statement:
      "`name` is a required, non-empty string, unique across all clusters; stats use it (each `:` becomes `_`) unless `alt_stat_name` is given.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "name | string, REQUIRED | Unique across all clusters. Used in stats unless alt_stat_name is given. Each `:` becomes `_` in stats.",
    },
    check: "command",
    message: "Cluster",
    field: "name",
    kind: "string",
    required: true,
    number: 1,
    support: "honoured",
  },
  {
    id: "cluster.fields.alt-stat-name",
    level: "MUST",
    statement: "`alt_stat_name` replaces the name in stats; each `:` becomes `_`.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "alt_stat_name | string | Alternative stat name; each `:` becomes `_`.",
    },
    check: "command",
    message: "Cluster",
    field: "alt_stat_name",
    kind: "string",
    number: 28,
    support: "honoured",
    supportNote: "names the cluster's stats",
  },
  {
    id: "cluster.fields.type",
    level: "MUST",
    statement:
      '`type` is a Cluster.DiscoveryType value; at most one member of group `cluster_discovery_type` is set; unset, it defaults to "STATIC".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "type | Cluster.DiscoveryType | Only one of type, cluster_type may be set. Default STATIC.",
    },
    check: "command",
    message: "Cluster",
    field: "type",
    kind: "enum",
    enum: "Cluster.DiscoveryType",
    default: "STATIC",
    group: "cluster_discovery_type",
    number: 2,
    support: "honoured",
    supportNote: "STATIC, STRICT_DNS, LOGICAL_DNS, EDS (from a file) and ORIGINAL_DST",
  },
  {
    id: "cluster.fields.cluster-type",
    level: "MUST",
    statement:
      "`cluster_type` is a Cluster.CustomClusterType message; at most one member of group `cluster_discovery_type` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "cluster_type | Cluster.CustomClusterType | Only one of type, cluster_type may be set.",
    },
    check: "command",
    message: "Cluster",
    field: "cluster_type",
    kind: "message",
    type: "Cluster.CustomClusterType",
    group: "cluster_discovery_type",
    number: 38,
    support: "honoured",
    supportNote: "a built-in name selects the behaviour of its discovery type",
  },
  {
    id: "cluster.fields.eds-cluster-config",
    level: "MUST",
    statement:
      "`eds_cluster_config` is valid only on an EDS cluster; on any other type it is rejected.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "eds_cluster_config | Cluster.EdsClusterConfig | Only valid when discovery type is EDS.",
    },
    envoy:
      "Envoy before 1.15 silently ignored eds_cluster_config on a non-EDS cluster; 1.15 and later reject it with `eds_cluster_config set in a non-EDS cluster`.",
    check: "command",
    message: "Cluster",
    field: "eds_cluster_config",
    kind: "message",
    type: "Cluster.EdsClusterConfig",
    appliesTo: ["EDS"],
    outside: "error",
    number: 3,
    support: "honoured",
    supportNote: "EDS from a file config source; a control plane is refused",
  },
  {
    id: "cluster.fields.connect-timeout",
    level: "MUST",
    statement:
      "`connect_timeout` is a Duration greater than 0; unset, it defaults to 5s (the specification gives no default).",
    cite: {
      section: "Cluster (configuration object)",
      quote: "connect_timeout | Duration | Timeout for new connections to hosts.",
    },
    envoy:
      "v2-era Envoy requires connect_timeout (`Field 'connect_timeout' is missing in: ...`); later v3-only Envoy defaults it to 5s, which is the default chosen here.",
    check: "command",
    message: "Cluster",
    field: "connect_timeout",
    kind: "duration",
    default: "5s",
    range: { gtZero: true },
    number: 4,
    support: "honoured",
  },
  {
    id: "cluster.fields.per-connection-buffer-limit-bytes",
    level: "MUST",
    statement:
      "`per_connection_buffer_limit_bytes` is a UInt32Value; unset, it defaults to 1048576.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "per_connection_buffer_limit_bytes | UInt32Value | Soft limit of read and write buffers per connection; default 1MiB.",
    },
    check: "command",
    message: "Cluster",
    field: "per_connection_buffer_limit_bytes",
    kind: "UInt32Value",
    default: 1048576,
    number: 5,
    support: "honoured",
  },
  {
    id: "cluster.fields.lb-policy",
    level: "MUST",
    statement: '`lb_policy` is a Cluster.LbPolicy value; unset, it defaults to "ROUND_ROBIN".',
    cite: {
      section: "Cluster (configuration object)",
      quote: "lb_policy | Cluster.LbPolicy | Default ROUND_ROBIN.",
    },
    check: "command",
    message: "Cluster",
    field: "lb_policy",
    kind: "enum",
    enum: "Cluster.LbPolicy",
    default: "ROUND_ROBIN",
    number: 6,
    support: "honoured",
    supportNote:
      "ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM and MAGLEV (picks identical to Envoy's); ORIGINAL_DST_LB and CLUSTER_PROVIDED on ORIGINAL_DST clusters",
  },
  {
    id: "cluster.fields.hosts",
    level: "MUST",
    statement:
      "`hosts` (deprecated) lists the members as core.Address values; `load_assignment` overrides it when both are set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "hosts | array of core.Address | Deprecated; required for STATIC, STRICT_DNS, LOGICAL_DNS when load_assignment is absent.",
    },
    check: "command",
    message: "Cluster",
    field: "hosts",
    kind: "message",
    cardinality: "repeated",
    type: "core.Address",
    deprecated: true,
    number: 7,
    support: "honoured",
  },
  {
    id: "cluster.fields.load-assignment",
    level: "MUST",
    statement:
      "`load_assignment` gives the members of STATIC, STRICT_DNS and LOGICAL_DNS clusters and supersedes `hosts`.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "load_assignment | ClusterLoadAssignment | Required to give members of STATIC, STRICT_DNS, LOGICAL_DNS clusters; supersedes and overrides hosts.",
    },
    check: "command",
    message: "Cluster",
    field: "load_assignment",
    kind: "message",
    type: "ClusterLoadAssignment",
    number: 33,
    support: "honoured",
  },
  {
    id: "cluster.fields.health-checks",
    level: "MUST",
    statement:
      "`health_checks` lists active health checks; without it every member is always healthy.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "health_checks | array of core.HealthCheck | Optional. Without it no health checking is done and all members are always healthy.",
    },
    check: "command",
    message: "Cluster",
    field: "health_checks",
    kind: "message",
    cardinality: "repeated",
    type: "core.HealthCheck",
    number: 8,
    support: "honoured",
    supportNote: "HTTP/1.1, HTTP/2, TCP and gRPC checkers; Redis and custom checkers are refused",
  },
  {
    id: "cluster.fields.max-requests-per-connection",
    level: "MUST",
    statement:
      "`max_requests_per_connection` caps requests per upstream connection; unset (0) means no limit and 1 disables keep-alive.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "max_requests_per_connection | UInt32Value | Applies to HTTP/1.1 and HTTP/2 pools. Unset: no limit. Value 1 effectively disables keep-alive.",
    },
    check: "command",
    message: "Cluster",
    field: "max_requests_per_connection",
    kind: "UInt32Value",
    default: 0,
    number: 9,
    support: "honoured",
  },
  {
    id: "cluster.fields.circuit-breakers",
    level: "MUST",
    statement: "`circuit_breakers` is a cluster.CircuitBreakers message.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "circuit_breakers | cluster.CircuitBreakers | Optional.",
    },
    check: "command",
    message: "Cluster",
    field: "circuit_breakers",
    kind: "message",
    type: "cluster.CircuitBreakers",
    number: 10,
    support: "honoured",
  },
  {
    id: "cluster.fields.tls-context",
    level: "MUST",
    statement:
      "`tls_context` turns on upstream TLS; the server certificate is verified only when `trusted_ca` is configured.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "tls_context | auth.UpstreamTlsContext | Without it TLS is not used. Server certificate verification is off unless trusted_ca is configured.",
    },
    envoy:
      "Envoy 1.14+ rejects the deprecated tls_context unless a runtime override allows it (disallowed_by_default in the frozen v2 proto).",
    check: "command",
    message: "Cluster",
    field: "tls_context",
    kind: "message",
    type: "auth.UpstreamTlsContext",
    deprecated: true,
    number: 11,
    support: "honoured",
    supportNote:
      "sni, trusted_ca, alpn_protocols and a client certificate; other settings are refused",
  },
  {
    id: "cluster.fields.common-http-protocol-options",
    level: "MUST",
    statement: "`common_http_protocol_options` is a core.HttpProtocolOptions message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "common_http_protocol_options | core.HttpProtocolOptions | Applies to HTTP/1 and HTTP/2 upstream.",
    },
    check: "command",
    message: "Cluster",
    field: "common_http_protocol_options",
    kind: "message",
    type: "core.HttpProtocolOptions",
    number: 29,
    support: "honoured",
    supportNote:
      "idle_timeout (default 1 h), max_connection_duration and max_requests_per_connection of upstream connections; the rest is refused",
  },
  {
    id: "cluster.fields.http-protocol-options",
    level: "MUST",
    statement: "`http_protocol_options` is a core.Http1ProtocolOptions message.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "http_protocol_options | core.Http1ProtocolOptions | HTTP/1 options.",
    },
    check: "command",
    message: "Cluster",
    field: "http_protocol_options",
    kind: "message",
    type: "core.Http1ProtocolOptions",
    number: 13,
    support: "honoured",
    supportNote: "enable_trailers; the other HTTP/1.1 upstream options are refused",
  },
  {
    id: "cluster.fields.http2-protocol-options",
    level: "MUST",
    statement:
      "`http2_protocol_options`, when present (even empty), makes the proxy speak HTTP/2 with prior knowledge to the upstream.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "http2_protocol_options | core.Http2ProtocolOptions | Must be set (even with defaults) for the proxy to assume the upstream speaks HTTP/2. Only prior knowledge is supported, also when TLS with ALPN is used; HTTP/2 over plain text is thereby possible.",
    },
    check: "command",
    message: "Cluster",
    field: "http2_protocol_options",
    kind: "message",
    type: "core.Http2ProtocolOptions",
    number: 14,
    support: "honoured",
    supportNote:
      "selects HTTP/2 (prior knowledge) upstream; its window sizes and hpack_table_size are honoured, its other settings refused",
  },
  {
    id: "cluster.fields.extension-protocol-options",
    level: "MUST",
    statement: "`extension_protocol_options` is a map from string to Struct (any JSON object).",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "extension_protocol_options | map string to Struct | Per-extension upstream options; key is the extension filter name.",
    },
    check: "command",
    message: "Cluster",
    field: "extension_protocol_options",
    kind: "struct",
    cardinality: "map",
    group: "extension_protocol_options",
    deprecated: true,
    number: 35,
    support: "refused",
    supportNote: "no network filter of this build reads protocol options",
  },
  {
    id: "cluster.fields.typed-extension-protocol-options",
    level: "MUST",
    statement:
      "`typed_extension_protocol_options` is a map from string to Any (an object with `@type`).",
    cite: {
      section: "Cluster (configuration object)",
      quote: "typed_extension_protocol_options | map string to Any | Same purpose, typed values.",
    },
    check: "command",
    message: "Cluster",
    field: "typed_extension_protocol_options",
    kind: "any",
    cardinality: "map",
    group: "extension_protocol_options",
    number: 36,
    support: "honoured",
    supportNote:
      "envoy.extensions.upstreams.http.v3.HttpProtocolOptions with explicit_http_config or use_downstream_protocol_config; other keys are refused, and so are the cluster's own protocol fields beside it (Envoy ignores those)",
  },
  {
    id: "cluster.fields.dns-refresh-rate",
    level: "MUST",
    statement:
      '`dns_refresh_rate` is a duration; it is greater than 1ms; unset, it defaults to "5s".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "dns_refresh_rate | Duration | Only for STRICT_DNS and LOGICAL_DNS (ignored otherwise). Default 5000ms.",
    },
    envoy: "PGV: `gt: 1ms`, so the value must be greater than 1ms.",
    check: "command",
    message: "Cluster",
    field: "dns_refresh_rate",
    kind: "duration",
    default: "5s",
    range: { exclusiveMin: 1 },
    appliesTo: ["STRICT_DNS", "LOGICAL_DNS"],
    outside: "ignored",
    number: 16,
    support: "honoured",
  },
  {
    id: "cluster.fields.respect-dns-ttl",
    level: "MUST",
    statement: "`respect_dns_ttl` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "respect_dns_ttl | bool | When true the DNS refresh rate is the record TTL.",
    },
    check: "command",
    message: "Cluster",
    field: "respect_dns_ttl",
    kind: "bool",
    default: false,
    number: 39,
    support: "default-only",
    supportNote:
      "the system resolver does not report record TTLs; the refresh interval is dns_refresh_rate",
  },
  {
    id: "cluster.fields.dns-lookup-family",
    level: "MUST",
    statement:
      '`dns_lookup_family` is a Cluster.DnsLookupFamily value; unset, it defaults to "AUTO".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "dns_lookup_family | Cluster.DnsLookupFamily | Default AUTO. Ignored for types other than STRICT_DNS and LOGICAL_DNS.",
    },
    check: "command",
    message: "Cluster",
    field: "dns_lookup_family",
    kind: "enum",
    enum: "Cluster.DnsLookupFamily",
    default: "AUTO",
    appliesTo: ["STRICT_DNS", "LOGICAL_DNS"],
    outside: "ignored",
    number: 17,
    support: "honoured",
  },
  {
    id: "cluster.fields.dns-resolvers",
    level: "MUST",
    statement: "`dns_resolvers` is a list of core.Address message values.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "dns_resolvers | array of core.Address | Only for STRICT_DNS and LOGICAL_DNS. Default: the system resolver configured by the system resolver file.",
    },
    check: "command",
    message: "Cluster",
    field: "dns_resolvers",
    kind: "message",
    cardinality: "repeated",
    type: "core.Address",
    appliesTo: ["STRICT_DNS", "LOGICAL_DNS"],
    outside: "ignored",
    number: 18,
    support: "refused",
    supportNote: "names are resolved by the system resolver",
  },
  {
    id: "cluster.fields.outlier-detection",
    level: "MUST",
    statement: "`outlier_detection` is a cluster.OutlierDetection message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "outlier_detection | cluster.OutlierDetection | If present, outlier detection is on; each value can be overridden by runtime values.",
    },
    check: "command",
    message: "Cluster",
    field: "outlier_detection",
    kind: "message",
    type: "cluster.OutlierDetection",
    number: 19,
    support: "honoured",
  },
  {
    id: "cluster.fields.cleanup-interval",
    level: "MUST",
    statement:
      '`cleanup_interval` is a duration; it is greater than 0; unset, it defaults to "5s".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "cleanup_interval | Duration | Only for ORIGINAL_DST; interval for removing hosts not used as destinations. Default 5000ms. Ignored for other types.",
    },
    check: "command",
    message: "Cluster",
    field: "cleanup_interval",
    kind: "duration",
    default: "5s",
    range: { gtZero: true },
    appliesTo: ["ORIGINAL_DST"],
    outside: "ignored",
    number: 20,
    support: "honoured",
  },
  {
    id: "cluster.fields.upstream-bind-config",
    level: "MUST",
    statement:
      "`upstream_bind_config` (a core.BindConfig, described as UpstreamBindConfig) binds new upstream connections; an empty address and port means no bind.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "upstream_bind_config | core.BindConfig | Binds new upstream connections; overrides the bootstrap bind_config; empty address and port means no bind.",
    },
    check: "command",
    message: "Cluster",
    field: "upstream_bind_config",
    kind: "message",
    type: "UpstreamBindConfig",
    number: 21,
    support: "honoured",
  },
  {
    id: "cluster.fields.lb-subset-config",
    level: "MUST",
    statement: "`lb_subset_config` is a Cluster.LbSubsetConfig message.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "lb_subset_config | Cluster.LbSubsetConfig | Load-balancing subsets.",
    },
    check: "command",
    message: "Cluster",
    field: "lb_subset_config",
    kind: "message",
    type: "Cluster.LbSubsetConfig",
    number: 22,
    support: "honoured",
  },
  {
    id: "cluster.fields.ring-hash-lb-config",
    level: "MUST",
    statement:
      "`ring_hash_lb_config` is a Cluster.RingHashLbConfig message; at most one member of group `lb_config` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "ring_hash_lb_config | Cluster.RingHashLbConfig | Only one of ring_hash_lb_config, original_dst_lb_config, least_request_lb_config may be set.",
    },
    check: "command",
    message: "Cluster",
    field: "ring_hash_lb_config",
    kind: "message",
    type: "Cluster.RingHashLbConfig",
    group: "lb_config",
    number: 23,
    support: "honoured",
  },
  {
    id: "cluster.fields.original-dst-lb-config",
    level: "MUST",
    statement:
      "`original_dst_lb_config` is a Cluster.OriginalDstLbConfig message; at most one member of group `lb_config` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "original_dst_lb_config | Cluster.OriginalDstLbConfig | Same exclusivity group.",
    },
    check: "command",
    message: "Cluster",
    field: "original_dst_lb_config",
    kind: "message",
    type: "Cluster.OriginalDstLbConfig",
    group: "lb_config",
    number: 34,
    support: "honoured",
  },
  {
    id: "cluster.fields.least-request-lb-config",
    level: "MUST",
    statement:
      "`least_request_lb_config` is a Cluster.LeastRequestLbConfig message; at most one member of group `lb_config` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "least_request_lb_config | Cluster.LeastRequestLbConfig | Same exclusivity group.",
    },
    check: "command",
    message: "Cluster",
    field: "least_request_lb_config",
    kind: "message",
    type: "Cluster.LeastRequestLbConfig",
    group: "lb_config",
    number: 37,
    support: "honoured",
  },
  {
    id: "cluster.fields.maglev-lb-config",
    level: "MUST",
    statement:
      "`maglev_lb_config` is a Cluster.MaglevLbConfig message; at most one member of group `lb_config` is set.",
    cite: NOT_SHOWN,
    envoy:
      "Cluster.maglev_lb_config (Cluster.MaglevLbConfig, field 52), a member of oneof lb_config.",
    check: "internal",
    message: "Cluster",
    field: "maglev_lb_config",
    kind: "message",
    type: "Cluster.MaglevLbConfig",
    group: "lb_config",
    number: 52,
    support: "honoured",
  },
  {
    id: "cluster.fields.round-robin-lb-config",
    level: "MUST",
    statement:
      "`round_robin_lb_config` is a Cluster.RoundRobinLbConfig message; at most one member of group `lb_config` is set.",
    cite: NOT_SHOWN,
    envoy:
      "Cluster.round_robin_lb_config (Cluster.RoundRobinLbConfig, field 56), a member of oneof lb_config.",
    check: "internal",
    message: "Cluster",
    field: "round_robin_lb_config",
    kind: "message",
    type: "Cluster.RoundRobinLbConfig",
    group: "lb_config",
    number: 56,
    support: "honoured",
  },
  {
    id: "cluster.fields.common-lb-config",
    level: "MUST",
    statement: "`common_lb_config` is a Cluster.CommonLbConfig message.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "common_lb_config | Cluster.CommonLbConfig | Applies to all load balancers.",
    },
    check: "command",
    message: "Cluster",
    field: "common_lb_config",
    kind: "message",
    type: "Cluster.CommonLbConfig",
    number: 27,
    support: "honoured",
    supportNote: "every setting; update_merge_window has its own support column",
  },
  {
    id: "cluster.fields.transport-socket",
    level: "MUST",
    statement: "`transport_socket` is a core.TransportSocket message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "transport_socket | core.TransportSocket | Custom transport socket for upstream connections.",
    },
    check: "command",
    message: "Cluster",
    field: "transport_socket",
    kind: "message",
    type: "core.TransportSocket",
    number: 24,
    support: "honoured",
    supportNote: "tls (as tls_context) or raw_buffer",
  },
  {
    id: "cluster.fields.metadata",
    level: "MUST",
    statement: "`metadata` is a core.Metadata message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "metadata | core.Metadata | Extra information for stats, logging, filter behaviour; keys in reverse DNS notation naming the consumer (for the router filter the key is `proxy.router`).",
    },
    check: "command",
    message: "Cluster",
    field: "metadata",
    kind: "message",
    type: "core.Metadata",
    number: 25,
    support: "honoured",
    supportNote:
      "kept with the cluster and shown by /config_dump; no filter of this build reads it",
  },
  {
    id: "cluster.fields.protocol-selection",
    level: "MUST",
    statement:
      '`protocol_selection` is a Cluster.ClusterProtocolSelection value; unset, it defaults to "USE_CONFIGURED_PROTOCOL".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "protocol_selection | Cluster.ClusterProtocolSelection | Default USE_CONFIGURED_PROTOCOL.",
    },
    check: "command",
    message: "Cluster",
    field: "protocol_selection",
    kind: "enum",
    enum: "Cluster.ClusterProtocolSelection",
    default: "USE_CONFIGURED_PROTOCOL",
    number: 26,
    support: "honoured",
  },
  {
    id: "cluster.fields.upstream-connection-options",
    level: "MUST",
    statement: "`upstream_connection_options` is a UpstreamConnectionOptions message.",
    cite: {
      section: "Cluster (configuration object)",
      quote: "upstream_connection_options | UpstreamConnectionOptions | Optional.",
    },
    check: "command",
    message: "Cluster",
    field: "upstream_connection_options",
    kind: "message",
    type: "UpstreamConnectionOptions",
    number: 30,
    support: "honoured",
  },
  {
    id: "cluster.fields.close-connections-on-host-health-failure",
    level: "MUST",
    statement: "`close_connections_on_host_health_failure` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "close_connections_on_host_health_failure | bool | When true, all connections to a host that becomes unhealthy (health checks or outlier detection) are closed immediately. Supported only for connections made by the TCP proxy filter. Closing many connections can occupy the proxy for a long time.",
    },
    check: "command",
    message: "Cluster",
    field: "close_connections_on_host_health_failure",
    kind: "bool",
    default: false,
    number: 31,
    support: "honoured",
    supportNote: "TCP proxy connections, on failed active checks or outlier ejection",
  },
  {
    id: "cluster.fields.drain-connections-on-host-removal",
    level: "MUST",
    statement: "`drain_connections_on_host_removal` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "drain_connections_on_host_removal | bool | For EDS or STRICT_DNS clusters: drain connections at once from hosts removed from discovery. Affects only actively health-checked hosts. When not true, the proxy waits until removed hosts fail active health checking before removing them.",
    },
    check: "command",
    message: "Cluster",
    field: "drain_connections_on_host_removal",
    kind: "bool",
    default: false,
    number: 32,
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
