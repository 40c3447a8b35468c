/**
 * The described part of the bootstrap: every message the loader checks field by field, with its
 * published proto field numbers (v2 `envoy.config.bootstrap.v2.Bootstrap`, `envoy.api.v2.core`
 * Address and Node, `envoy.api.v2.Listener`; v3-only and v2-only fields are marked). The same
 * descriptions drive unknown-field checks of YAML/JSON and the `.pb` / `.pb_text` decoders.
 *
 * A field whose message type has no description here (a Cluster, a FilterChain, a stats sink)
 * is kept as JSON: YAML/JSON bootstraps pass it on (clusters to the cluster validator). The
 * `.pb` / `.pb_text` decoders also read the Cluster descriptions generated from the spec tables
 * (`proto_cluster_schema.ts`); other undescribed types fail there with a clear error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fieldOf, MESSAGES } from "./bootstrap_schema.ts";
 * assert.equal(fieldOf(MESSAGES["envoy.config.bootstrap.v2.Bootstrap"], "admin")?.number, 12);
 * ```
 * @module
 */

/** Scalar kinds, as proto3 names them. */
export type ScalarKind =
  | "string"
  | "bool"
  | "uint32"
  | "uint64"
  | "int32"
  | "int64"
  | "double"
  | "bytes";

/** A field's kind: a scalar, an enum (value names by number), or a message type by full name. */
export type FieldKind =
  | { scalar: ScalarKind }
  | { enum: readonly string[] }
  | { message: string };

/** One field of a described message. */
export interface FieldDesc {
  name: string;
  number: number;
  kind: FieldKind;
  repeated?: boolean;
  /** A `map<string, V>`: `kind` is the value's kind. */
  map?: boolean;
  /** Only in the v2 API (unknown when loading as v3). */
  v2Only?: boolean;
  /** Only in the v3 API (unknown when loading as v2). */
  v3Only?: boolean;
  /** Published validation rules (PGV): integer maximum, string minimum length, duration range. */
  max?: number;
  minLen?: number;
  /** Duration bounds in milliseconds: `min` inclusive, `below` exclusive. */
  durationMs?: { min?: number; below?: number };
}

/** A described message. `wellKnown` messages have a special proto3 JSON form. */
export interface MessageDesc {
  fullName: string;
  fields: readonly FieldDesc[];
  wellKnown?: "duration" | "struct" | "value" | "list" | "wrapper" | "empty" | "any";
  /** Fields known by name whose field number is not described (generated descriptions). */
  undescribed?: readonly string[];
  /** Where the description comes from, for error messages (a spec table file). */
  source?: string;
}

const s = (
  name: string,
  number: number,
  scalar: ScalarKind,
  extra: Partial<FieldDesc> = {},
): FieldDesc => ({
  name,
  number,
  kind: { scalar },
  ...extra,
});
const m = (
  name: string,
  number: number,
  message: string,
  extra: Partial<FieldDesc> = {},
): FieldDesc => ({
  name,
  number,
  kind: { message },
  ...extra,
});
const e = (
  name: string,
  number: number,
  values: readonly string[],
  extra: Partial<FieldDesc> = {},
): FieldDesc => ({
  name,
  number,
  kind: { enum: values },
  ...extra,
});

const DURATION = "google.protobuf.Duration";
const STRUCT = "google.protobuf.Struct";
const ADDRESS = "envoy.api.v2.core.Address";
const CONFIG_SOURCE = "envoy.api.v2.core.ConfigSource";
const API_CONFIG_SOURCE = "envoy.api.v2.core.ApiConfigSource";
const U32 = "google.protobuf.UInt32Value";
const U64 = "google.protobuf.UInt64Value";
const BOOLV = "google.protobuf.BoolValue";

/** Full name of the bootstrap message. */
export const BOOTSTRAP = "envoy.config.bootstrap.v2.Bootstrap";
/** Full name of the Cluster message (validated by `validate_cluster.ts`). */
export const CLUSTER = "envoy.api.v2.Cluster";
/** Full name of the Listener message (top-level fields checked here, the rest by the core). */
export const LISTENER = "envoy.api.v2.Listener";

