/**
 * Table `cluster.enums`: the seven enumerations of the Cluster object, with each value's proto
 * number (from Envoy's frozen v2 protos), the default and its meaning; then the enumerations of
 * referenced messages the validator checks (`check: "internal"`). Names are matched
 * case-insensitively, as Envoy's parser does; numbers must be defined values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CLUSTER_ENUMS } from "./enums.ts";
 * const lb = CLUSTER_ENUMS.find((e) => e.name === "Cluster.LbPolicy");
 * assert.equal(lb?.default, "ROUND_ROBIN");
 * ```
 * @module
 */
import type { EnumRow } from "../rule.ts";

/** Rows of the `cluster.enums` table. */
export const CLUSTER_ENUMS = [
  {
    id: "cluster.enums.discovery-type",
    level: "MUST",
    statement:
      "Cluster.DiscoveryType takes one of STATIC, STRICT_DNS, LOGICAL_DNS, EDS, ORIGINAL_DST (by name, case-insensitively, or by number); unset, it is STATIC.",
    cite: {
      section: "Enumerations",
      quote: "Cluster.DiscoveryType | STATIC (default), STRICT_DNS, LOGICAL_DNS, EDS, ORIGINAL_DST",
    },
    check: "command",
    name: "Cluster.DiscoveryType",
    values: [
      {
        name: "STATIC",
        number: 0,
        meaning: "Members are listed in the configuration (IP addresses).",
      },
      {
        name: "STRICT_DNS",
        number: 1,
        meaning: "Every address returned by DNS for each listed name is a member.",
      },
      {
        name: "LOGICAL_DNS",
        number: 2,
        meaning: "One listed name; the first DNS address is used for new connections.",
      },
      { name: "EDS", number: 3, meaning: "Members come from the endpoint discovery service." },
      {
        name: "ORIGINAL_DST",
        number: 4,
        meaning: "The original destination of the downstream connection is the member.",
      },
    ],
    default: "STATIC",
  },
  {
    id: "cluster.enums.lb-policy",
    level: "MUST",
    statement:
      "Cluster.LbPolicy takes one of ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM, ORIGINAL_DST_LB, MAGLEV, CLUSTER_PROVIDED (by name, case-insensitively, or by number); unset, it is ROUND_ROBIN.",
    cite: {
      section: "Enumerations",
      quote:
        "Cluster.LbPolicy | ROUND_ROBIN (default), LEAST_REQUEST, RING_HASH, RANDOM, ORIGINAL_DST_LB, MAGLEV, CLUSTER_PROVIDED (required when the configured cluster type provides its own load balancer)",
    },
    envoy:
      "Envoy also has LOAD_BALANCING_POLICY_CONFIG = 7 (not in the specification); ORIGINAL_DST_LB is deprecated and disallowed by default in Envoy 1.14+. Envoy's RANDOM ignores host weights (a uniform draw among the candidates); this implementation's RANDOM draws in proportion to host weight (host weights 1..100 apply to every policy).",
    check: "command",
    name: "Cluster.LbPolicy",
    values: [
      { name: "ROUND_ROBIN", number: 0, meaning: "Each healthy host in turn." },
      {
        name: "LEAST_REQUEST",
        number: 1,
        meaning: "The host with fewest active requests among choice_count random hosts.",
      },
      { name: "RING_HASH", number: 2, meaning: "Consistent hashing on a ring." },
      { name: "RANDOM", number: 3, meaning: "A random healthy host." },
      {
        name: "ORIGINAL_DST_LB",
        number: 4,
        meaning: "The original destination address (ORIGINAL_DST clusters only).",
      },
      { name: "MAGLEV", number: 5, meaning: "Consistent hashing with a Maglev table." },
      {
        name: "CLUSTER_PROVIDED",
        number: 6,
        meaning: "Required when the configured cluster type provides its own load balancer.",
      },
    ],
    default: "ROUND_ROBIN",
  },
  {
    id: "cluster.enums.dns-lookup-family",
    level: "MUST",
    statement:
      "Cluster.DnsLookupFamily takes one of AUTO, V4_ONLY, V6_ONLY (by name, case-insensitively, or by number); unset, it is AUTO.",
    cite: {
      section: "Enumerations",
      quote:
        "Cluster.DnsLookupFamily | AUTO (default; look up IPv6 first, then fall back to IPv4), V4_ONLY, V6_ONLY",
    },
    check: "command",
    name: "Cluster.DnsLookupFamily",
    values: [{ name: "AUTO", number: 0, meaning: "Look up IPv6 first, then fall back to IPv4." }, {
      name: "V4_ONLY",
      number: 1,
      meaning: "IPv4 only.",
    }, { name: "V6_ONLY", number: 2, meaning: "IPv6 only." }],
    default: "AUTO",
  },
  {
    id: "cluster.enums.cluster-protocol-selection",
    level: "MUST",
    statement:
      "Cluster.ClusterProtocolSelection takes one of USE_CONFIGURED_PROTOCOL, USE_DOWNSTREAM_PROTOCOL (by name, case-insensitively, or by number); unset, it is USE_CONFIGURED_PROTOCOL.",
    cite: {
      section: "Enumerations",
      quote:
        "Cluster.ClusterProtocolSelection | USE_CONFIGURED_PROTOCOL (default; HTTP/2 if http2_protocol_options present, else HTTP/1.1), USE_DOWNSTREAM_PROTOCOL (HTTP/1.1 or HTTP/2 as on the downstream connection)",
    },
    check: "command",
    name: "Cluster.ClusterProtocolSelection",
    values: [{
      name: "USE_CONFIGURED_PROTOCOL",
      number: 0,
      meaning: "HTTP/2 if http2_protocol_options is present, else HTTP/1.1.",
    }, {
      name: "USE_DOWNSTREAM_PROTOCOL",
      number: 1,
      meaning: "HTTP/1.1 or HTTP/2 as on the downstream connection.",
    }],
    default: "USE_CONFIGURED_PROTOCOL",
  },
  {
    id: "cluster.enums.lb-subset-fallback-policy",
    level: "MUST",
    statement:
      "Cluster.LbSubsetConfig.LbSubsetFallbackPolicy takes one of NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET (by name, case-insensitively, or by number); unset, it is NO_FALLBACK.",
    cite: {
      section: "Enumerations",
      quote:
        "Cluster.LbSubsetConfig.LbSubsetFallbackPolicy | NO_FALLBACK (default; result equals no healthy hosts), ANY_ENDPOINT (any endpoint, subject to policy and health), DEFAULT_SUBSET (balance over endpoints matching default_subset)",
    },
    check: "command",
    name: "Cluster.LbSubsetConfig.LbSubsetFallbackPolicy",
    values: [{ name: "NO_FALLBACK", number: 0, meaning: "The result equals no healthy hosts." }, {
      name: "ANY_ENDPOINT",
      number: 1,
      meaning: "Any endpoint, subject to policy and health.",
    }, {
      name: "DEFAULT_SUBSET",
      number: 2,
      meaning: "Balance over endpoints matching default_subset.",
    }],
    default: "NO_FALLBACK",
  },
  {
    id: "cluster.enums.lb-subset-selector-fallback-policy",
    level: "MUST",
    statement:
      "LbSubsetSelectorFallbackPolicy takes one of NOT_DEFINED, NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET (by name, case-insensitively, or by number); unset, it is NOT_DEFINED.",
    cite: {
      section: "Enumerations",
      quote:
        "LbSubsetSelectorFallbackPolicy | NOT_DEFINED (default; use the top-level policy), NO_FALLBACK, ANY_ENDPOINT, DEFAULT_SUBSET (same meanings)",
    },
    envoy: "Envoy also has KEYS_SUBSET = 4 (with fallback_keys_subset), not in the specification.",
    check: "command",
    name: "LbSubsetSelectorFallbackPolicy",
    values: [
      { name: "NOT_DEFINED", number: 0, meaning: "Use the top-level policy." },
      { name: "NO_FALLBACK", number: 1, meaning: "The result equals no healthy hosts." },
      { name: "ANY_ENDPOINT", number: 2, meaning: "Any endpoint, subject to policy and health." },
      {
        name: "DEFAULT_SUBSET",
        number: 3,
        meaning: "Balance over endpoints matching default_subset.",
      },
    ],
    default: "NOT_DEFINED",
  },
  {
    id: "cluster.enums.hash-function",
    level: "MUST",
    statement:
      "Cluster.RingHashLbConfig.HashFunction takes one of XX_HASH, MURMUR_HASH_2 (by name, case-insensitively, or by number); unset, it is XX_HASH.",
    cite: {
      section: "Enumerations",
      quote:
        "Cluster.RingHashLbConfig.HashFunction | XX_HASH (default), MURMUR_HASH_2 (compatible with the GNU standard library string hash 3.4.20 or later)",
    },
    check: "command",
    name: "Cluster.RingHashLbConfig.HashFunction",
    values: [{ name: "XX_HASH", number: 0, meaning: "xxHash64." }, {
      name: "MURMUR_HASH_2",
      number: 1,
      meaning:
        "MurmurHash2-64, compatible with the GNU standard library string hash 3.4.20 or later.",
    }],
    default: "XX_HASH",
  },
  {
    id: "cluster.enums.routing-priority",
    level: "MUST",
    statement:
      "core.RoutingPriority takes one of DEFAULT, HIGH (by name, case-insensitively, or by number); unset, it is DEFAULT.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy:
      "core.RoutingPriority: DEFAULT = 0, HIGH = 1 (circuit breaker thresholds; defined_only).",
    check: "internal",
    name: "core.RoutingPriority",
    values: [{ name: "DEFAULT", number: 0, meaning: "Default priority." }, {
      name: "HIGH",
      number: 1,
      meaning: "High priority.",
    }],
    default: "DEFAULT",
  },
  {
    id: "cluster.enums.codec-client-type",
    level: "MUST",
    statement:
      "type.CodecClientType takes one of HTTP1, HTTP2, HTTP3 (by name, case-insensitively, or by number); unset, it is HTTP1.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "type.CodecClientType of HttpHealthCheck.codec_client_type (defined_only).",
    check: "internal",
    name: "type.CodecClientType",
    values: [
      { name: "HTTP1", number: 0 },
      { name: "HTTP2", number: 1 },
      { name: "HTTP3", number: 2 },
    ],
    default: "HTTP1",
  },
  {
    id: "cluster.enums.health-status",
    level: "MUST",
    statement:
      "core.HealthStatus takes one of UNKNOWN, HEALTHY, UNHEALTHY, DRAINING, TIMEOUT, DEGRADED (by name, case-insensitively, or by number); unset, it is UNKNOWN.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.HealthStatus of an LbEndpoint (defined_only).",
    check: "internal",
    name: "core.HealthStatus",
    values: [
      { name: "UNKNOWN", number: 0 },
      { name: "HEALTHY", number: 1 },
      { name: "UNHEALTHY", number: 2 },
      { name: "DRAINING", number: 3 },
      { name: "TIMEOUT", number: 4 },
      { name: "DEGRADED", number: 5 },
    ],
    default: "UNKNOWN",
  },
  {
    id: "cluster.enums.socket-address-protocol",
    level: "MUST",
    statement:
      "core.SocketAddress.Protocol takes one of TCP, UDP (by name, case-insensitively, or by number); unset, it is TCP.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.SocketAddress.Protocol: TCP = 0, UDP = 1 (defined_only).",
    check: "internal",
    name: "core.SocketAddress.Protocol",
    values: [{ name: "TCP", number: 0 }, { name: "UDP", number: 1 }],
    default: "TCP",
  },
  {
    id: "cluster.enums.api-version",
    level: "MUST",
    statement:
      "core.ApiVersion takes one of AUTO, V2, V3 (by name, case-insensitively, or by number); unset, it is AUTO.",
    cite: {
      section: "Cluster (configuration object)",
      quote:
        "Internal fields of the referenced message types (Duration aside) such as HealthCheck, CircuitBreakers, OutlierDetection, ClusterLoadAssignment, UpstreamTlsContext, ConfigSource, Address, TransportSocket, Metadata, TcpKeepalive, HTTP protocol option messages: not shown.",
    },
    envoy: "core.ApiVersion of a ConfigSource: AUTO = 0, V2 = 1, V3 = 2.",
    check: "internal",
    name: "core.ApiVersion",
    values: [{ name: "AUTO", number: 0 }, { name: "V2", number: 1 }, { name: "V3", number: 2 }],
    default: "AUTO",
  },
] as const satisfies readonly EnumRow[];
