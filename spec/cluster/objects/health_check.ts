/**
 * Rows of table `cluster.objects` for `core.HealthCheck`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.HealthCheck: rows taken from real Envoy. */
export const HEALTH_CHECK_ENVOY = [
  {
    id: "cluster.objects.core.health-check.timeout",
    level: "MUST",
    statement: "`timeout` is a duration; it is required; it is greater than 0.",
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
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
    cite: NOT_SHOWN,
    envoy:
      "HealthCheck: `timeout`, `interval` required and > 0s; `unhealthy_threshold`, `healthy_threshold` required; oneof health_checker required; no_traffic_interval default 60s; reuse_connection default true.",
    check: "internal",
    message: "core.HealthCheck",
    field: "transport_socket_match_criteria",
    kind: "struct",
  },
] as const satisfies readonly FieldRow[];
