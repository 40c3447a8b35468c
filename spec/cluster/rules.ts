/**
 * Table `cluster.rules`: the cross-field rules of the Cluster object, each in a machine form
 * (`ClusterRuleKind`) the validator interprets, with the error text it prints. Texts are real
 * Envoy's where Envoy has the rule; `{name}`, `{type}`, `{policy}`, `{field}`, `{value}`, `{min}`,
 * `{max}`, `{address}`, `{what}`, `{file}` and `{reason}` are filled in by the validator.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLUSTER_RULES } from "./rules.ts";
 * import { row } from "../mod.ts";
 * const dup = row(CLUSTER_RULES, "cluster.rules.unique-name");
 * assert.equal(dup.message, "cluster manager: duplicate cluster '{name}'");
 * ```
 * @module
 */
import type { ClusterRuleRow } from "../rule.ts";
import { NOT_SHOWN } from "./objects/not_shown.ts";

const SEC = "Cluster (configuration object)";
const LB_RULE_QUOTE =
  "Rule: specifying ring_hash_lb_config or least_request_lb_config without the matching lb_policy (RING_HASH or LEAST_REQUEST) produces an error at runtime.";
const LB_RULE_ENVOY =
  "Envoy does not cross-check the lb_config oneof against lb_policy and accepts the mismatch silently; the specification calls it an error, and this implementation rejects it when the configuration is loaded.";

