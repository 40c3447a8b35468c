/**
 * Table `admin.resources`: the resources the admin interface reports and their fields: the 13
 * per-host statistics and the health strings of `GET /clusters`, the cluster manager's
 * `version_info`, `GET /certs`, the `GET /server_info` object (its 6 fields, the 23
 * `command_line_options` fields and the 8 `node` fields) and the `GET /runtime` object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ADMIN_RESOURCES } from "./resources.ts";
 * const hostStats = ADMIN_RESOURCES.filter((r) => r.id.startsWith("admin.resources.host-stat."));
 * assert.deepEqual(hostStats.map((r) => r.name).slice(0, 2), ["cx_total", "cx_active"]);
 * ```
 * @module
 */
import type { Rule } from "../rule.ts";

/** A field of a resource the admin interface reports. */
export interface ResourceRow extends Rule {
  /** The endpoint path that reports it. */
  resource: string;
  /** The field or statistic name (dotted for nested fields: `node.id`). */
  name: string;
  /** The type as the specification names it (`Counter`, `string`, `duration string`, ...). */
  type: string;
}

/** Rows of the `admin.resources` table, in the specification's order. */
export const ADMIN_RESOURCES = [
  {
    id: "admin.resources.host-stat.cx_total",
    level: "MUST",
    statement: "Each host of GET /clusters reports the counter `cx_total`: total connections.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "cx_total | Counter | Total connections",
    },
    check: "black-box",
    resource: "/clusters",
    name: "cx_total",
    type: "Counter",
  },
  {
    id: "admin.resources.host-stat.cx_active",
    level: "MUST",
    statement: "Each host of GET /clusters reports the gauge `cx_active`: active connections.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "cx_active | Gauge | Active connections",
    },
    check: "black-box",
    resource: "/clusters",
    name: "cx_active",
    type: "Gauge",
  },
  {
    id: "admin.resources.host-stat.cx_connect_fail",
    level: "MUST",
    statement:
      "Each host of GET /clusters reports the counter `cx_connect_fail`: connection failures.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "cx_connect_fail | Counter | Connection failures",
    },
    check: "black-box",
    resource: "/clusters",
    name: "cx_connect_fail",
    type: "Counter",
  },
  {
    id: "admin.resources.host-stat.rq_total",
    level: "MUST",
    statement: "Each host of GET /clusters reports the counter `rq_total`: total requests.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "rq_total | Counter | Total requests",
    },
    check: "black-box",
    resource: "/clusters",
    name: "rq_total",
    type: "Counter",
  },
  {
    id: "admin.resources.host-stat.rq_timeout",
    level: "MUST",
    statement: "Each host of GET /clusters reports the counter `rq_timeout`: timed-out requests.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "rq_timeout | Counter | Timed-out requests",
    },
    check: "black-box",
    resource: "/clusters",
    name: "rq_timeout",
    type: "Counter",
  },
  {
    id: "admin.resources.host-stat.rq_success",
    level: "MUST",
    statement:
      "Each host of GET /clusters reports the counter `rq_success`: requests with non-5xx responses.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "rq_success | Counter | Requests with non-5xx responses",
    },
    check: "black-box",
    resource: "/clusters",
    name: "rq_success",
    type: "Counter",
  },
  {
    id: "admin.resources.host-stat.rq_error",
    level: "MUST",
    statement:
      "Each host of GET /clusters reports the counter `rq_error`: requests with 5xx responses.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "rq_error | Counter | Requests with 5xx responses",
    },
    check: "black-box",
    resource: "/clusters",
    name: "rq_error",
    type: "Counter",
  },
  {
    id: "admin.resources.host-stat.rq_active",
    level: "MUST",
    statement: "Each host of GET /clusters reports the gauge `rq_active`: active requests.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "rq_active | Gauge | Active requests",
    },
    check: "black-box",
    resource: "/clusters",
    name: "rq_active",
    type: "Gauge",
  },
  {
    id: "admin.resources.host-stat.healthy",
    level: "MUST",
    statement: "Each host of GET /clusters reports its health string (String).",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "healthy | String | Health status (see below)",
    },
    envoy:
      "Real Envoy prints the health string only on a `health_flags` line (`<cluster>::<host>::health_flags::healthy`); this implementation prints both the `healthy` line the specification names and Envoy's `health_flags` line.",
    check: "black-box",
    resource: "/clusters",
    name: "healthy",
    type: "String",
  },
  {
    id: "admin.resources.host-stat.weight",
    level: "MUST",
    statement:
      "Each host of GET /clusters reports `weight` (Integer), its load-balancing weight, from 1 to 100.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "weight | Integer | Load-balancing weight, 1 to 100",
    },
    check: "black-box",
    resource: "/clusters",
    name: "weight",
    type: "Integer",
  },
  {
    id: "admin.resources.host-stat.zone",
    level: "MUST",
    statement: "Each host of GET /clusters reports `zone` (String), its service zone.",
    cite: { section: "Per-host statistics (GET /clusters)", quote: "zone | String | Service zone" },
    envoy:
      "Real Envoy also prints `region` and `sub_zone` lines next to `zone`, and `hostname`, `priority` and `local_origin_success_rate` lines.",
    check: "black-box",
    resource: "/clusters",
    name: "zone",
    type: "String",
  },
  {
    id: "admin.resources.host-stat.canary",
    level: "MUST",
    statement:
      "Each host of GET /clusters reports `canary` (Boolean), whether the host is a canary.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "canary | Boolean | Whether the host is a canary",
    },
    check: "black-box",
    resource: "/clusters",
    name: "canary",
    type: "Boolean",
  },
  {
    id: "admin.resources.host-stat.success_rate",
    level: "MUST",
    statement:
      "Each host of GET /clusters reports `success_rate` (Double) from 0 to 100, or -1 when the request volume in the interval is too low to compute it.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote:
        "success_rate | Double | Request success rate 0 to 100; -1 when the request volume in the interval is too low to compute it",
    },
    envoy:
      "Real Envoy prints doubles with fmt `{}`: `-1.0` in \u2248v1.20\u2013v1.23 builds, `-1` in newer ones.",
    check: "black-box",
    resource: "/clusters",
    name: "success_rate",
    type: "Double",
  },
  {
    id: "admin.resources.clusters.version_info-static",
    level: "MUST",
    statement:
      "GET /clusters prints the cluster manager's `version_info`, the version of the last CDS update, which reads `version_info::static` when CDS is not set up.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "it reads `version_info::static` when CDS is not set up",
    },
    envoy:
      "Real Envoy stopped printing the `version_info::` line before v1.12 although its documentation still describes it.",
    check: "black-box",
    resource: "/clusters",
    name: "version_info",
    type: "string",
  },
  {
    id: "admin.resources.clusters.cluster-info-not-shown",
    level: "MAY",
    statement:
      "The cluster-wide information fields of GET /clusters are not specified; this implementation prints real Envoy's.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "Cluster-wide information fields: not shown.",
    },
    envoy:
      "Real Envoy prints per cluster `observability_name`, outlier `success_rate_average` and `success_rate_ejection_threshold` lines (only where an outlier detector runs; this build has none, so it prints none), `default_priority` and `high_priority` circuit-breaker limits, and `added_via_api`.",
    check: "internal",
    resource: "/clusters",
    name: "cluster-wide",
    type: "lines",
  },
  {
    id: "admin.resources.health.healthy",
    level: "MUST",
    statement: "The host health string is `healthy` when the host is healthy.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "the value `healthy` when the host is healthy",
    },
    check: "black-box",
    resource: "/clusters",
    name: "healthy",
    type: "health-flag",
  },
  {
    id: "admin.resources.health.failed_active_hc",
    level: "MUST",
    statement:
      "The host health string contains `/failed_active_hc` when the host failed an active health check.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "`/failed_active_hc` (failed an active health check)",
    },
    check: "fixture:active-health-check",
    resource: "/clusters",
    name: "/failed_active_hc",
    type: "health-flag",
  },
  {
    id: "admin.resources.health.failed_eds_health",
    level: "MUST",
    statement:
      "The host health string contains `/failed_eds_health` when EDS marked the host unhealthy.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "`/failed_eds_health` (marked unhealthy by EDS)",
    },
    check: "fixture:eds",
    resource: "/clusters",
    name: "/failed_eds_health",
    type: "health-flag",
  },
  {
    id: "admin.resources.health.failed_outlier_check",
    level: "MUST",
    statement:
      "The host health string contains `/failed_outlier_check` when the host failed an outlier detection check.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "`/failed_outlier_check` (failed an outlier detection check)",
    },
    check: "fixture:outlier-detection",
    resource: "/clusters",
    name: "/failed_outlier_check",
    type: "health-flag",
  },
  {
    id: "admin.resources.health.concatenated",
    level: "MUST",
    statement:
      "An unhealthy host's health string is the concatenation of one or more of the failure flags.",
    cite: {
      section: "Per-host statistics (GET /clusters)",
      quote: "Otherwise the string is made of one or more of:",
    },
    envoy:
      "Real Envoy concatenates in the order /failed_active_hc, /failed_outlier_check, /failed_eds_health, then newer flags such as /degraded_active_hc and /pending_dynamic_removal.",
    check: "fixture:active-health-check",
    resource: "/clusters",
    name: "health_flags",
    type: "string",
  },
  {
    id: "admin.resources.certs.listing",
    level: "MUST",
    statement:
      "GET /certs answers JSON listing every loaded TLS certificate with its file name, serial number, subject alternate names and days until expiration.",
    cite: {
      section: "Certificates (GET /certs)",
      quote:
        "JSON listing every loaded TLS certificate with file name, serial number, subject alternate names and days until expiration.",
    },
    check: "fixture:tls-certs",
    resource: "/certs",
    name: "certificates",
    type: "array",
  },
  {
    id: "admin.resources.certs.field-names-not-shown",
    level: "MAY",
    statement:
      "The exact field names of GET /certs are not specified; this implementation uses real Envoy's.",
    cite: { section: "Certificates (GET /certs)", quote: "Exact field names: not shown." },
    envoy:
      'Real Envoy answers `{"certificates":[{"ca_cert":[...],"cert_chain":[...]}]}` with details `path`, `serial_number`, `subject_alt_names`, `days_until_expiration` (uint64 string), `valid_from`, `expiration_time`.',
    check: "internal",
    resource: "/certs",
    name: "certificates",
    type: "object",
  },
  {
    id: "admin.resources.server_info.version",
    level: "MUST",
    statement:
      "The GET /server_info object has `version`: a string of five slash-separated parts, as --version prints.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "version | string of five slash-separated parts (see --version)",
    },
    check: "black-box",
    resource: "/server_info",
    name: "version",
    type: "string",
  },
  {
    id: "admin.resources.server_info.state",
    level: "MUST",
    statement: "The GET /server_info object has `state`: a string, `LIVE` once the server serves.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "state | string; `LIVE` is the value shown",
    },
    check: "black-box",
    resource: "/server_info",
    name: "state",
    type: "string",
  },
  {
    id: "admin.resources.server_info.command_line_options",
    level: "MUST",
    statement:
      "The GET /server_info object has `command_line_options`: an object of the command-line option values.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "command_line_options | object, fields below",
    },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options",
    type: "object",
  },
  {
    id: "admin.resources.server_info.uptime_current_epoch",
    level: "MUST",
    statement:
      "The GET /server_info object has `uptime_current_epoch`: a duration string such as `6s`, the uptime of this process.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "uptime_current_epoch | duration string (e.g. number followed by `s`)",
    },
    check: "black-box",
    resource: "/server_info",
    name: "uptime_current_epoch",
    type: "duration string",
  },
  {
    id: "admin.resources.server_info.uptime_all_epochs",
    level: "MUST",
    statement:
      "The GET /server_info object has `uptime_all_epochs`: a duration string, the uptime over all hot-restart epochs.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "uptime_all_epochs | duration string",
    },
    check: "black-box",
    resource: "/server_info",
    name: "uptime_all_epochs",
    type: "duration string",
  },
  {
    id: "admin.resources.server_info.node",
    level: "MUST",
    statement: "The GET /server_info object has `node`: an object describing the node.",
    cite: { section: "Server info (GET /server_info)", quote: "node | object, fields below" },
    check: "black-box",
    resource: "/server_info",
    name: "node",
    type: "object",
  },
  {
    id: "admin.resources.server_info.fields-not-shown",
    level: "MAY",
    statement:
      "The meaning of each GET /server_info field beyond its shape is not specified; this implementation follows real Envoy, which also reports `hot_restart_version`.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "Full explanation of each ServerInfo field: not shown.",
    },
    envoy:
      "Real Envoy's ServerInfo fields are, in order, version, state, uptime_current_epoch, uptime_all_epochs, hot_restart_version, command_line_options, node.",
    check: "internal",
    resource: "/server_info",
    name: "(all)",
    type: "object",
  },
  {
    id: "admin.resources.command_line_options.base_id",
    level: "MUST",
    statement: "`command_line_options.base_id` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "base_id (string)" },
    envoy: 'Real Envoy renders base_id as a uint64 JSON string such as `"0"`.',
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.base_id",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.concurrency",
    level: "MUST",
    statement: "`command_line_options.concurrency` of GET /server_info is an integer.",
    cite: { section: "Server info (GET /server_info)", quote: "concurrency (integer)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.concurrency",
    type: "integer",
  },
  {
    id: "admin.resources.command_line_options.config_path",
    level: "MUST",
    statement: "`command_line_options.config_path` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "config_path (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.config_path",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.config_yaml",
    level: "MUST",
    statement: "`command_line_options.config_yaml` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "config_yaml (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.config_yaml",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.allow_unknown_static_fields",
    level: "MUST",
    statement:
      "`command_line_options.allow_unknown_static_fields` of GET /server_info is a boolean.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "allow_unknown_static_fields (boolean)",
    },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.allow_unknown_static_fields",
    type: "boolean",
  },
  {
    id: "admin.resources.command_line_options.admin_address_path",
    level: "MUST",
    statement: "`command_line_options.admin_address_path` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "admin_address_path (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.admin_address_path",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.local_address_ip_version",
    level: "MUST",
    statement: "`command_line_options.local_address_ip_version` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "local_address_ip_version (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.local_address_ip_version",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.log_level",
    level: "MUST",
    statement: "`command_line_options.log_level` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "log_level (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.log_level",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.component_log_level",
    level: "MUST",
    statement: "`command_line_options.component_log_level` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "component_log_level (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.component_log_level",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.log_format",
    level: "MUST",
    statement: "`command_line_options.log_format` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "log_format (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.log_format",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.log_path",
    level: "MUST",
    statement: "`command_line_options.log_path` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "log_path (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.log_path",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.hot_restart_version",
    level: "MUST",
    statement: "`command_line_options.hot_restart_version` of GET /server_info is a boolean.",
    cite: { section: "Server info (GET /server_info)", quote: "hot_restart_version (boolean)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.hot_restart_version",
    type: "boolean",
  },
  {
    id: "admin.resources.command_line_options.service_cluster",
    level: "MUST",
    statement: "`command_line_options.service_cluster` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "service_cluster (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.service_cluster",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.service_node",
    level: "MUST",
    statement: "`command_line_options.service_node` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "service_node (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.service_node",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.service_zone",
    level: "MUST",
    statement: "`command_line_options.service_zone` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "service_zone (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.service_zone",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.mode",
    level: "MUST",
    statement: "`command_line_options.mode` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "mode (string)" },
    envoy: "Real Envoy prints the enum name: `Serve` or `Validate`.",
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.mode",
    type: "string",
  },
  {
    id: "admin.resources.command_line_options.disable_hot_restart",
    level: "MUST",
    statement: "`command_line_options.disable_hot_restart` of GET /server_info is a boolean.",
    cite: { section: "Server info (GET /server_info)", quote: "disable_hot_restart (boolean)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.disable_hot_restart",
    type: "boolean",
  },
  {
    id: "admin.resources.command_line_options.enable_mutex_tracing",
    level: "MUST",
    statement: "`command_line_options.enable_mutex_tracing` of GET /server_info is a boolean.",
    cite: { section: "Server info (GET /server_info)", quote: "enable_mutex_tracing (boolean)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.enable_mutex_tracing",
    type: "boolean",
  },
  {
    id: "admin.resources.command_line_options.restart_epoch",
    level: "MUST",
    statement: "`command_line_options.restart_epoch` of GET /server_info is an integer.",
    cite: { section: "Server info (GET /server_info)", quote: "restart_epoch (integer)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.restart_epoch",
    type: "integer",
  },
  {
    id: "admin.resources.command_line_options.file_flush_interval",
    level: "MUST",
    statement:
      "`command_line_options.file_flush_interval` of GET /server_info is a duration string.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "file_flush_interval (duration string)",
    },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.file_flush_interval",
    type: "duration string",
  },
  {
    id: "admin.resources.command_line_options.drain_time",
    level: "MUST",
    statement: "`command_line_options.drain_time` of GET /server_info is a duration string.",
    cite: { section: "Server info (GET /server_info)", quote: "drain_time (duration string)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.drain_time",
    type: "duration string",
  },
  {
    id: "admin.resources.command_line_options.parent_shutdown_time",
    level: "MUST",
    statement:
      "`command_line_options.parent_shutdown_time` of GET /server_info is a duration string.",
    cite: {
      section: "Server info (GET /server_info)",
      quote: "parent_shutdown_time (duration string)",
    },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.parent_shutdown_time",
    type: "duration string",
  },
  {
    id: "admin.resources.command_line_options.cpuset_threads",
    level: "MUST",
    statement: "`command_line_options.cpuset_threads` of GET /server_info is a boolean.",
    cite: { section: "Server info (GET /server_info)", quote: "cpuset_threads (boolean)" },
    check: "black-box",
    resource: "/server_info",
    name: "command_line_options.cpuset_threads",
    type: "boolean",
  },
  {
    id: "admin.resources.node.id",
    level: "MUST",
    statement: "`node.id` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "id (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "node.id",
    type: "string",
  },
  {
    id: "admin.resources.node.cluster",
    level: "MUST",
    statement: "`node.cluster` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "cluster (string)" },
    check: "black-box",
    resource: "/server_info",
    name: "node.cluster",
    type: "string",
  },
  {
    id: "admin.resources.node.user_agent_name",
    level: "MUST",
    statement: "`node.user_agent_name` of GET /server_info is a string.",
    cite: { section: "Server info (GET /server_info)", quote: "user_agent_name (string)" },
    envoy: "Real Envoy reports `envoy` as user_agent_name; this implementation reports `proxy`.",
    check: "black-box",
    resource: "/server_info",
    name: "node.user_agent_name",
    type: "string",
  },
  {
    id: "admin.resources.node.user_agent_build_version",
    level: "MUST",
    statement:
      "`node.user_agent_build_version` of GET /server_info is an object whose `version` object holds the integers major_number, minor_number and patch.",
    cite: {
      section: "Server info (GET /server_info)",
      quote:
        "user_agent_build_version (object with `version` object holding integers major_number, minor_number, patch)",
    },
    check: "black-box",
    resource: "/server_info",
    name: "node.user_agent_build_version",
    type: "object",
  },
  {
    id: "admin.resources.node.metadata",
    level: "MUST",
    statement: "`node.metadata` of GET /server_info is an object.",
    cite: { section: "Server info (GET /server_info)", quote: "metadata (object)" },
    check: "black-box",
    resource: "/server_info",
    name: "node.metadata",
    type: "object",
  },
  {
    id: "admin.resources.node.extensions",
    level: "MUST",
    statement: "`node.extensions` of GET /server_info is an array.",
    cite: { section: "Server info (GET /server_info)", quote: "extensions (array)" },
    check: "black-box",
    resource: "/server_info",
    name: "node.extensions",
    type: "array",
  },
  {
    id: "admin.resources.node.client_features",
    level: "MUST",
    statement: "`node.client_features` of GET /server_info is an array.",
    cite: { section: "Server info (GET /server_info)", quote: "client_features (array)" },
    check: "black-box",
    resource: "/server_info",
    name: "node.client_features",
    type: "array",
  },
  {
    id: "admin.resources.node.listening_addresses",
    level: "MUST",
    statement: "`node.listening_addresses` of GET /server_info is an array.",
    cite: { section: "Server info (GET /server_info)", quote: "listening_addresses (array)" },
    check: "black-box",
    resource: "/server_info",
    name: "node.listening_addresses",
    type: "array",
  },
  {
    id: "admin.resources.runtime.layers",
    level: "MUST",
    statement: "In the GET /runtime object, `layers` is the ordered array of runtime layer names.",
    cite: {
      section: "Runtime (GET /runtime)",
      quote: "`layers` (array of layer-name strings, ordered)",
    },
    check: "black-box",
    resource: "/runtime",
    name: "layers",
    type: "array",
  },
  {
    id: "admin.resources.runtime.entries",
    level: "MUST",
    statement:
      "In the GET /runtime object, `entries` maps each runtime key to an object with `layer_values` and `final_value`.",
    cite: { section: "Runtime (GET /runtime)", quote: "`entries` (map from key to an object with" },
    check: "black-box",
    resource: "/runtime",
    name: "entries",
    type: "object",
  },
  {
    id: "admin.resources.runtime.layer_values",
    level: "MUST",
    statement:
      "In the GET /runtime object, `layer_values` holds one string per layer, the empty string where the layer has no value.",
    cite: {
      section: "Runtime (GET /runtime)",
      quote:
        "`layer_values` (array of strings, one per layer, empty string meaning no value in that layer)",
    },
    check: "black-box",
    resource: "/runtime",
    name: "layer_values",
    type: "array",
  },
  {
    id: "admin.resources.runtime.final_value",
    level: "MUST",
    statement:
      "In the GET /runtime object, `final_value` is the active value of the key from the layer stack.",
    cite: {
      section: "Runtime (GET /runtime)",
      quote: "`final_value` (string, the active value from the stack)",
    },
    envoy:
      "Real Envoy prints object keys sorted; `final_value` is the value of the last layer that sets the key.",
    check: "black-box",
    resource: "/runtime",
    name: "final_value",
    type: "string",
  },
] as const satisfies readonly ResourceRow[];
