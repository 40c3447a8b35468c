/**
 * Rows of table `cluster.objects` for `core.ConfigSource`, `core.PathConfigSource`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.ConfigSource, core.PathConfigSource: rows taken from real Envoy. */
export const CONFIG_SOURCE_ENVOY = [
  {
    id: "cluster.objects.core.config-source.path",
    level: "MUST",
    statement: "`path` is a string; exactly one member of group `config_source_specifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "path",
    kind: "string",
    group: "config_source_specifier",
    groupRequired: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.core.config-source.path-config-source",
    level: "MUST",
    statement:
      "`path_config_source` (v3) is a core.PathConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "v3 ConfigSource adds `path_config_source` to the oneof (config/core/v3/config_source.proto); `path` is its deprecated v3 spelling.",
    check: "internal",
    message: "core.ConfigSource",
    field: "path_config_source",
    kind: "message",
    type: "core.PathConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.core.path-config-source.path",
    level: "MUST",
    statement: "`path` of a core.PathConfigSource names the watched file and is required.",
    cite: NOT_SHOWN,
    envoy: "PathConfigSource.path: string, min_len 1 (config/core/v3/config_source.proto).",
    check: "internal",
    message: "core.PathConfigSource",
    field: "path",
    kind: "string",
    required: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.core.path-config-source.watched-directory",
    level: "MAY",
    statement:
      "`watched_directory` of a core.PathConfigSource names a directory whose moves trigger a reload.",
    cite: NOT_SHOWN,
    envoy: "PathConfigSource.watched_directory: core.WatchedDirectory {path}.",
    check: "internal",
    message: "core.PathConfigSource",
    field: "watched_directory",
    kind: "struct",
    support: "refused",
    supportNote: "the file itself is watched",
  },
  {
    id: "cluster.objects.core.config-source.api-config-source",
    level: "MUST",
    statement:
      "`api_config_source` is a core.ApiConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "api_config_source",
    kind: "message",
    type: "core.ApiConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
    support: "honoured",
    supportNote:
      "api_type GRPC and DELTA_GRPC to a static cluster (grpc_services[0].envoy_grpc, TLS when the cluster has it) or a google_grpc target_uri (ssl or local channel_credentials, stat_prefix); REST to one cluster_names entry (refresh_delay, request_timeout, cleartext); call credentials, per-service timeouts, metadata and rate limits are refused",
  },
  {
    id: "cluster.objects.core.config-source.ads",
    level: "MUST",
    statement:
      "`ads` is a core.AggregatedConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "ads",
    kind: "message",
    type: "core.AggregatedConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
    support: "honoured",
    supportNote: "over the bootstrap's dynamic_resources.ads_config",
  },
  {
    id: "cluster.objects.core.config-source.self",
    level: "MUST",
    statement:
      "`self` is a core.SelfConfigSource message; exactly one member of group `config_source_specifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "self",
    kind: "message",
    type: "core.SelfConfigSource",
    group: "config_source_specifier",
    groupRequired: true,
    support: "refused",
    supportNote: "a control plane is not implemented",
  },
  {
    id: "cluster.objects.core.config-source.initial-fetch-timeout",
    level: "MUST",
    statement: '`initial_fetch_timeout` is a duration; unset, it defaults to "15s".',
    cite: NOT_SHOWN,
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "initial_fetch_timeout",
    kind: "duration",
    default: "15s",
    support: "honoured",
    supportNote:
      "start-up waits at most this long for a control plane's first update (a file source is read at once)",
  },
  {
    id: "cluster.objects.core.config-source.resource-api-version",
    level: "MUST",
    statement: '`resource_api_version` is a core.ApiVersion value; unset, it defaults to "AUTO".',
    cite: NOT_SHOWN,
    envoy:
      "ConfigSource: oneof `path`/`api_config_source`/`ads`/`self` required; initial_fetch_timeout default 15s.",
    check: "internal",
    message: "core.ConfigSource",
    field: "resource_api_version",
    kind: "enum",
    enum: "core.ApiVersion",
    default: "AUTO",
    support: "honoured",
    supportNote: "v2 and v3 resources are both read",
  },
] as const satisfies readonly FieldRow[];
