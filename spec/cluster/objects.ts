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
 * @example
 * ```ts
 * import { CLUSTER_OBJECTS } from "./objects.ts";
 * const ring = CLUSTER_OBJECTS.filter((r) => r.message === "Cluster.RingHashLbConfig");
 * console.log(ring.map((r) => r.field)); // ["minimum_ring_size", "hash_function", "maximum_ring_size"]
 * ```
 * @module
 */
import type { FieldRow } from "../rule.ts";

/** Rows of the `cluster.objects` table. */
export const CLUSTER_OBJECTS = [
  {
    id: "cluster.objects.custom-cluster-type.name",
    level: "MUST",
    statement:
      "`name` is a required, non-empty string naming a supported (registered) cluster type.",
    cite: {
      section: "Cluster.CustomClusterType",
      quote:
        "name | string, REQUIRED | Type of cluster to instantiate; must match a supported cluster type.",
    },
    check: "command",
    message: "Cluster.CustomClusterType",
    field: "name",
    number: 1,
    kind: "string",
    required: true,
  },
  {
    id: "cluster.objects.custom-cluster-type.typed-config",
    level: "MUST",
    statement: "`typed_config` is an Any (an object with `@type`).",
    cite: {
      section: "Cluster.CustomClusterType",
      quote: "typed_config | Any | Cluster-specific configuration.",
    },
    check: "command",
    message: "Cluster.CustomClusterType",
    field: "typed_config",
    number: 2,
    kind: "any",
  },
  {
    id: "cluster.objects.eds-cluster-config.eds-config",
    level: "MUST",
    statement: "`eds_config` is a core.ConfigSource message.",
    cite: {
      section: "Cluster.EdsClusterConfig",
      quote: "eds_config | core.ConfigSource | Source of EDS updates.",
    },
    check: "command",
    message: "Cluster.EdsClusterConfig",
    field: "eds_config",
    number: 1,
    kind: "message",
    type: "core.ConfigSource",
  },
  {
    id: "cluster.objects.eds-cluster-config.service-name",
    level: "MUST",
    statement: "`service_name` is a string.",
    cite: {
      section: "Cluster.EdsClusterConfig",
      quote:
        "service_name | string | Optional alternative to the cluster name presented to EDS; may be of arbitrary length.",
    },
    check: "command",
    message: "Cluster.EdsClusterConfig",
    field: "service_name",
    number: 2,
    kind: "string",
  },
  {
    id: "cluster.objects.lb-subset-config.fallback-policy",
    level: "MUST",
    statement:
      '`fallback_policy` is a Cluster.LbSubsetConfig.LbSubsetFallbackPolicy value; unset, it defaults to "NO_FALLBACK".',
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "fallback_policy | LbSubsetFallbackPolicy | Behaviour when no subset matches the route metadata. Default NO_FALLBACK.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "fallback_policy",
    number: 1,
    kind: "enum",
    enum: "Cluster.LbSubsetConfig.LbSubsetFallbackPolicy",
    default: "NO_FALLBACK",
  },
  {
    id: "cluster.objects.lb-subset-config.default-subset",
    level: "MUST",
    statement: "`default_subset` is a Struct (any JSON object).",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "default_subset | Struct | Used when fallback_policy is DEFAULT_SUBSET; each field is compared to the endpoint metadata in the `proxy.lb` namespace. It is valid that no host matches; behaviour is then as NO_FALLBACK.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "default_subset",
    number: 2,
    kind: "struct",
  },
  {
    id: "cluster.objects.lb-subset-config.subset-selectors",
    level: "MUST",
    statement:
      "`subset_selectors` is a list of Cluster.LbSubsetConfig.LbSubsetSelector message values.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "subset_selectors | array of LbSubsetSelector | For each entry the `proxy.lb` endpoint metadata is traversed and a subset is created per unique combination of key values. A subset matches when the route and weighted-cluster metadata contain the same keys and values. One host may be in several subsets.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "subset_selectors",
    number: 3,
    kind: "message",
    cardinality: "repeated",
    type: "Cluster.LbSubsetConfig.LbSubsetSelector",
  },
  {
    id: "cluster.objects.lb-subset-config.locality-weight-aware",
    level: "MUST",
    statement: "`locality_weight_aware` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "locality_weight_aware | bool | When true, subset routing takes localities and locality weights into account; may give an undesirable traffic split (for example a single selected host in one locality receiving that locality's whole share).",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "locality_weight_aware",
    number: 4,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.lb-subset-config.scale-locality-weight",
    level: "MUST",
    statement: "`scale_locality_weight` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "scale_locality_weight | bool | Used with locality_weight_aware; scales each locality weight by the ratio of hosts in the subset to hosts in the original subset.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "scale_locality_weight",
    number: 5,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.lb-subset-config.panic-mode-any",
    level: "MUST",
    statement: "`panic_mode_any` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "panic_mode_any | bool | When true and the fallback subset finds no host, any host of the whole cluster is selected.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "panic_mode_any",
    number: 6,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.lb-subset-config.list-as-any",
    level: "MUST",
    statement: "`list_as_any` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "list_as_any | bool | When true, a metadata value matches endpoint metadata if equal exactly, or if the endpoint value is a list and any element matches.",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig",
    field: "list_as_any",
    number: 7,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.lb-subset-config.lb-subset-selector.keys",
    level: "MUST",
    statement: "`keys` is a list of string values.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "LbSubsetSelector: `keys` (array of string; keys matched against the weighted-cluster metadata)",
    },
    check: "command",
    message: "Cluster.LbSubsetConfig.LbSubsetSelector",
    field: "keys",
    number: 1,
    kind: "string",
    cardinality: "repeated",
  },
  {
    id: "cluster.objects.lb-subset-config.lb-subset-selector.fallback-policy",
    level: "MUST",
    statement:
      '`fallback_policy` is a LbSubsetSelectorFallbackPolicy value; unset, it defaults to "NOT_DEFINED".',
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote:
        "`fallback_policy` (LbSubsetSelectorFallbackPolicy; overrides the top-level policy for this selector)",
    },
    envoy:
      "Envoy also has fallback_keys_subset and the KEYS_SUBSET policy, which the specification does not list.",
    check: "command",
    message: "Cluster.LbSubsetConfig.LbSubsetSelector",
    field: "fallback_policy",
    number: 2,
    kind: "enum",
    enum: "LbSubsetSelectorFallbackPolicy",
    default: "NOT_DEFINED",
  },
  {
    id: "cluster.objects.least-request-lb-config.choice-count",
    level: "MUST",
    statement: "`choice_count` is a UInt32Value of at least 2; unset, it defaults to 2.",
    cite: {
      section: "Cluster.LeastRequestLbConfig",
      quote:
        "`choice_count` (UInt32Value): number of random healthy hosts from which the one with fewest active requests is chosen; default 2.",
    },
    envoy:
      "The lower bound 2 is Envoy's PGV rule (`gte: 2`); the specification gives only the default.",
    check: "command",
    message: "Cluster.LeastRequestLbConfig",
    field: "choice_count",
    number: 1,
    kind: "UInt32Value",
    default: 2,
    range: { min: 2 },
  },
  {
    id: "cluster.objects.ring-hash-lb-config.minimum-ring-size",
    level: "MUST",
    statement:
      "`minimum_ring_size` is a UInt64Value; it is at most 8388608; unset, it defaults to 1024.",
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote: "minimum_ring_size | UInt64Value | Default 1024 entries; limited to 8M entries.",
    },
    check: "command",
    message: "Cluster.RingHashLbConfig",
    field: "minimum_ring_size",
    number: 1,
    kind: "UInt64Value",
    default: 1024,
    range: { max: 8388608 },
  },
  {
    id: "cluster.objects.ring-hash-lb-config.hash-function",
    level: "MUST",
    statement:
      '`hash_function` is a Cluster.RingHashLbConfig.HashFunction value; unset, it defaults to "XX_HASH".',
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote: "hash_function | HashFunction | Default XX_HASH.",
    },
    check: "command",
    message: "Cluster.RingHashLbConfig",
    field: "hash_function",
    number: 3,
    kind: "enum",
    enum: "Cluster.RingHashLbConfig.HashFunction",
    default: "XX_HASH",
  },
  {
    id: "cluster.objects.ring-hash-lb-config.maximum-ring-size",
    level: "MUST",
    statement:
      "`maximum_ring_size` is a UInt64Value; it is at most 8388608; unset, it defaults to 8388608.",
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote:
        "maximum_ring_size | UInt64Value | Default 8M entries; limited to 8M entries; may be lowered.",
    },
    check: "command",
    message: "Cluster.RingHashLbConfig",
    field: "maximum_ring_size",
    number: 4,
    kind: "UInt64Value",
    default: 8388608,
    range: { max: 8388608 },
  },
  {
    id: "cluster.objects.original-dst-lb-config.use-http-header",
    level: "MUST",
    statement: "`use_http_header` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.OriginalDstLbConfig",
      quote:
        "`use_http_header` (bool): when true the header `x-proxy-original-dst-host` can override the destination address.",
    },
    envoy: "Envoy's header is `x-envoy-original-dst-host`.",
    check: "command",
    message: "Cluster.OriginalDstLbConfig",
    field: "use_http_header",
    number: 1,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.common-lb-config.healthy-panic-threshold",
    level: "MUST",
    statement:
      '`healthy_panic_threshold` is a Percent; it lies in 0..100; unset, it defaults to {"value":50}.',
    cite: {
      section: "Cluster.CommonLbConfig",
      quote: "healthy_panic_threshold | type.Percent | Default 50%; truncated to the nearest 1%.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "healthy_panic_threshold",
    number: 1,
    kind: "Percent",
    default: { value: 50 },
    range: { min: 0, max: 100 },
  },
  {
    id: "cluster.objects.common-lb-config.zone-aware-lb-config",
    level: "MUST",
    statement:
      "`zone_aware_lb_config` is a Cluster.CommonLbConfig.ZoneAwareLbConfig message; at most one member of group `locality_config_specifier` is set.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "zone_aware_lb_config | ZoneAwareLbConfig | Only one of zone_aware_lb_config, locality_weighted_lb_config may be set.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "zone_aware_lb_config",
    number: 2,
    kind: "message",
    type: "Cluster.CommonLbConfig.ZoneAwareLbConfig",
    group: "locality_config_specifier",
  },
  {
    id: "cluster.objects.common-lb-config.locality-weighted-lb-config",
    level: "MUST",
    statement:
      "`locality_weighted_lb_config` is a Cluster.CommonLbConfig.LocalityWeightedLbConfig message; at most one member of group `locality_config_specifier` is set.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "locality_weighted_lb_config | LocalityWeightedLbConfig | Empty object; same exclusivity.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "locality_weighted_lb_config",
    number: 3,
    kind: "message",
    type: "Cluster.CommonLbConfig.LocalityWeightedLbConfig",
    group: "locality_config_specifier",
  },
  {
    id: "cluster.objects.common-lb-config.update-merge-window",
    level: "MUST",
    statement:
      '`update_merge_window` is a duration; it is at least 0ms; unset, it defaults to "1s".',
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "update_merge_window | Duration | Health-check, weight and metadata updates within this window are merged and delivered when it expires; the window starts at the first update; the first set of updates applies at once. Default 1000ms; 0 disables. Membership changes (adds, removes) are not merged.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "update_merge_window",
    number: 4,
    kind: "duration",
    default: "1s",
    range: { min: 0 },
  },
  {
    id: "cluster.objects.common-lb-config.ignore-new-hosts-until-first-hc",
    level: "MUST",
    statement: "`ignore_new_hosts_until_first_hc` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "ignore_new_hosts_until_first_hc | bool | When true, new hosts are excluded from the denominator of weight calculations (priority spillover, locality weighting, panic mode) until first health-checked. No effect without active health checking. Under panic mode, new hosts remain eligible for traffic.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "ignore_new_hosts_until_first_hc",
    number: 5,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.common-lb-config.zone-aware-lb-config.routing-enabled",
    level: "MUST",
    statement:
      '`routing_enabled` is a Percent; it lies in 0..100; unset, it defaults to {"value":100}.',
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "ZoneAwareLbConfig: `routing_enabled` (type.Percent; share of requests considered for zone-aware routing; default 100%)",
    },
    check: "command",
    message: "Cluster.CommonLbConfig.ZoneAwareLbConfig",
    field: "routing_enabled",
    number: 1,
    kind: "Percent",
    default: { value: 100 },
    range: { min: 0, max: 100 },
  },
  {
    id: "cluster.objects.common-lb-config.zone-aware-lb-config.min-cluster-size",
    level: "MUST",
    statement: "`min_cluster_size` is a UInt64Value; unset, it defaults to 6.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "`min_cluster_size` (UInt64Value; below this upstream cluster size no zone-aware routing; default 6)",
    },
    check: "command",
    message: "Cluster.CommonLbConfig.ZoneAwareLbConfig",
    field: "min_cluster_size",
    number: 2,
    kind: "UInt64Value",
    default: 6,
  },
  {
    id: "cluster.objects.upstream-bind-config.source-address",
    level: "MUST",
    statement: "`source_address` is a core.Address message; it is required.",
    cite: {
      section: "Other objects",
      quote:
        "| UpstreamBindConfig | source_address | core.Address | Address to bind to when opening upstream connections. |",
    },
    envoy:
      "Envoy's core.BindConfig.source_address is a core.SocketAddress (`{address, port_value}`), not a core.Address, and is required (PGV message.required).",
    check: "command",
    message: "UpstreamBindConfig",
    field: "source_address",
    kind: "message",
    type: "core.Address",
    required: true,
  },
  {
    id: "cluster.objects.upstream-connection-options.tcp-keepalive",
    level: "MUST",
    statement: "`tcp_keepalive` is a core.TcpKeepalive message.",
    cite: {
      section: "Other objects",
      quote:
        "| UpstreamConnectionOptions | tcp_keepalive | core.TcpKeepalive | When set, SO_KEEPALIVE is enabled on the socket. |",
    },
    check: "command",
    message: "UpstreamConnectionOptions",
    field: "tcp_keepalive",
    kind: "message",
    type: "core.TcpKeepalive",
  },
  {
    id: "cluster.objects.core.address.socket-address",
    level: "MUST",
    statement:
      "`socket_address` is a core.SocketAddress message; exactly one member of group `address` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.Address: oneof `socket_address`/`pipe` is required (PGV).",
    check: "internal",
    message: "core.Address",
    field: "socket_address",
    number: 1,
    kind: "message",
    type: "core.SocketAddress",
    group: "address",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.address.pipe",
    level: "MUST",
    statement: "`pipe` is a core.Pipe message; exactly one member of group `address` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.Address: oneof `socket_address`/`pipe` is required (PGV).",
    check: "internal",
    message: "core.Address",
    field: "pipe",
    number: 2,
    kind: "message",
    type: "core.Pipe",
    group: "address",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.socket-address.protocol",
    level: "MUST",
    statement: '`protocol` is a core.SocketAddress.Protocol value; unset, it defaults to "TCP".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "protocol",
    number: 1,
    kind: "enum",
    enum: "core.SocketAddress.Protocol",
    default: "TCP",
  },
  {
    id: "cluster.objects.core.socket-address.address",
    level: "MUST",
    statement: "`address` is a string; it is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "address",
    number: 2,
    kind: "string",
    required: true,
  },
  {
    id: "cluster.objects.core.socket-address.port-value",
    level: "MUST",
    statement:
      "`port_value` is a uint32; exactly one member of group `port_specifier` is set; it is at most 65535.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "port_value",
    number: 3,
    kind: "uint32",
    range: { max: 65535 },
    group: "port_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.socket-address.named-port",
    level: "MUST",
    statement: "`named_port` is a string; exactly one member of group `port_specifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "named_port",
    number: 4,
    kind: "string",
    group: "port_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.socket-address.resolver-name",
    level: "MUST",
    statement: "`resolver_name` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "resolver_name",
    number: 5,
    kind: "string",
  },
  {
    id: "cluster.objects.core.socket-address.ipv4-compat",
    level: "MUST",
    statement: "`ipv4_compat` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "ipv4_compat",
    number: 6,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.core.pipe.path",
    level: "MUST",
    statement: "`path` is a string; it is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Pipe: `path` min_bytes 1; `mode` lte 511.",
    check: "internal",
    message: "core.Pipe",
    field: "path",
    number: 1,
    kind: "string",
    required: true,
  },
  {
    id: "cluster.objects.core.pipe.mode",
    level: "MUST",
    statement: "`mode` is a uint32; it is at most 511.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Pipe: `path` min_bytes 1; `mode` lte 511.",
    check: "internal",
    message: "core.Pipe",
    field: "mode",
    kind: "uint32",
    range: { max: 511 },
  },
  {
    id: "cluster.objects.core.tcp-keepalive.keepalive-probes",
    level: "MUST",
    statement: "`keepalive_probes` is a UInt32Value.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "TcpKeepalive: three optional UInt32Value fields; unset ones use the operating system's values.",
    check: "internal",
    message: "core.TcpKeepalive",
    field: "keepalive_probes",
    number: 1,
    kind: "UInt32Value",
  },
  {
    id: "cluster.objects.core.tcp-keepalive.keepalive-time",
    level: "MUST",
    statement: "`keepalive_time` is a UInt32Value.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "TcpKeepalive: three optional UInt32Value fields; unset ones use the operating system's values.",
    check: "internal",
    message: "core.TcpKeepalive",
    field: "keepalive_time",
    number: 2,
    kind: "UInt32Value",
  },
  {
    id: "cluster.objects.core.tcp-keepalive.keepalive-interval",
    level: "MUST",
    statement: "`keepalive_interval` is a UInt32Value.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "TcpKeepalive: three optional UInt32Value fields; unset ones use the operating system's values.",
    check: "internal",
    message: "core.TcpKeepalive",
    field: "keepalive_interval",
    number: 3,
    kind: "UInt32Value",
  },
  {
    id: "cluster.objects.core.metadata.filter-metadata",
    level: "MUST",
    statement: "`filter_metadata` is a map from string to Struct (any JSON object).",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.Metadata: `filter_metadata` map of Struct (v3 adds `typed_filter_metadata`).",
    check: "internal",
    message: "core.Metadata",
    field: "filter_metadata",
    number: 1,
    kind: "struct",
    cardinality: "map",
  },
  {
    id: "cluster.objects.core.metadata.typed-filter-metadata",
    level: "MUST",
    statement: "`typed_filter_metadata` is a map from string to Any (an object with `@type`).",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.Metadata: `filter_metadata` map of Struct (v3 adds `typed_filter_metadata`).",
    check: "internal",
    message: "core.Metadata",
    field: "typed_filter_metadata",
    kind: "any",
    cardinality: "map",
  },
  {
    id: "cluster.objects.core.transport-socket.name",
    level: "MUST",
    statement: "`name` is a string; it is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "TransportSocket: `name` min_bytes 1; oneof config_type `config`/`typed_config`.",
    check: "internal",
    message: "core.TransportSocket",
    field: "name",
    kind: "string",
    required: true,
  },
  {
    id: "cluster.objects.core.transport-socket.config",
    level: "MUST",
    statement:
      "`config` is a Struct (any JSON object); at most one member of group `config_type` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "TransportSocket: `name` min_bytes 1; oneof config_type `config`/`typed_config`.",
    check: "internal",
    message: "core.TransportSocket",
    field: "config",
    kind: "struct",
    group: "config_type",
  },
  {
    id: "cluster.objects.core.transport-socket.typed-config",
    level: "MUST",
    statement:
      "`typed_config` is an Any (an object with `@type`); at most one member of group `config_type` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "TransportSocket: `name` min_bytes 1; oneof config_type `config`/`typed_config`.",
    check: "internal",
    message: "core.TransportSocket",
    field: "typed_config",
    kind: "any",
    group: "config_type",
  },
  {
    id: "cluster.objects.core.config-source.path",
    level: "MUST",
    statement: "`path` is a string; exactly one member of group `config_source_specifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "path",
    kind: "string",
    group: "config_source_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.config-source.path-config-source",
    level: "MUST",
    statement:
      "`path_config_source` (v3) is a core.PathConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "v3 ConfigSource adds `path_config_source` to the oneof (config/core/v3/config_source.proto); `path` is its deprecated v3 spelling.",
    check: "internal",
    message: "core.ConfigSource",
    field: "path_config_source",
    kind: "message",
    type: "core.PathConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.path-config-source.path",
    level: "MUST",
    statement: "`path` of a core.PathConfigSource names the watched file and is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "PathConfigSource.path: string, min_len 1 (config/core/v3/config_source.proto).",
    check: "internal",
    message: "core.PathConfigSource",
    field: "path",
    kind: "string",
    required: true,
  },
  {
    id: "cluster.objects.core.path-config-source.watched-directory",
    level: "MAY",
    statement:
      "`watched_directory` of a core.PathConfigSource names a directory whose moves trigger a reload.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "PathConfigSource.watched_directory: core.WatchedDirectory {path}.",
    check: "internal",
    message: "core.PathConfigSource",
    field: "watched_directory",
    kind: "struct",
  },
  {
    id: "cluster.objects.core.config-source.api-config-source",
    level: "MUST",
    statement:
      "`api_config_source` is a core.ApiConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "api_config_source",
    kind: "message",
    type: "core.ApiConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.config-source.ads",
    level: "MUST",
    statement:
      "`ads` is a core.AggregatedConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "ads",
    kind: "message",
    type: "core.AggregatedConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.config-source.self",
    level: "MUST",
    statement:
      "`self` is a core.SelfConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "self",
    kind: "message",
    type: "core.SelfConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.config-source.initial-fetch-timeout",
    level: "MUST",
    statement: '`initial_fetch_timeout` is a duration; unset, it defaults to "15s".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "initial_fetch_timeout",
    kind: "duration",
    default: "15s",
  },
  {
    id: "cluster.objects.core.config-source.resource-api-version",
    level: "MUST",
    statement: '`resource_api_version` is a core.ApiVersion value; unset, it defaults to "AUTO".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "resource_api_version",
    kind: "enum",
    enum: "core.ApiVersion",
    default: "AUTO",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds",
    level: "MUST",
    statement: "`thresholds` is a list of cluster.CircuitBreakers.Thresholds message values.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "CircuitBreakers: a list of Thresholds, one per routing priority.",
    check: "internal",
    message: "cluster.CircuitBreakers",
    field: "thresholds",
    number: 1,
    kind: "message",
    cardinality: "repeated",
    type: "cluster.CircuitBreakers.Thresholds",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.priority",
    level: "MUST",
    statement: '`priority` is a core.RoutingPriority value; unset, it defaults to "DEFAULT".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "priority",
    number: 1,
    kind: "enum",
    enum: "core.RoutingPriority",
    default: "DEFAULT",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-connections",
    level: "MUST",
    statement: "`max_connections` is a UInt32Value; unset, it defaults to 1024.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_connections",
    number: 2,
    kind: "UInt32Value",
    default: 1024,
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-pending-requests",
    level: "MUST",
    statement: "`max_pending_requests` is a UInt32Value; unset, it defaults to 1024.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_pending_requests",
    number: 3,
    kind: "UInt32Value",
    default: 1024,
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-requests",
    level: "MUST",
    statement: "`max_requests` is a UInt32Value; unset, it defaults to 1024.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_requests",
    number: 4,
    kind: "UInt32Value",
    default: 1024,
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-retries",
    level: "MUST",
    statement: "`max_retries` is a UInt32Value; unset, it defaults to 3.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_retries",
    number: 5,
    kind: "UInt32Value",
    default: 3,
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.retry-budget",
    level: "MUST",
    statement: "`retry_budget` is a cluster.CircuitBreakers.Thresholds.RetryBudget message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "retry_budget",
    kind: "message",
    type: "cluster.CircuitBreakers.Thresholds.RetryBudget",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.track-remaining",
    level: "MUST",
    statement: "`track_remaining` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "track_remaining",
    number: 6,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-connection-pools",
    level: "MUST",
    statement: "`max_connection_pools` is a UInt32Value.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_connection_pools",
    number: 7,
    kind: "UInt32Value",
  },
  {
    id: "cluster.objects.core.health-check.timeout",
    level: "MUST",
    statement: "`timeout` is a duration; it is required; it is greater than 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "timeout",
    kind: "duration",
    required: true,
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.core.health-check.interval",
    level: "MUST",
    statement: "`interval` is a duration; it is required; it is greater than 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "interval",
    kind: "duration",
    required: true,
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.core.health-check.initial-jitter",
    level: "MUST",
    statement: "`initial_jitter` is a duration.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "initial_jitter",
    kind: "duration",
  },
  {
    id: "cluster.objects.core.health-check.interval-jitter",
    level: "MUST",
    statement: "`interval_jitter` is a duration.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "interval_jitter",
    kind: "duration",
  },
  {
    id: "cluster.objects.core.health-check.interval-jitter-percent",
    level: "MUST",
    statement: "`interval_jitter_percent` is a uint32.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "interval_jitter_percent",
    kind: "uint32",
  },
  {
    id: "cluster.objects.core.health-check.unhealthy-threshold",
    level: "MUST",
    statement: "`unhealthy_threshold` is a UInt32Value; it is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "unhealthy_threshold",
    kind: "UInt32Value",
    required: true,
  },
  {
    id: "cluster.objects.core.health-check.healthy-threshold",
    level: "MUST",
    statement: "`healthy_threshold` is a UInt32Value; it is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "healthy_threshold",
    kind: "UInt32Value",
    required: true,
  },
  {
    id: "cluster.objects.core.health-check.alt-port",
    level: "MUST",
    statement: "`alt_port` is a UInt32Value.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "alt_port",
    kind: "UInt32Value",
  },
  {
    id: "cluster.objects.core.health-check.reuse-connection",
    level: "MUST",
    statement: "`reuse_connection` is a bool; unset, it defaults to true.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "reuse_connection",
    kind: "bool",
    default: true,
  },
  {
    id: "cluster.objects.core.health-check.http-health-check",
    level: "MUST",
    statement:
      "`http_health_check` is a core.HealthCheck.HttpHealthCheck message; exactly one member of group `health_checker` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "http_health_check",
    kind: "message",
    type: "core.HealthCheck.HttpHealthCheck",
    group: "health_checker",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.health-check.tcp-health-check",
    level: "MUST",
    statement:
      "`tcp_health_check` is a core.HealthCheck.TcpHealthCheck message; exactly one member of group `health_checker` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "tcp_health_check",
    kind: "message",
    type: "core.HealthCheck.TcpHealthCheck",
    group: "health_checker",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.health-check.grpc-health-check",
    level: "MUST",
    statement:
      "`grpc_health_check` is a core.HealthCheck.GrpcHealthCheck message; exactly one member of group `health_checker` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "grpc_health_check",
    kind: "message",
    type: "core.HealthCheck.GrpcHealthCheck",
    group: "health_checker",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.health-check.custom-health-check",
    level: "MUST",
    statement:
      "`custom_health_check` is a core.HealthCheck.CustomHealthCheck message; exactly one member of group `health_checker` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "custom_health_check",
    kind: "message",
    type: "core.HealthCheck.CustomHealthCheck",
    group: "health_checker",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.health-check.redis-health-check",
    level: "MUST",
    statement:
      "`redis_health_check` is a core.HealthCheck.RedisHealthCheck message; exactly one member of group `health_checker` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "redis_health_check",
    kind: "message",
    type: "core.HealthCheck.RedisHealthCheck",
    group: "health_checker",
    groupRequired: true,
  },
  {
    id: "cluster.objects.core.health-check.no-traffic-interval",
    level: "MUST",
    statement:
      '`no_traffic_interval` is a duration; it is greater than 0; unset, it defaults to "60s".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "no_traffic_interval",
    kind: "duration",
    default: "60s",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.core.health-check.unhealthy-interval",
    level: "MUST",
    statement: "`unhealthy_interval` is a duration; it is greater than 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "unhealthy_interval",
    kind: "duration",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.core.health-check.unhealthy-edge-interval",
    level: "MUST",
    statement: "`unhealthy_edge_interval` is a duration; it is greater than 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "unhealthy_edge_interval",
    kind: "duration",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.core.health-check.healthy-edge-interval",
    level: "MUST",
    statement: "`healthy_edge_interval` is a duration; it is greater than 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "healthy_edge_interval",
    kind: "duration",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.core.health-check.event-log-path",
    level: "MUST",
    statement: "`event_log_path` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "event_log_path",
    kind: "string",
  },
  {
    id: "cluster.objects.core.health-check.event-service",
    level: "MUST",
    statement: "`event_service` is a core.EventServiceConfig message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "event_service",
    kind: "message",
    type: "core.EventServiceConfig",
  },
  {
    id: "cluster.objects.core.health-check.always-log-health-check-failures",
    level: "MUST",
    statement: "`always_log_health_check_failures` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "always_log_health_check_failures",
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.core.health-check.tls-options",
    level: "MUST",
    statement: "`tls_options` is a core.HealthCheck.TlsOptions message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "tls_options",
    kind: "message",
    type: "core.HealthCheck.TlsOptions",
  },
  {
    id: "cluster.objects.core.health-check.transport-socket-match-criteria",
    level: "MUST",
    statement: "`transport_socket_match_criteria` is a Struct (any JSON object).",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "transport_socket_match_criteria",
    kind: "struct",
  },
  {
    id: "cluster.objects.cluster.outlier-detection.consecutive-5xx",
    level: "MUST",
    statement: "`consecutive_5xx` is a UInt32Value; unset, it defaults to 5.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "consecutive_5xx",
    number: 1,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.interval",
    level: "MUST",
    statement: '`interval` is a duration; it is greater than 0; unset, it defaults to "10s".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "interval",
    number: 2,
    kind: "duration",
    default: "10s",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.base-ejection-time",
    level: "MUST",
    statement:
      '`base_ejection_time` is a duration; it is greater than 0; unset, it defaults to "30s".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "base_ejection_time",
    number: 3,
    kind: "duration",
    default: "30s",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.max-ejection-percent",
    level: "MUST",
    statement:
      "`max_ejection_percent` is a UInt32Value; it is at most 100; unset, it defaults to 10.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "max_ejection_percent",
    number: 4,
    kind: "UInt32Value",
    default: 10,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-consecutive-5xx",
    level: "MUST",
    statement:
      "`enforcing_consecutive_5xx` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_consecutive_5xx",
    number: 5,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-success-rate",
    level: "MUST",
    statement:
      "`enforcing_success_rate` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_success_rate",
    number: 6,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.success-rate-minimum-hosts",
    level: "MUST",
    statement: "`success_rate_minimum_hosts` is a UInt32Value; unset, it defaults to 5.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "success_rate_minimum_hosts",
    number: 7,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.success-rate-request-volume",
    level: "MUST",
    statement: "`success_rate_request_volume` is a UInt32Value; unset, it defaults to 100.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "success_rate_request_volume",
    number: 8,
    kind: "UInt32Value",
    default: 100,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.success-rate-stdev-factor",
    level: "MUST",
    statement: "`success_rate_stdev_factor` is a UInt32Value; unset, it defaults to 1900.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "success_rate_stdev_factor",
    number: 9,
    kind: "UInt32Value",
    default: 1900,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.consecutive-gateway-failure",
    level: "MUST",
    statement: "`consecutive_gateway_failure` is a UInt32Value; unset, it defaults to 5.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "consecutive_gateway_failure",
    number: 10,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-consecutive-gateway-failure",
    level: "MUST",
    statement:
      "`enforcing_consecutive_gateway_failure` is a UInt32Value; it is at most 100; unset, it defaults to 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_consecutive_gateway_failure",
    number: 11,
    kind: "UInt32Value",
    default: 0,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.split-external-local-origin-errors",
    level: "MUST",
    statement: "`split_external_local_origin_errors` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "split_external_local_origin_errors",
    number: 12,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.consecutive-local-origin-failure",
    level: "MUST",
    statement: "`consecutive_local_origin_failure` is a UInt32Value; unset, it defaults to 5.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "consecutive_local_origin_failure",
    number: 13,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-consecutive-local-origin-failure",
    level: "MUST",
    statement:
      "`enforcing_consecutive_local_origin_failure` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_consecutive_local_origin_failure",
    number: 14,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-local-origin-success-rate",
    level: "MUST",
    statement:
      "`enforcing_local_origin_success_rate` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_local_origin_success_rate",
    number: 15,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.failure-percentage-threshold",
    level: "MUST",
    statement:
      "`failure_percentage_threshold` is a UInt32Value; it is at most 100; unset, it defaults to 85.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "failure_percentage_threshold",
    number: 16,
    kind: "UInt32Value",
    default: 85,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-failure-percentage",
    level: "MUST",
    statement:
      "`enforcing_failure_percentage` is a UInt32Value; it is at most 100; unset, it defaults to 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_failure_percentage",
    number: 17,
    kind: "UInt32Value",
    default: 0,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-failure-percentage-local-origin",
    level: "MUST",
    statement:
      "`enforcing_failure_percentage_local_origin` is a UInt32Value; it is at most 100; unset, it defaults to 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_failure_percentage_local_origin",
    number: 18,
    kind: "UInt32Value",
    default: 0,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.failure-percentage-minimum-hosts",
    level: "MUST",
    statement: "`failure_percentage_minimum_hosts` is a UInt32Value; unset, it defaults to 5.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "failure_percentage_minimum_hosts",
    number: 19,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.failure-percentage-request-volume",
    level: "MUST",
    statement: "`failure_percentage_request_volume` is a UInt32Value; unset, it defaults to 50.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "failure_percentage_request_volume",
    number: 20,
    kind: "UInt32Value",
    default: 50,
  },
  {
    id: "cluster.objects.cluster-load-assignment.cluster-name",
    level: "MUST",
    statement: "`cluster_name` is a string; it is required.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "cluster_name",
    number: 1,
    kind: "string",
    required: true,
  },
  {
    id: "cluster.objects.cluster-load-assignment.endpoints",
    level: "MUST",
    statement: "`endpoints` is a list of endpoint.LocalityLbEndpoints message values.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "endpoints",
    number: 2,
    kind: "message",
    cardinality: "repeated",
    type: "endpoint.LocalityLbEndpoints",
  },
  {
    id: "cluster.objects.cluster-load-assignment.named-endpoints",
    level: "MUST",
    statement: "`named_endpoints` is a map from string to endpoint.Endpoint message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "named_endpoints",
    number: 5,
    kind: "message",
    cardinality: "map",
    type: "endpoint.Endpoint",
  },
  {
    id: "cluster.objects.cluster-load-assignment.policy",
    level: "MUST",
    statement: "`policy` is a ClusterLoadAssignment.Policy message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "policy",
    number: 4,
    kind: "message",
    type: "ClusterLoadAssignment.Policy",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.locality",
    level: "MUST",
    statement: "`locality` is a core.Locality message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "locality",
    number: 1,
    kind: "message",
    type: "core.Locality",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.lb-endpoints",
    level: "MUST",
    statement: "`lb_endpoints` is a list of endpoint.LbEndpoint message values.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "lb_endpoints",
    number: 2,
    kind: "message",
    cardinality: "repeated",
    type: "endpoint.LbEndpoint",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.load-balancing-weight",
    level: "MUST",
    statement: "`load_balancing_weight` is a UInt32Value; it is at least 1.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "load_balancing_weight",
    number: 3,
    kind: "UInt32Value",
    range: { min: 1 },
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.priority",
    level: "MUST",
    statement: "`priority` is a uint32; it is at most 128; unset, it defaults to 0.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "priority",
    number: 5,
    kind: "uint32",
    default: 0,
    range: { max: 128 },
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.proximity",
    level: "MUST",
    statement: "`proximity` is a UInt32Value.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "proximity",
    number: 6,
    kind: "UInt32Value",
  },
  {
    id: "cluster.objects.core.locality.region",
    level: "MUST",
    statement: "`region` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Locality: region, zone, sub_zone strings.",
    check: "internal",
    message: "core.Locality",
    field: "region",
    number: 1,
    kind: "string",
  },
  {
    id: "cluster.objects.core.locality.zone",
    level: "MUST",
    statement: "`zone` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Locality: region, zone, sub_zone strings.",
    check: "internal",
    message: "core.Locality",
    field: "zone",
    number: 2,
    kind: "string",
  },
  {
    id: "cluster.objects.core.locality.sub-zone",
    level: "MUST",
    statement: "`sub_zone` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Locality: region, zone, sub_zone strings.",
    check: "internal",
    message: "core.Locality",
    field: "sub_zone",
    number: 3,
    kind: "string",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.endpoint",
    level: "MUST",
    statement:
      "`endpoint` is a endpoint.Endpoint message; at most one member of group `host_identifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "endpoint",
    number: 1,
    kind: "message",
    type: "endpoint.Endpoint",
    group: "host_identifier",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.endpoint-name",
    level: "MUST",
    statement: "`endpoint_name` is a string; at most one member of group `host_identifier` is set.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "endpoint_name",
    number: 5,
    kind: "string",
    group: "host_identifier",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.health-status",
    level: "MUST",
    statement: '`health_status` is a core.HealthStatus value; unset, it defaults to "UNKNOWN".',
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "health_status",
    number: 2,
    kind: "enum",
    enum: "core.HealthStatus",
    default: "UNKNOWN",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.metadata",
    level: "MUST",
    statement: "`metadata` is a core.Metadata message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "metadata",
    number: 3,
    kind: "message",
    type: "core.Metadata",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.load-balancing-weight",
    level: "MUST",
    statement: "`load_balancing_weight` of a host lies in 1..100; unset, it defaults to 1.",
    cite: { section: "Limits", quote: "| Host weight | 1 to 100 |" },
    envoy:
      "Envoy's PGV rule is only `gte: 1`; v2-era Envoy clamps host weights to at most 128 instead of rejecting larger ones.",
    check: "command",
    message: "endpoint.LbEndpoint",
    field: "load_balancing_weight",
    number: 4,
    kind: "UInt32Value",
    default: 1,
    range: { min: 1, max: 100 },
  },
  {
    id: "cluster.objects.endpoint.endpoint.address",
    level: "MUST",
    statement: "`address` is a core.Address message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Endpoint: address, health_check_config (port_value lte 65535), hostname.",
    check: "internal",
    message: "endpoint.Endpoint",
    field: "address",
    number: 1,
    kind: "message",
    type: "core.Address",
  },
  {
    id: "cluster.objects.endpoint.endpoint.health-check-config",
    level: "MUST",
    statement: "`health_check_config` is a endpoint.Endpoint.HealthCheckConfig message.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Endpoint: address, health_check_config (port_value lte 65535), hostname.",
    check: "internal",
    message: "endpoint.Endpoint",
    field: "health_check_config",
    number: 2,
    kind: "message",
    type: "endpoint.Endpoint.HealthCheckConfig",
  },
  {
    id: "cluster.objects.endpoint.endpoint.hostname",
    level: "MUST",
    statement: "`hostname` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "Endpoint: address, health_check_config (port_value lte 65535), hostname.",
    check: "internal",
    message: "endpoint.Endpoint",
    field: "hostname",
    number: 3,
    kind: "string",
  },
  {
    id: "cluster.objects.endpoint.endpoint.health-check-config.port-value",
    level: "MUST",
    statement: "`port_value` is a uint32; it is at most 65535.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "HealthCheckConfig.port_value lte 65535.",
    check: "internal",
    message: "endpoint.Endpoint.HealthCheckConfig",
    field: "port_value",
    number: 1,
    kind: "uint32",
    range: { max: 65535 },
  },
  {
    id: "cluster.objects.endpoint.endpoint.health-check-config.hostname",
    level: "MUST",
    statement: "`hostname` is a string.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "HealthCheckConfig.port_value lte 65535.",
    check: "internal",
    message: "endpoint.Endpoint.HealthCheckConfig",
    field: "hostname",
    number: 2,
    kind: "string",
  },
] as const satisfies readonly FieldRow[];