/** Every described message by full name. */
export const MESSAGES: Readonly<Record<string, MessageDesc>> = {
  [BOOTSTRAP]: {
    fullName: BOOTSTRAP,
    fields: [
      m("node", 1, "envoy.api.v2.core.Node"),
      m("static_resources", 2, "envoy.config.bootstrap.v2.Bootstrap.StaticResources"),
      m("dynamic_resources", 3, "envoy.config.bootstrap.v2.Bootstrap.DynamicResources"),
      m("cluster_manager", 4, "envoy.config.bootstrap.v2.ClusterManager"),
      s("flags_path", 5, "string"),
      m("stats_sinks", 6, "envoy.config.metrics.v2.StatsSink", { repeated: true }),
      m("stats_flush_interval", 7, DURATION, { durationMs: { min: 1, below: 300000 } }),
      m("watchdog", 8, "envoy.config.bootstrap.v2.Watchdog"),
      m("tracing", 9, "envoy.config.trace.v2.Tracing"),
      m("runtime", 11, "envoy.config.bootstrap.v2.Runtime", { v2Only: true }),
      m("admin", 12, "envoy.config.bootstrap.v2.Admin"),
      m("stats_config", 13, "envoy.config.metrics.v2.StatsConfig"),
      m("hds_config", 14, API_CONFIG_SOURCE),
      m("overload_manager", 15, "envoy.config.overload.v2alpha.OverloadManager"),
      s("enable_dispatcher_stats", 16, "bool"),
      m("layered_runtime", 17, "envoy.config.bootstrap.v2.LayeredRuntime"),
      s("header_prefix", 18, "string"),
      m("stats_server_version_override", 19, U64),
      s("use_tcp_for_dns_lookups", 20, "bool", { v3Only: true }),
      m("bootstrap_extensions", 21, "envoy.config.core.v3.TypedExtensionConfig", {
        repeated: true,
        v3Only: true,
      }),
      m("config_sources", 22, CONFIG_SOURCE, { repeated: true, v3Only: true }),
      m("default_config_source", 23, CONFIG_SOURCE, { v3Only: true }),
      s("default_socket_interface", 24, "string", { v3Only: true }),
      s("stats_flush_on_admin", 29, "bool", { v3Only: true }),
    ],
  },
  "envoy.config.bootstrap.v2.Bootstrap.StaticResources": {
    fullName: "envoy.config.bootstrap.v2.Bootstrap.StaticResources",
    fields: [
      m("listeners", 1, LISTENER, { repeated: true }),
      m("clusters", 2, CLUSTER, { repeated: true }),
      m("secrets", 3, "envoy.api.v2.auth.Secret", { repeated: true }),
    ],
  },
  "envoy.config.bootstrap.v2.Bootstrap.DynamicResources": {
    fullName: "envoy.config.bootstrap.v2.Bootstrap.DynamicResources",
    fields: [
      m("lds_config", 1, CONFIG_SOURCE),
      m("cds_config", 2, CONFIG_SOURCE),
      m("ads_config", 3, API_CONFIG_SOURCE),
    ],
  },
  "envoy.config.bootstrap.v2.ClusterManager": {
    fullName: "envoy.config.bootstrap.v2.ClusterManager",
    fields: [
      s("local_cluster_name", 1, "string"),
      m("outlier_detection", 2, "envoy.config.bootstrap.v2.ClusterManager.OutlierDetection"),
      m("upstream_bind_config", 3, "envoy.api.v2.core.BindConfig"),
      m("load_stats_config", 4, API_CONFIG_SOURCE),
    ],
  },
  "envoy.config.bootstrap.v2.ClusterManager.OutlierDetection": {
    fullName: "envoy.config.bootstrap.v2.ClusterManager.OutlierDetection",
    fields: [s("event_log_path", 1, "string")],
  },
  "envoy.config.bootstrap.v2.Watchdog": {
    fullName: "envoy.config.bootstrap.v2.Watchdog",
    fields: [
      m("miss_timeout", 1, DURATION),
      m("megamiss_timeout", 2, DURATION),
      m("kill_timeout", 3, DURATION),
      m("multikill_timeout", 4, DURATION),
    ],
  },
  "envoy.config.bootstrap.v2.Runtime": {
    fullName: "envoy.config.bootstrap.v2.Runtime",
    fields: [
      s("symlink_root", 1, "string"),
      s("subdirectory", 2, "string"),
      s("override_subdirectory", 3, "string"),
      m("base", 4, STRUCT),
    ],
  },
  "envoy.config.bootstrap.v2.Admin": {
    fullName: "envoy.config.bootstrap.v2.Admin",
    fields: [
      s("access_log_path", 1, "string"),
      s("profile_path", 2, "string"),
      m("address", 3, ADDRESS),
      m("socket_options", 4, "envoy.api.v2.core.SocketOption", { repeated: true }),
      m("access_log", 5, "envoy.config.accesslog.v3.AccessLog", { repeated: true, v3Only: true }),
    ],
  },
  "envoy.config.bootstrap.v2.LayeredRuntime": {
    fullName: "envoy.config.bootstrap.v2.LayeredRuntime",
    fields: [m("layers", 1, "envoy.config.bootstrap.v2.RuntimeLayer", { repeated: true })],
  },
  "envoy.config.bootstrap.v2.RuntimeLayer": {
    fullName: "envoy.config.bootstrap.v2.RuntimeLayer",
    fields: [
      s("name", 1, "string", { minLen: 1 }),
      m("static_layer", 2, STRUCT),
      m("disk_layer", 3, "envoy.config.bootstrap.v2.RuntimeLayer.DiskLayer"),
      m("admin_layer", 4, "envoy.config.bootstrap.v2.RuntimeLayer.AdminLayer"),
      m("rtds_layer", 5, "envoy.config.bootstrap.v2.RuntimeLayer.RtdsLayer"),
    ],
  },
  "envoy.config.bootstrap.v2.RuntimeLayer.DiskLayer": {
    fullName: "envoy.config.bootstrap.v2.RuntimeLayer.DiskLayer",
    fields: [
      s("symlink_root", 1, "string"),
      s("append_service_cluster", 2, "bool"),
      s("subdirectory", 3, "string"),
    ],
  },
  "envoy.config.bootstrap.v2.RuntimeLayer.AdminLayer": {
    fullName: "envoy.config.bootstrap.v2.RuntimeLayer.AdminLayer",
    fields: [],
    wellKnown: "empty",
  },
  "envoy.config.bootstrap.v2.RuntimeLayer.RtdsLayer": {
    fullName: "envoy.config.bootstrap.v2.RuntimeLayer.RtdsLayer",
    fields: [s("name", 1, "string"), m("rtds_config", 2, CONFIG_SOURCE)],
  },
  "envoy.api.v2.core.Node": {
    fullName: "envoy.api.v2.core.Node",
    fields: [
      s("id", 1, "string"),
      s("cluster", 2, "string"),
      m("metadata", 3, STRUCT),
      m("locality", 4, "envoy.api.v2.core.Locality"),
      s("build_version", 5, "string", { v2Only: true }),
      s("user_agent_name", 6, "string"),
      s("user_agent_version", 7, "string"),
      m("user_agent_build_version", 8, "envoy.api.v2.core.BuildVersion"),
      m("extensions", 9, "envoy.api.v2.core.Extension", { repeated: true }),
      s("client_features", 10, "string", { repeated: true }),
      m("listening_addresses", 11, ADDRESS, { repeated: true }),
    ],
  },
  "envoy.api.v2.core.Locality": {
    fullName: "envoy.api.v2.core.Locality",
    fields: [s("region", 1, "string"), s("zone", 2, "string"), s("sub_zone", 3, "string")],
  },
  [ADDRESS]: {
    fullName: ADDRESS,
    fields: [
      m("socket_address", 1, "envoy.api.v2.core.SocketAddress"),
      m("pipe", 2, "envoy.api.v2.core.Pipe"),
    ],
  },
  "envoy.api.v2.core.SocketAddress": {
    fullName: "envoy.api.v2.core.SocketAddress",
    fields: [
      e("protocol", 1, ["TCP", "UDP"]),
      s("address", 2, "string", { minLen: 1 }),
      s("port_value", 3, "uint32", { max: 65535 }),
      s("named_port", 4, "string"),
      s("resolver_name", 5, "string"),
      s("ipv4_compat", 6, "bool"),
    ],
  },
  "envoy.api.v2.core.Pipe": {
    fullName: "envoy.api.v2.core.Pipe",
    fields: [s("path", 1, "string", { minLen: 1 }), s("mode", 2, "uint32", { max: 511 })],
  },
  [LISTENER]: {
    fullName: LISTENER,
    fields: [
      s("name", 1, "string"),
      m("address", 2, ADDRESS),
      m("filter_chains", 3, "envoy.api.v2.listener.FilterChain", { repeated: true }),
      m("use_original_dst", 4, BOOLV),
      m("per_connection_buffer_limit_bytes", 5, U32),
      m("metadata", 6, "envoy.api.v2.core.Metadata"),
      m("deprecated_v1", 7, "envoy.api.v2.Listener.DeprecatedV1"),
      e("drain_type", 8, ["DEFAULT", "MODIFY_ONLY"]),
      m("listener_filters", 9, "envoy.api.v2.listener.ListenerFilter", { repeated: true }),
      m("transparent", 10, BOOLV),
      m("freebind", 11, BOOLV),
      m("tcp_fast_open_queue_length", 12, U32),
      m("socket_options", 13, "envoy.api.v2.core.SocketOption", { repeated: true }),
      m("listener_filters_timeout", 15, DURATION),
      e("traffic_direction", 16, ["UNSPECIFIED", "INBOUND", "OUTBOUND"]),
      s("continue_on_listener_filters_timeout", 17, "bool"),
      m("udp_listener_config", 18, "envoy.api.v2.listener.UdpListenerConfig"),
      m("api_listener", 19, "envoy.config.listener.v2.ApiListener"),
      m("connection_balance_config", 20, "envoy.api.v2.Listener.ConnectionBalanceConfig"),
      s("reuse_port", 21, "bool"),
      m("access_log", 22, "envoy.config.accesslog.v3.AccessLog", { repeated: true, v3Only: true }),
      m("tcp_backlog_size", 24, U32, { v3Only: true }),
      m("default_filter_chain", 25, "envoy.config.listener.v3.FilterChain", { v3Only: true }),
      m("bind_to_port", 26, BOOLV, { v3Only: true }),
      s("stat_prefix", 28, "string", { v3Only: true }),
    ],
  },
  [DURATION]: {
    fullName: DURATION,
    fields: [s("seconds", 1, "int64"), s("nanos", 2, "int32")],
    wellKnown: "duration",
  },
  [U32]: { fullName: U32, fields: [s("value", 1, "uint32")], wellKnown: "wrapper" },
  [U64]: { fullName: U64, fields: [s("value", 1, "uint64")], wellKnown: "wrapper" },
  [BOOLV]: { fullName: BOOLV, fields: [s("value", 1, "bool")], wellKnown: "wrapper" },
  [STRUCT]: {
    fullName: STRUCT,
    fields: [m("fields", 1, "google.protobuf.Value", { map: true })],
    wellKnown: "struct",
  },
  "google.protobuf.Value": {
    fullName: "google.protobuf.Value",
    fields: [
      e("null_value", 1, ["NULL_VALUE"]),
      s("number_value", 2, "double"),
      s("string_value", 3, "string"),
      s("bool_value", 4, "bool"),
      m("struct_value", 5, STRUCT),
      m("list_value", 6, "google.protobuf.ListValue"),
    ],
    wellKnown: "value",
  },
  "google.protobuf.ListValue": {
    fullName: "google.protobuf.ListValue",
    fields: [m("values", 1, "google.protobuf.Value", { repeated: true })],
    wellKnown: "list",
  },
};

/**
 * The proto3 JSON (lowerCamelCase) name of a field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonName } from "./bootstrap_schema.ts";
 * assert.equal(jsonName("port_value"), "portValue");
 * ```
 */
export function jsonName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Finds a field by its proto name or its lowerCamelCase JSON name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BOOTSTRAP, fieldOf, MESSAGES } from "./bootstrap_schema.ts";
 * assert.equal(fieldOf(MESSAGES[BOOTSTRAP], "staticResources")?.name, "static_resources");
 * ```
 */
export function fieldOf(msg: MessageDesc, key: string): FieldDesc | undefined {
  return msg.fields.find((f) => f.name === key || jsonName(f.name) === key);
}

/**
 * True when the field exists in the given API version (2 or 3).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BOOTSTRAP, fieldOf, inVersion, MESSAGES } from "./bootstrap_schema.ts";
 * assert.equal(inVersion(fieldOf(MESSAGES[BOOTSTRAP], "stats_flush_on_admin")!, 2), false);
 * ```
 */
export function inVersion(f: FieldDesc, version: 2 | 3): boolean {
  return version === 2 ? !f.v3Only : !f.v2Only;
}