/** Rows of the `cluster.rules` table. */
export const CLUSTER_RULES = [
  {
    id: "cluster.rules.ring-hash-config-requires-ring-hash",
    level: "MUST",
    statement:
      "A cluster with ring_hash_lb_config and an lb_policy other than RING_HASH is rejected.",
    cite: { section: SEC, quote: LB_RULE_QUOTE },
    envoy: LB_RULE_ENVOY,
    check: "command",
    rule: { kind: "requires-policy", field: "ring_hash_lb_config", policies: ["RING_HASH"] },
    message:
      "ring_hash_lb_config is set but lb_policy is {policy}; it is valid only with RING_HASH",
  },
  {
    id: "cluster.rules.least-request-config-requires-least-request",
    level: "MUST",
    statement:
      "A cluster with least_request_lb_config and an lb_policy other than LEAST_REQUEST is rejected.",
    cite: { section: SEC, quote: LB_RULE_QUOTE },
    envoy: LB_RULE_ENVOY,
    check: "command",
    rule: {
      kind: "requires-policy",
      field: "least_request_lb_config",
      policies: ["LEAST_REQUEST"],
    },
    message:
      "least_request_lb_config is set but lb_policy is {policy}; it is valid only with LEAST_REQUEST",
  },
  {
    id: "cluster.rules.maglev-config-requires-maglev",
    level: "MUST",
    statement: "A cluster with maglev_lb_config and an lb_policy other than MAGLEV is rejected.",
    cite: { section: SEC, quote: LB_RULE_QUOTE },
    envoy: LB_RULE_ENVOY,
    check: "command",
    rule: { kind: "requires-policy", field: "maglev_lb_config", policies: ["MAGLEV"] },
    message: "maglev_lb_config is set but lb_policy is {policy}; it is valid only with MAGLEV",
  },
  {
    id: "cluster.rules.round-robin-config-requires-round-robin",
    level: "MUST",
    statement:
      "A cluster with round_robin_lb_config and an lb_policy other than ROUND_ROBIN is rejected.",
    cite: { section: SEC, quote: LB_RULE_QUOTE },
    envoy: LB_RULE_ENVOY,
    check: "command",
    rule: { kind: "requires-policy", field: "round_robin_lb_config", policies: ["ROUND_ROBIN"] },
    message:
      "round_robin_lb_config is set but lb_policy is {policy}; it is valid only with ROUND_ROBIN",
  },
  {
    id: "cluster.rules.maglev-table-size-prime",
    level: "MUST",
    statement: "A maglev_lb_config.table_size that is not a prime number is rejected.",
    cite: NOT_SHOWN,
    envoy:
      "Envoy's MaglevLoadBalancer constructor throws this message for a size that is not prime.",
    check: "command",
    rule: { kind: "semantic", name: "maglev-table-size-prime" },
    message: "The table size of maglev must be prime number",
  },
  {
    id: "cluster.rules.unique-name",
    level: "MUST",
    statement: "Two clusters with the same name are rejected.",
    cite: { section: SEC, quote: "Unique across all clusters." },
    check: "command",
    rule: { kind: "unique-name" },
    message: "cluster manager: duplicate cluster '{name}'",
  },
  {
    id: "cluster.rules.members-required",
    level: "MUST",
    statement:
      "A STATIC, STRICT_DNS or LOGICAL_DNS cluster without load_assignment and without hosts is rejected.",
    cite: {
      section: SEC,
      quote:
        "Deprecated; required for STATIC, STRICT_DNS, LOGICAL_DNS when load_assignment is absent.",
    },
    envoy:
      "Envoy accepts a STATIC (or DNS) cluster with no hosts and no load_assignment: an empty cluster.",
    check: "command",
    rule: { kind: "hosts-required", types: ["STATIC", "STRICT_DNS", "LOGICAL_DNS"] },
    message: "a {type} cluster needs its members: set load_assignment (or the deprecated hosts)",
  },
  {
    id: "cluster.rules.ring-min-not-above-max",
    level: "MUST",
    statement:
      "A ring_hash_lb_config whose minimum_ring_size (default 1024) exceeds its maximum_ring_size (default 8388608) is rejected.",
    cite: {
      section: "Cluster.RingHashLbConfig",
      quote: "Default 8M entries; limited to 8M entries; may be lowered.",
    },
    envoy:
      "Envoy 1.14+ rejects it with this message; Envoy 1.13 and earlier only logged an error when building the ring.",
    check: "command",
    rule: {
      kind: "min-not-above-max",
      min: "ring_hash_lb_config.minimum_ring_size",
      max: "ring_hash_lb_config.maximum_ring_size",
    },
    message: "ring hash: minimum_ring_size ({min}) > maximum_ring_size ({max})",
  },
  {
    id: "cluster.rules.original-dst-type-needs-its-policy",
    level: "MUST",
    statement:
      "An ORIGINAL_DST cluster whose lb_policy (default ROUND_ROBIN) is not ORIGINAL_DST_LB or CLUSTER_PROVIDED is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "CLUSTER_PROVIDED (required when the configured cluster type provides its own load balancer)",
    },
    check: "command",
    rule: {
      kind: "type-policy",
      type: "ORIGINAL_DST",
      policies: ["ORIGINAL_DST_LB", "CLUSTER_PROVIDED"],
    },
    message:
      "cluster: LB policy {policy} is not valid for Cluster type {type}. Only 'CLUSTER_PROVIDED' or 'ORIGINAL_DST_LB' is allowed with cluster type 'ORIGINAL_DST'",
  },
  {
    id: "cluster.rules.original-dst-lb-needs-original-dst-type",
    level: "MUST",
    statement: "lb_policy ORIGINAL_DST_LB on a cluster whose type is not ORIGINAL_DST is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "Cluster.LbPolicy | ROUND_ROBIN (default), LEAST_REQUEST, RING_HASH, RANDOM, ORIGINAL_DST_LB, MAGLEV",
    },
    check: "command",
    rule: { kind: "policy-type", policy: "ORIGINAL_DST_LB", types: ["ORIGINAL_DST"] },
    message:
      "cluster: LB policy ORIGINAL_DST_LB is not valid for Cluster type {type}. 'ORIGINAL_DST_LB' is allowed only with cluster type 'ORIGINAL_DST'",
  },
  {
    id: "cluster.rules.cluster-provided-needs-provider",
    level: "MUST",
    statement:
      "lb_policy CLUSTER_PROVIDED on a cluster type that provides no load balancer (STATIC, STRICT_DNS, LOGICAL_DNS, EDS) is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "CLUSTER_PROVIDED (required when the configured cluster type provides its own load balancer)",
    },
    check: "command",
    rule: { kind: "policy-type", policy: "CLUSTER_PROVIDED", types: ["ORIGINAL_DST"] },
    message:
      "cluster manager: cluster provided LB specified but cluster '{name}' did not provide one. Check cluster documentation.",
  },
  {
    id: "cluster.rules.custom-type-registered",
    level: "MUST",
    statement:
      "A cluster_type whose name is not a registered cluster factory (the five built-in types, spelled proxy.cluster.* or envoy.cluster.*, and the aggregate cluster, envoy.clusters.aggregate or proxy.clusters.aggregate) is rejected.",
    cite: {
      section: "Cluster.CustomClusterType",
      quote: "Type of cluster to instantiate; must match a supported cluster type.",
    },
    envoy:
      "Envoy also registers extension cluster types (envoy.clusters.redis, envoy.clusters.dynamic_forward_proxy); this implementation has the aggregate cluster only.",
    check: "command",
    rule: {
      kind: "custom-type",
      names: [
        { name: "proxy.cluster.static", type: "STATIC" },
        { name: "proxy.cluster.strict_dns", type: "STRICT_DNS" },
        { name: "proxy.cluster.logical_dns", type: "LOGICAL_DNS" },
        { name: "proxy.cluster.eds", type: "EDS" },
        { name: "proxy.cluster.original_dst", type: "ORIGINAL_DST" },
        { name: "envoy.cluster.static", type: "STATIC" },
        { name: "envoy.cluster.strict_dns", type: "STRICT_DNS" },
        { name: "envoy.cluster.logical_dns", type: "LOGICAL_DNS" },
        { name: "envoy.cluster.eds", type: "EDS" },
        { name: "envoy.cluster.original_dst", type: "ORIGINAL_DST" },
        // The aggregate cluster has no hosts of its own (STATIC without members).
        { name: "envoy.clusters.aggregate", type: "STATIC" },
        { name: "proxy.clusters.aggregate", type: "STATIC" },
      ],
    },
    message: "Didn't find a registered cluster factory implementation for name: '{value}'",
  },
  {
    id: "cluster.rules.aggregate-config",
    level: "MUST",
    statement:
      "An aggregate cluster's typed_config is an envoy.extensions.clusters.aggregate.v3.ClusterConfig whose `clusters` lists at least one cluster name; anything else in it is rejected.",
    cite: {
      section: "Cluster.CustomClusterType",
      quote: "typed_config | Any | Cluster-specific configuration.",
    },
    envoy:
      "envoy.extensions.clusters.aggregate.v3.ClusterConfig.clusters (repeated string, field 1, `min_items: 1`).",
    check: "command",
    rule: { kind: "semantic", name: "aggregate-config" },
    message: "aggregate cluster '{name}': {reason}",
  },
  {
    id: "cluster.rules.aggregate-needs-cluster-provided",
    level: "MUST",
    statement: "An aggregate cluster whose lb_policy is not CLUSTER_PROVIDED is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "CLUSTER_PROVIDED (required when the configured cluster type provides its own load balancer)",
    },
    envoy: "Envoy's ClusterFactoryImplBase::create throws this message.",
    check: "command",
    rule: { kind: "semantic", name: "aggregate-needs-cluster-provided" },
    message:
      "cluster manager: cluster provided LB not specified but cluster '{name}' provided one. Check cluster documentation.",
  },
  {
    id: "cluster.rules.aggregate-known-clusters",
    level: "MUST",
    statement:
      "An aggregate cluster that lists a cluster the configuration does not define is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "CLUSTER_PROVIDED (required when the configured cluster type provides its own load balancer)",
    },
    envoy:
      "Envoy accepts the name and skips the cluster while it does not exist; this implementation rejects a static configuration that names a cluster it lacks.",
    check: "command",
    rule: { kind: "semantic", name: "aggregate-known-clusters" },
    message: "aggregate cluster '{name}': cluster '{value}' is not defined",
  },
  {
    id: "cluster.rules.aggregate-no-loop",
    level: "MUST",
    statement:
      "An aggregate cluster that reaches itself through the clusters it lists (directly or through other aggregate clusters) is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "CLUSTER_PROVIDED (required when the configured cluster type provides its own load balancer)",
    },
    check: "command",
    rule: { kind: "semantic", name: "aggregate-no-loop" },
    message: "aggregate cluster '{name}': cluster '{value}' leads back to '{name}'",
  },
  {
    id: "cluster.rules.eds-needs-eds-config",
    level: "MUST",
    statement:
      "An EDS cluster without eds_cluster_config is rejected (the specification is silent; this is Envoy's rule).",
    cite: {
      section: SEC,
      quote:
        "eds_cluster_config | Cluster.EdsClusterConfig | Only valid when discovery type is EDS.",
    },
    check: "command",
    rule: { kind: "type-requires", type: "EDS", field: "eds_cluster_config" },
    message: "cannot create an EDS cluster without an EDS config",
  },
  {
    id: "cluster.rules.logical-dns-single-endpoint",
    level: "MUST",
    statement:
      "A LOGICAL_DNS cluster whose load_assignment has other than one locality with one endpoint is rejected (Envoy's rule).",
    cite: {
      section: SEC,
      quote: "Required to give members of STATIC, STRICT_DNS, LOGICAL_DNS clusters",
    },
    check: "command",
    rule: { kind: "semantic", name: "logical-dns-single-endpoint" },
    message:
      "LOGICAL_DNS clusters must have a single locality_lb_endpoint and a single lb_endpoint",
  },
  {
    id: "cluster.rules.logical-dns-single-host",
    level: "MUST",
    statement:
      "A LOGICAL_DNS cluster given by hosts (no load_assignment) with other than one host is rejected (Envoy's rule).",
    cite: {
      section: SEC,
      quote:
        "Deprecated; required for STATIC, STRICT_DNS, LOGICAL_DNS when load_assignment is absent.",
    },
    check: "command",
    rule: { kind: "semantic", name: "logical-dns-single-host" },
    message: "LOGICAL_DNS clusters must have a single host",
  },
  {
    id: "cluster.rules.logical-dns-no-resolver-name",
    level: "MUST",
    statement: "A LOGICAL_DNS member address with a resolver_name is rejected (Envoy's rule).",
    cite: {
      section: SEC,
      quote: "Required to give members of STATIC, STRICT_DNS, LOGICAL_DNS clusters",
    },
    check: "command",
    rule: { kind: "semantic", name: "logical-dns-no-resolver-name" },
    message: "LOGICAL_DNS clusters must NOT have a custom resolver name set",
  },
  {
    id: "cluster.rules.static-hosts-are-ip",
    level: "MUST",
    statement:
      "A STATIC cluster member whose address is not an IP address (and names no resolver) is rejected.",
    cite: {
      section: "Enumerations",
      quote: "Cluster.DiscoveryType | STATIC (default), STRICT_DNS, LOGICAL_DNS, EDS, ORIGINAL_DST",
    },
    check: "command",
    rule: { kind: "semantic", name: "static-hosts-are-ip" },
    message:
      "malformed IP address: {address}. Consider setting resolver_name or setting cluster type to 'STRICT_DNS' or 'LOGICAL_DNS'",
  },
  {
    id: "cluster.rules.single-health-check",
    level: "MUST",
    statement: "A cluster with more than one health check is rejected (Envoy's rule).",
    cite: {
      section: SEC,
      quote: "Optional. Without it no health checking is done and all members are always healthy.",
    },
    check: "command",
    rule: { kind: "max-items", field: "health_checks", max: 1 },
    message: "Multiple health checks not supported",
  },
  {
    id: "cluster.rules.grpc-health-check-needs-http2",
    level: "MUST",
    statement: "A gRPC health check on a cluster without http2_protocol_options is rejected.",
    cite: {
      section: SEC,
      quote: "Must be set (even with defaults) for the proxy to assume the upstream speaks HTTP/2.",
    },
    check: "command",
    rule: { kind: "semantic", name: "grpc-health-check-needs-http2" },
    message: "{name} cluster must support HTTP/2 for gRPC healthchecking",
  },
  {
    id: "cluster.rules.http1-and-http2-need-protocol-selection",
    level: "MUST",
    statement:
      "A cluster with both http_protocol_options and http2_protocol_options and protocol_selection USE_CONFIGURED_PROTOCOL is rejected.",
    cite: {
      section: "Enumerations",
      quote:
        "USE_CONFIGURED_PROTOCOL (default; HTTP/2 if http2_protocol_options present, else HTTP/1.1)",
    },
    check: "command",
    rule: { kind: "semantic", name: "http1-and-http2-need-protocol-selection" },
    message:
      "cluster: Both HTTP1 and HTTP2 options may only be configured with non-default 'protocol_selection' values",
  },
  {
    id: "cluster.rules.extension-options-exclusive",
    level: "MUST",
    statement:
      "A cluster with both typed_extension_protocol_options and extension_protocol_options is rejected.",
    cite: {
      section: SEC,
      quote: "typed_extension_protocol_options | map string to Any | Same purpose, typed values.",
    },
    check: "command",
    rule: { kind: "group", group: "extension_protocol_options" },
    message:
      "Only one of typed_extension_protocol_options or extension_protocol_options can be specified",
  },
  {
    id: "cluster.rules.subset-forbids-provided-lb",
    level: "MUST",
    statement:
      "lb_subset_config together with lb_policy ORIGINAL_DST_LB or CLUSTER_PROVIDED is rejected.",
    cite: {
      section: SEC,
      quote: "lb_subset_config | Cluster.LbSubsetConfig | Load-balancing subsets.",
    },
    check: "command",
    rule: {
      kind: "policy-forbids",
      field: "lb_subset_config",
      policies: ["ORIGINAL_DST_LB", "CLUSTER_PROVIDED"],
    },
    message: "cluster: LB policy {policy} cannot be combined with lb_subset_config",
  },
  {
    id: "cluster.rules.locality-weight-aware-needs-locality-weighted",
    level: "MUST",
    statement:
      "lb_subset_config.locality_weight_aware without common_lb_config.locality_weighted_lb_config is rejected.",
    cite: {
      section: "Cluster.LbSubsetConfig",
      quote: "When true, subset routing takes localities and locality weights into account",
    },
    check: "command",
    rule: {
      kind: "requires-field",
      field: "lb_subset_config.locality_weight_aware",
      requires: "common_lb_config.locality_weighted_lb_config",
    },
    message:
      "Locality weight aware subset LB requires that a locality_weighted_lb_config be set in {name}",
  },
  {
    id: "cluster.rules.tls-files-readable",
    level: "MUST",
    statement:
      "A TLS file named by tls_context or a TLS transport_socket (trusted_ca, certificate chain, private key) that cannot be read is a configuration error.",
    cite: {
      section: SEC,
      quote:
        "Without it TLS is not used. Server certificate verification is off unless trusted_ca is configured.",
    },
    check: "command",
    rule: { kind: "semantic", name: "tls-files-readable" },
    message: "cannot read {what} '{file}': {reason}",
  },
  {
    id: "cluster.rules.http2-window-sizes-in-range",
    level: "MUST",
    statement:
      "An http2_protocol_options initial_stream_window_size or initial_connection_window_size outside 65535..2147483647 is rejected.",
    cite: NOT_SHOWN,
    envoy:
      "Http2ProtocolOptions: initial_stream_window_size and initial_connection_window_size are UInt32Values validated to [65535, 2147483647].",
    check: "internal",
    rule: { kind: "semantic", name: "http2-window-sizes-in-range" },
    message: "value must be inside range [65535, 2147483647] (got {value})",
  },
  {
    id: "cluster.rules.http2-max-concurrent-streams-in-range",
    level: "MUST",
    statement:
      "An http2_protocol_options max_concurrent_streams outside 1..2147483647 is rejected; unset, a connection carries up to 2147483647 streams at once.",
    cite: NOT_SHOWN,
    envoy:
      "Http2ProtocolOptions: max_concurrent_streams is a UInt32Value validated to [1, 2147483647], default 2147483647.",
    check: "internal",
    rule: { kind: "semantic", name: "http2-max-concurrent-streams-in-range" },
    message: "value must be inside range [1, 2147483647] (got {value})",
  },
  {
    id: "cluster.rules.max-requests-per-connection-once",
    level: "MUST",
    statement:
      "A cluster that sets max_requests_per_connection both on itself and in its common_http_protocol_options is rejected.",
    cite: NOT_SHOWN,
    envoy:
      "upstream_impl.cc: 'Only one of max_requests_per_connection from Cluster or HttpProtocolOptions can be specified'.",
    check: "internal",
    rule: { kind: "semantic", name: "max-requests-per-connection-once" },
    message:
      "Only one of max_requests_per_connection from Cluster or HttpProtocolOptions can be specified",
  },
  {
    id: "cluster.rules.common-http-protocol-options-values",
    level: "MUST",
    statement:
      "In common_http_protocol_options, idle_timeout, max_connection_duration and max_stream_duration are Durations, max_requests_per_connection a UInt32Value and max_headers_count a UInt32Value of at least 1; another value is rejected.",
    cite: NOT_SHOWN,
    envoy:
      "core.HttpProtocolOptions: idle_timeout (default 1 h, 0 disables), max_connection_duration and max_stream_duration are google.protobuf.Duration, max_requests_per_connection is a UInt32Value, max_headers_count a UInt32Value (gte 1, default 100).",
    check: "internal",
    rule: { kind: "semantic", name: "common-http-protocol-options-values" },
    message: "{field} must be {what} (got {value})",
  },
] as const satisfies readonly ClusterRuleRow[];
