/**
 * Table `admin.endpoints`: one row per row of the specification's Endpoints table (51 rows, in
 * the specification's order). The admin router, `/help`, the home page, the OpenAPI description
 * and the conformance suite are all built from these rows.
 *
 * Help lines are real Envoy's (`envoy` renamed to `proxy`); content types are the ones real Envoy
 * sends on success. `query` is the row's literal query (placeholders such as `{}` kept); `params`
 * lists the parameters the path accepts (the same list on every row of one path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENDPOINTS } from "./endpoints.ts";
 * const mutating = new Set(ENDPOINTS.filter((r) => r.mutating).map((r) => r.path));
 * assert.equal(mutating.has("/quitquitquit"), true);
 * ```
 * @module
 */
import type { EndpointRow, QueryParam } from "../rule.ts";

/**
 * An endpoint row, plus an optional second spelling of the same request. The row
 * `GET /stats?format=prometheus or GET /stats/prometheus` is stored under the path
 * `/stats/prometheus` with `alias` `{ path: "/stats", query: "format=prometheus" }`.
 */
export interface AdminEndpointRow extends EndpointRow {
  /** Another path and query that answers exactly as this row does. */
  alias?: { path: string; query: string };
}

// Query parameters, shared by the rows of one path.
const CLUSTERS_FORMAT = {
  name: "format",
  kind: "enum",
  values: ["text", "json"],
  help: "File format to use; One of (text, json)",
} as const satisfies QueryParam;
const LISTENERS_FORMAT = {
  name: "format",
  kind: "enum",
  values: ["text", "json"],
  help: "File format to use; One of (text, json)",
} as const satisfies QueryParam;
const INCLUDE_EDS = {
  name: "include_eds",
  kind: "flag",
  help:
    "Dump currently loaded configuration including EDS. See the response definition for more information",
} as const satisfies QueryParam;
const DUMP_MASK = {
  name: "mask",
  kind: "value",
  help:
    "The mask to apply. When both resource and mask are specified, the mask is applied to every element in the desired repeated field so that only a subset of fields are returned. The mask is parsed as a protobuf FieldMask",
} as const satisfies QueryParam;
const DUMP_RESOURCE = {
  name: "resource",
  kind: "value",
  help: "The resource to dump",
} as const satisfies QueryParam;
const DUMP_NAME_REGEX = {
  name: "name_regex",
  kind: "value",
  help:
    "Dump only the currently loaded configurations whose names match the specified regex. Can be used with both resource and mask query parameters.",
} as const satisfies QueryParam;
const CPU_ENABLE = {
  name: "enable",
  kind: "enum",
  values: ["y", "n"],
  help: "enables the CPU profiler; One of (y, n)",
} as const satisfies QueryParam;
const HEAP_ENABLE = {
  name: "enable",
  kind: "enum",
  values: ["y", "n"],
  help: "enable/disable the heap profiler; One of (y, n)",
} as const satisfies QueryParam;
const INIT_MASK = {
  name: "mask",
  kind: "value",
  help:
    "The desired component to dump unready targets. The mask is parsed as a protobuf FieldMask. For example, get the unready targets of all listeners with /init_dump?mask=listener",
} as const satisfies QueryParam;
const LOG_LEVEL = {
  name: "level",
  kind: "enum",
  values: ["trace", "debug", "info", "warning", "error", "critical", "off"],
  help:
    "desired logging level, this will change all loggers's level; One of (trace, debug, info, warning, error, critical, off)",
} as const satisfies QueryParam;
const LOG_PATHS = {
  name: "paths",
  kind: "value",
  help:
    "Change multiple logging levels by setting to <logger_name1>=<desired_level1>,<logger_name2>=<desired_level2>.",
} as const satisfies QueryParam;
const LOG_LOGGER = {
  name: "<logger_name>",
  kind: "pairs",
  help:
    "Change one logger's level: <logger_name>=<level>. With fine-grain logging the logger name is a source file path.",
} as const satisfies QueryParam;
const INBOUNDONLY = {
  name: "inboundonly",
  kind: "flag",
  help:
    "Drains all inbound listeners. traffic_direction field in the Listener is used to determine whether a listener is inbound or outbound.",
} as const satisfies QueryParam;
const GRACEFUL = {
  name: "graceful",
  kind: "flag",
  help:
    "When draining listeners, enter a graceful drain period prior to closing listeners. This behaviour and duration is configurable via server options or CLI",
} as const satisfies QueryParam;
const USEDONLY = {
  name: "usedonly",
  kind: "flag",
  help: "Only include stats that have been written by system since restart",
} as const satisfies QueryParam;
const FILTER = {
  name: "filter",
  kind: "value",
  help: "Regular expression (linear-time engine by default) for filtering stats",
} as const satisfies QueryParam;
const STATS_FORMAT = {
  name: "format",
  kind: "enum",
  values: ["text", "json", "prometheus"],
  help: "Format to use; One of (text, json, prometheus)",
} as const satisfies QueryParam;
const HISTOGRAM_BUCKETS = {
  name: "histogram_buckets",
  kind: "enum",
  values: ["cumulative", "disjoint"],
  help: "Histogram bucket display mode; One of (cumulative, disjoint)",
} as const satisfies QueryParam;
const TEXT_READOUTS = {
  name: "text_readouts",
  kind: "flag",
  help: "Render text_readouts as new gauges with value 0 (increases Prometheus data size)",
} as const satisfies QueryParam;
const RUNTIME_PAIRS = {
  name: "<key>",
  kind: "pairs",
  help: "Runtime key and value; an empty value removes an override added through this endpoint",
} as const satisfies QueryParam;

/** Rows of the `admin.endpoints` table, in the order of the specification's Endpoints table. */
export const ENDPOINTS = [
  {
    id: "admin.endpoints.home",
    level: "MUST",
    statement: "GET / answers an HTML home page whose table links every admin endpoint.",
    cite: {
      section: "Endpoints",
      quote: "/ | none | HTML home page with a table of links to all options.",
    },
    check: "black-box",
    method: "GET",
    path: "/",
    query: "",
    params: [],
    mutating: false,
    contentType: "text/html; charset=UTF-8",
    shape: "html",
    help: "Admin home page",
  },
  {
    id: "admin.endpoints.help",
    level: "MUST",
    statement: "GET /help answers a plain-text table of every admin endpoint with its help line.",
    cite: { section: "Endpoints", quote: "/help | none | Text table of all options." },
    check: "black-box",
    method: "GET",
    path: "/help",
    query: "",
    params: [],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text",
    help: "print out list of admin commands",
  },
  {
    id: "admin.endpoints.certs",
    level: "MUST",
    statement: "GET /certs answers JSON listing every loaded TLS certificate.",
    cite: { section: "Endpoints", quote: "/certs | none | JSON list of loaded TLS certificates." },
    check: "black-box",
    method: "GET",
    path: "/certs",
    query: "",
    params: [],
    mutating: false,
    contentType: "application/json",
    shape: "json:Certificates",
    help: "print certs on machine",
  },
  {
    id: "admin.endpoints.clusters",
    level: "MUST",
    statement:
      "GET /clusters answers text with the cluster manager information, each cluster, each upstream host and its per-host statistics.",
    cite: {
      section: "Endpoints",
      quote:
        "/clusters | none | Text with cluster manager and cluster information, each discovered upstream host and its per-host statistics.",
    },
    check: "black-box",
    method: "GET",
    path: "/clusters",
    query: "",
    params: [CLUSTERS_FORMAT],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:clusters",
    help: "upstream cluster status",
  },
  {
    id: "admin.endpoints.clusters-format-json",
    level: "MUST",
    statement:
      "GET /clusters?format=json answers the same information as a JSON-serialized protobuf message.",
    cite: {
      section: "Endpoints",
      quote: "/clusters?format=json | format=json | Same output as JSON-serialized protobuf.",
    },
    check: "black-box",
    method: "GET",
    path: "/clusters",
    query: "format=json",
    params: [CLUSTERS_FORMAT],
    mutating: false,
    contentType: "application/json",
    shape: "json:Clusters",
    help: "upstream cluster status",
  },
  {
    id: "admin.endpoints.config_dump",
    level: "MUST",
    statement:
      "GET /config_dump answers the loaded configuration of each component as JSON-serialized protobuf messages, with certificate private keys and passwords redacted in typed configuration.",
    cite: {
      section: "Endpoints",
      quote:
        "/config_dump | none | JSON-serialized protobuf messages of the loaded configuration of the components.",
    },
    envoy:
      "Real Envoy dumps envoy.admin.v3 messages (type URLs type.googleapis.com/envoy.admin.v3.*ConfigDump) rather than v2alpha ones.",
    check: "black-box",
    method: "GET",
    path: "/config_dump",
    query: "",
    params: [INCLUDE_EDS, DUMP_MASK, DUMP_RESOURCE, DUMP_NAME_REGEX],
    mutating: false,
    contentType: "application/json",
    shape: "json:ConfigDump",
    help: "dump current proxy configs (experimental)",
  },
  {
    id: "admin.endpoints.config_dump-include_eds",
    level: "MUST",
    statement: "GET /config_dump?include_eds adds the EDS (endpoint) configuration to the dump.",
    cite: {
      section: "Endpoints",
      quote: "/config_dump?include_eds | include_eds (flag) | Adds EDS configuration to the dump.",
    },
    check: "black-box",
    method: "GET",
    path: "/config_dump",
    query: "include_eds",
    params: [INCLUDE_EDS, DUMP_MASK, DUMP_RESOURCE, DUMP_NAME_REGEX],
    mutating: false,
    contentType: "application/json",
    shape: "json:ConfigDump",
    help: "dump current proxy configs (experimental)",
  },
  {
    id: "admin.endpoints.config_dump-mask",
    level: "MUST",
    statement:
      "GET /config_dump?mask= returns only the fields named by the FieldMask, applied to each top-level dump.",
    cite: {
      section: "Endpoints",
      quote:
        "/config_dump?mask={} | mask: protobuf FieldMask | Returns only the masked fields, applied to each top-level dump (e.g.",
    },
    check: "black-box",
    method: "GET",
    path: "/config_dump",
    query: "mask={}",
    params: [INCLUDE_EDS, DUMP_MASK, DUMP_RESOURCE, DUMP_NAME_REGEX],
    mutating: false,
    contentType: "application/json",
    shape: "json:ConfigDump",
    help: "dump current proxy configs (experimental)",
  },
  {
    id: "admin.endpoints.config_dump-resource",
    level: "MUST",
    statement:
      "GET /config_dump?resource= returns only the elements of the named repeated field of a top-level dump.",
    cite: {
      section: "Endpoints",
      quote:
        "/config_dump?resource={} | resource: name of a repeated field in a top-level dump (e.g. static_listeners, dynamic_active_clusters) | Only matching resource.",
    },
    envoy:
      "Real Envoy answers 404 `<resource> not found in config dump` for an unknown field and 400 `<name> is not a repeated field. Use ?mask=<name> to get only this field` for a non-repeated one.",
    check: "black-box",
    method: "GET",
    path: "/config_dump",
    query: "resource={}",
    params: [INCLUDE_EDS, DUMP_MASK, DUMP_RESOURCE, DUMP_NAME_REGEX],
    mutating: false,
    contentType: "application/json",
    shape: "json:ConfigDump",
    help: "dump current proxy configs (experimental)",
  },
  {
    id: "admin.endpoints.config_dump-name_regex",
    level: "MUST",
    statement:
      "GET /config_dump?name_regex= returns only the configurations whose name matches the regular expression, combinable with resource and mask.",
    cite: {
      section: "Endpoints",
      quote:
        "/config_dump?name_regex={} | name_regex: regular expression | Only configurations whose name matches; combinable with resource and mask.",
    },
    check: "black-box",
    method: "GET",
    path: "/config_dump",
    query: "name_regex={}",
    params: [INCLUDE_EDS, DUMP_MASK, DUMP_RESOURCE, DUMP_NAME_REGEX],
    mutating: false,
    contentType: "application/json",
    shape: "json:ConfigDump",
    help: "dump current proxy configs (experimental)",
  },
  {
    id: "admin.endpoints.config_dump-resource-mask",
    level: "MUST",
    statement:
      "GET /config_dump?resource=&mask= applies the mask to each element of the named repeated field.",
    cite: {
      section: "Endpoints",
      quote:
        "/config_dump?resource={}&mask={} | both | Mask applied to each element of the repeated field (e.g.",
    },
    check: "black-box",
    method: "GET",
    path: "/config_dump",
    query: "resource={}&mask={}",
    params: [INCLUDE_EDS, DUMP_MASK, DUMP_RESOURCE, DUMP_NAME_REGEX],
    mutating: false,
    contentType: "application/json",
    shape: "json:ConfigDump",
    help: "dump current proxy configs (experimental)",
  },
  {
    id: "admin.endpoints.contention",
    level: "MUST",
    statement:
      "GET /contention answers JSON mutex contention statistics when mutex tracing is enabled.",
    cite: {
      section: "Endpoints",
      quote:
        "/contention | none | JSON of mutex contention statistics when mutex tracing is enabled (--enable-mutex-tracing).",
    },
    envoy:
      "Real Envoy answers 200 text/plain `Mutex contention tracing is not enabled. To enable, run Envoy with flag --enable-mutex-tracing.` when tracing is off.",
    check: "fixture:mutex-tracing",
    method: "GET",
    path: "/contention",
    query: "",
    params: [],
    mutating: false,
    requires: "mutex_tracing",
    contentType: "application/json",
    shape: "json:MutexStats",
    help: "dump current proxy mutex contention stats (if enabled)",
  },
  {
    id: "admin.endpoints.cpuprofiler",
    level: "MUST",
    statement:
      "POST /cpuprofiler enables or disables the CPU profiler, writing to admin.profile_path, in a build with profiling support.",
    cite: {
      section: "Endpoints",
      quote:
        "/cpuprofiler | none shown | Enables or disables the CPU profiler; requires a build with profiling support; output file set by admin.profile_path.",
    },
    envoy:
      "Real Envoy selects with `enable=y|n` and answers 400 `?enable=<y|n>` without it; 500 `failure to start the profiler` in builds without profiling.",
    check: "fixture:cpu-profiler",
    method: "POST",
    path: "/cpuprofiler",
    query: "",
    params: [CPU_ENABLE],
    mutating: true,
    requires: "cpu_profiler",
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "enable/disable the CPU profiler",
  },
  {
    id: "admin.endpoints.heapprofiler",
    level: "MUST",
    statement:
      "POST /heapprofiler enables or disables the heap profiler, writing to admin.profile_path, in a build with profiling support.",
    cite: {
      section: "Endpoints",
      quote:
        "/heapprofiler | none shown | Enables or disables the heap profiler; same build requirement and output file.",
    },
    envoy:
      "Real Envoy selects with `enable=y|n` and answers 501 `The current build does not support heap profiler` in builds without it.",
    check: "fixture:heap-profiler",
    method: "POST",
    path: "/heapprofiler",
    query: "",
    params: [HEAP_ENABLE],
    mutating: true,
    requires: "heap_profiler",
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "enable/disable the heap profiler",
  },
  {
    id: "admin.endpoints.healthcheck-fail",
    level: "MUST",
    statement:
      "POST /healthcheck/fail makes the HTTP health check filter fail every inbound health check.",
    cite: {
      section: "Endpoints",
      quote: "/healthcheck/fail | none | See States; requires the HTTP health check filter.",
    },
    check: "fixture:health-check-filter",
    method: "POST",
    path: "/healthcheck/fail",
    query: "",
    params: [],
    mutating: true,
    requires: "health_check_filter",
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "cause the server to fail health checks",
  },
  {
    id: "admin.endpoints.healthcheck-ok",
    level: "MUST",
    statement: "POST /healthcheck/ok negates /healthcheck/fail.",
    cite: {
      section: "Endpoints",
      quote: "/healthcheck/ok | none | Negates /healthcheck/fail; requires the filter.",
    },
    check: "fixture:health-check-filter",
    method: "POST",
    path: "/healthcheck/ok",
    query: "",
    params: [],
    mutating: true,
    requires: "health_check_filter",
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "cause the server to pass health checks",
  },
  {
    id: "admin.endpoints.hot_restart_version",
    level: "MUST",
    statement:
      "GET /hot_restart_version answers the hot restart compatibility version, the same as --hot-restart-version prints.",
    cite: {
      section: "Endpoints",
      quote:
        "/hot_restart_version | none | Hot restart compatibility version, comparable with the output of --hot-restart-version.",
    },
    check: "black-box",
    method: "GET",
    path: "/hot_restart_version",
    query: "",
    params: [],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:hot-restart-version",
    help: "print the hot restart compatibility version",
  },
  {
    id: "admin.endpoints.init_dump",
    level: "MUST",
    statement: "GET /init_dump answers JSON of the targets not yet ready, per component.",
    cite: {
      section: "Endpoints",
      quote:
        "/init_dump | none | JSON-serialized protobuf of targets not yet ready, per component.",
    },
    check: "black-box",
    method: "GET",
    path: "/init_dump",
    query: "",
    params: [INIT_MASK],
    mutating: false,
    contentType: "application/json",
    shape: "json:UnreadyTargetsDumps",
    help: "dump current proxy init manager information (experimental)",
  },
  {
    id: "admin.endpoints.init_dump-mask",
    level: "MUST",
    statement: "GET /init_dump?mask= answers the unready targets of the named component only.",
    cite: {
      section: "Endpoints",
      quote:
        "/init_dump?mask={} | mask: protobuf FieldMask naming the component (e.g. listener) | Unready targets of that component only.",
    },
    check: "black-box",
    method: "GET",
    path: "/init_dump",
    query: "mask={}",
    params: [INIT_MASK],
    mutating: false,
    contentType: "application/json",
    shape: "json:UnreadyTargetsDumps",
    help: "dump current proxy init manager information (experimental)",
  },
  {
    id: "admin.endpoints.listeners",
    level: "MUST",
    statement:
      "GET /listeners answers text listing each listener name and listening address, with the OS-allocated port for a port-0 listener.",
    cite: {
      section: "Endpoints",
      quote:
        "/listeners | none | Text listing listener names and listening addresses; a listener configured with port 0 shows the port allocated by the OS.",
    },
    check: "black-box",
    method: "GET",
    path: "/listeners",
    query: "",
    params: [LISTENERS_FORMAT],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:listeners",
    help: "print listener info",
  },
  {
    id: "admin.endpoints.listeners-format-json",
    level: "MUST",
    statement:
      "GET /listeners?format=json answers the same information as a JSON-serialized protobuf message.",
    cite: {
      section: "Endpoints",
      quote: "/listeners?format=json | format=json | Same as JSON-serialized protobuf.",
    },
    check: "black-box",
    method: "GET",
    path: "/listeners",
    query: "format=json",
    params: [LISTENERS_FORMAT],
    mutating: false,
    contentType: "application/json",
    shape: "json:Listeners",
    help: "print listener info",
  },
  {
    id: "admin.endpoints.logging",
    level: "MUST",
    statement:
      "POST /logging lists the loggers without parameters, sets all with level, one with <logger_name>=<level>, several with paths.",
    cite: {
      section: "Endpoints",
      quote:
        "/logging | none, or `level=<level>`, or `<logger_name>=<level>`, or `paths=<logger1>=<level1>,<logger2>=<level2>` | No parameter: lists the loggers.",
    },
    envoy:
      "Real Envoy separates logger and level with `:` in paths (`paths=a:debug,b:trace`) and answers 400 to the specification's `=` form; this implementation accepts both; invalid requests answer 400 (404 before v1.22) with an `error:` line, the usage and the logger list.",
    check: "black-box",
    method: "POST",
    path: "/logging",
    query: "",
    params: [LOG_LEVEL, LOG_PATHS, LOG_LOGGER],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:loggers",
    help: "query/change logging levels",
  },
  {
    id: "admin.endpoints.memory",
    level: "MUST",
    statement: "GET /memory answers JSON of the current memory allocation and heap usage in bytes.",
    cite: {
      section: "Endpoints",
      quote: "/memory | none | Current memory allocation and heap usage, in bytes.",
    },
    check: "black-box",
    method: "GET",
    path: "/memory",
    query: "",
    params: [],
    mutating: false,
    contentType: "application/json",
    shape: "json:Memory",
    help: "print current allocation/heap usage",
  },
  {
    id: "admin.endpoints.quitquitquit",
    level: "MUST",
    statement: "POST /quitquitquit makes the server exit cleanly.",
    cite: { section: "Endpoints", quote: "/quitquitquit | none | Clean exit of the server." },
    check: "black-box",
    method: "POST",
    path: "/quitquitquit",
    query: "",
    params: [],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "exit the server",
  },
  {
    id: "admin.endpoints.reset_counters",
    level: "MUST",
    statement: "POST /reset_counters sets every counter to zero for local GET /stats output only.",
    cite: {
      section: "Endpoints",
      quote:
        "/reset_counters | none | Sets all counters to zero; affects only local GET /stats output, not data already sent to a stats sink.",
    },
    check: "black-box",
    method: "POST",
    path: "/reset_counters",
    query: "",
    params: [],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "reset all counters to zero",
  },
  {
    id: "admin.endpoints.drain_listeners",
    level: "MUST",
    statement: "POST /drain_listeners drains all listeners.",
    cite: { section: "Endpoints", quote: "/drain_listeners | none | Drains all listeners." },
    check: "black-box",
    method: "POST",
    path: "/drain_listeners",
    query: "",
    params: [INBOUNDONLY, GRACEFUL],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "drain listeners",
  },
  {
    id: "admin.endpoints.drain_listeners-inboundonly",
    level: "MUST",
    statement:
      "POST /drain_listeners?inboundonly drains only the listeners whose traffic_direction is inbound.",
    cite: {
      section: "Endpoints",
      quote:
        "/drain_listeners?inboundonly | inboundonly (flag) | Drains only inbound listeners; direction is decided by the listener field traffic_direction.",
    },
    check: "black-box",
    method: "POST",
    path: "/drain_listeners",
    query: "inboundonly",
    params: [INBOUNDONLY, GRACEFUL],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "drain listeners",
  },
  {
    id: "admin.endpoints.drain_listeners-graceful",
    level: "MUST",
    statement:
      "POST /drain_listeners?graceful enters a graceful drain period, set by --drain-time-s and --drain-strategy, before closing listeners.",
    cite: {
      section: "Endpoints",
      quote:
        "/drain_listeners?graceful | graceful (flag) | Enters a graceful drain period before closing listeners; duration and strategy set by --drain-time-s and --drain-strategy.",
    },
    check: "black-box",
    method: "POST",
    path: "/drain_listeners",
    query: "graceful",
    params: [INBOUNDONLY, GRACEFUL],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "drain listeners",
  },
  {
    id: "admin.endpoints.server_info",
    level: "MUST",
    statement: "GET /server_info answers the JSON server info object.",
    cite: {
      section: "Endpoints",
      quote: "/server_info | none | JSON server info object (see Resources).",
    },
    check: "black-box",
    method: "GET",
    path: "/server_info",
    query: "",
    params: [],
    mutating: false,
    contentType: "application/json",
    shape: "json:ServerInfo",
    help: "print server version/status information",
  },
  {
    id: "admin.endpoints.ready",
    level: "MUST",
    statement: "GET /ready answers the server state as text, with 200 for LIVE and 503 otherwise.",
    cite: { section: "Endpoints", quote: "/ready | none | Text body with the server state (e.g." },
    check: "black-box",
    method: "GET",
    path: "/ready",
    query: "",
    params: [],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:state",
    help: "print server state, return 200 if LIVE, otherwise return 503",
  },
  {
    id: "admin.endpoints.stats",
    level: "MUST",
    statement: "GET /stats answers every statistic as text, histograms as quantiles.",
    cite: {
      section: "Endpoints",
      quote: "/stats | none | All statistics as text; histograms as quantiles.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:stats",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-usedonly",
    level: "MUST",
    statement: "GET /stats?usedonly lists only statistics updated at least once.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?usedonly | usedonly (flag) | Only stats updated at least once (counters incremented, gauges changed, histograms added to).",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "usedonly",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:stats",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-filter",
    level: "MUST",
    statement:
      "GET /stats?filter= lists only statistics whose name the regular expression matches, partially unless anchored.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?filter=regex | filter: regular expression | Stats whose names match, partial match by default; anchors `^` and `$` give full match; combinable with usedonly.",
    },
    envoy:
      "Real Envoy names the runtime key `envoy.reloadable_features.admin_stats_filter_use_re2` and, before \u2248v1.25, used std::regex (ECMAScript) by default.",
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "filter=regex",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:stats",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-histogram_buckets-cumulative",
    level: "MUST",
    statement:
      "GET /stats?histogram_buckets=cumulative prints histograms as cumulative buckets `B<upper_bound>(interval,cumulative)`.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?histogram_buckets=cumulative | histogram_buckets | Histograms as cumulative buckets with upper bounds, each as `B<upper_bound>(interval,cumulative)`; every bucket includes all values below its bound.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "histogram_buckets=cumulative",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:stats-buckets",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-histogram_buckets-disjoint",
    level: "MUST",
    statement:
      "GET /stats?histogram_buckets=disjoint prints histograms as disjoint buckets `B<upper_bound>(interval,cumulative)`.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?histogram_buckets=disjoint | histogram_buckets | Same format, but a bucket excludes values of buckets with smaller bounds.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "histogram_buckets=disjoint",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:stats-buckets",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-format-json",
    level: "MUST",
    statement: "GET /stats?format=json answers the statistics as JSON.",
    cite: {
      section: "Endpoints",
      quote: "/stats?format=json | format=json | JSON stats (see Resources).",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "format=json",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "application/json",
    shape: "json:Stats",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-format-json-usedonly",
    level: "MUST",
    statement: "GET /stats?format=json&usedonly answers only the used statistics as JSON.",
    cite: {
      section: "Endpoints",
      quote: "/stats?format=json&usedonly | both | Used stats only, as JSON.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "format=json&usedonly",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "application/json",
    shape: "json:Stats",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-format-json-histogram_buckets-cumulative",
    level: "MUST",
    statement:
      "GET /stats?format=json&histogram_buckets=cumulative answers JSON histograms with cumulative buckets.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?format=json&histogram_buckets=cumulative | both | JSON histograms with cumulative buckets; combinable with usedonly and filter.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "format=json&histogram_buckets=cumulative",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "application/json",
    shape: "json:StatsBuckets",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-format-json-histogram_buckets-disjoint",
    level: "MUST",
    statement:
      "GET /stats?format=json&histogram_buckets=disjoint answers JSON histograms with disjoint buckets.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?format=json&histogram_buckets=disjoint | both | JSON histograms with disjoint buckets; combinable with usedonly and filter.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "format=json&histogram_buckets=disjoint",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "application/json",
    shape: "json:StatsBuckets",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-prometheus",
    level: "MUST",
    statement:
      "GET /stats?format=prometheus and GET /stats/prometheus answer the statistics in the Prometheus text exposition format 0.0.4.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?format=prometheus or GET /stats/prometheus | none | Stats in the metrics-server text exposition format version 0.0.4.",
    },
    envoy:
      "Real Envoy sets no content type on Prometheus output, so it falls back to `text/plain; charset=UTF-8`.",
    check: "black-box",
    method: "GET",
    path: "/stats/prometheus",
    query: "",
    params: [USEDONLY, FILTER, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "prometheus-0.0.4",
    help: "print server stats in prometheus format",
    alias: { path: "/stats", query: "format=prometheus" },
  },
  {
    id: "admin.endpoints.stats-format-prometheus-usedonly",
    level: "MUST",
    statement:
      "GET /stats?format=prometheus&usedonly answers only the used statistics in Prometheus format.",
    cite: {
      section: "Endpoints",
      quote: "/stats?format=prometheus&usedonly | usedonly | Used stats only.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "format=prometheus&usedonly",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "prometheus-0.0.4",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-format-prometheus-text_readouts",
    level: "MUST",
    statement:
      "GET /stats?format=prometheus&text_readouts adds text readouts as gauges of value 0 with a `text_value` label holding the readout.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats?format=prometheus&text_readouts | text_readouts (flag) | Includes text readouts as gauges of value 0 with an extra label `text_value` holding the readout value.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats",
    query: "format=prometheus&text_readouts",
    params: [USEDONLY, FILTER, STATS_FORMAT, HISTOGRAM_BUCKETS, TEXT_READOUTS],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "prometheus-0.0.4",
    help: "print server stats",
  },
  {
    id: "admin.endpoints.stats-recentlookups",
    level: "MUST",
    statement:
      "GET /stats/recentlookups answers the table of stat names recently looked up as strings while collection is enabled.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats/recentlookups | none | When collection is enabled: table of stat names recently looked up as strings.",
    },
    check: "black-box",
    method: "GET",
    path: "/stats/recentlookups",
    query: "",
    params: [],
    mutating: false,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:recent-lookups",
    help: "Show recent stat-name lookups",
  },
  {
    id: "admin.endpoints.stats-recentlookups-enable",
    level: "MUST",
    statement: "POST /stats/recentlookups/enable starts collection of recent lookups.",
    cite: {
      section: "Endpoints",
      quote: "/stats/recentlookups/enable | none | Starts collection.",
    },
    check: "black-box",
    method: "POST",
    path: "/stats/recentlookups/enable",
    query: "",
    params: [],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "enable recording of reset stat-name lookup names",
  },
  {
    id: "admin.endpoints.stats-recentlookups-disable",
    level: "MUST",
    statement:
      "POST /stats/recentlookups/disable stops collection and clears the list while keeping the total count.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats/recentlookups/disable | none | Stops collection and clears the list; the total count (stat `server.stats_recent_lookups`) is kept.",
    },
    check: "black-box",
    method: "POST",
    path: "/stats/recentlookups/disable",
    query: "",
    params: [],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "disable recording of reset stat-name lookup names",
  },
  {
    id: "admin.endpoints.stats-recentlookups-clear",
    level: "MUST",
    statement:
      "POST /stats/recentlookups/clear clears the lookups and the count, and collection continues if enabled.",
    cite: {
      section: "Endpoints",
      quote:
        "/stats/recentlookups/clear | none | Clears lookups and count; collection continues if enabled.",
    },
    check: "black-box",
    method: "POST",
    path: "/stats/recentlookups/clear",
    query: "",
    params: [],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "clear list of stat-name lookups and counter",
  },
  {
    id: "admin.endpoints.runtime",
    level: "MUST",
    statement: "GET /runtime answers the JSON runtime layers and entries.",
    cite: {
      section: "Endpoints",
      quote: "/runtime | none | JSON runtime layers and entries (see Resources).",
    },
    check: "black-box",
    method: "GET",
    path: "/runtime",
    query: "",
    params: [],
    mutating: false,
    contentType: "application/json",
    shape: "json:Runtime",
    help: "print runtime values",
  },
  {
    id: "admin.endpoints.runtime_modify",
    level: "MUST",
    statement:
      "POST /runtime_modify adds or modifies the runtime values given as query pairs, effective immediately; an empty value deletes a key added through this endpoint.",
    cite: {
      section: "Endpoints",
      quote:
        "/runtime_modify?key1=value1&key2=value2&keyN=valueN | query pairs of runtime key and value | Adds or modifies runtime values, effective immediately.",
    },
    envoy:
      "Real Envoy answers 400 with a `usage:` text when no pair is given, and 503 `No admin layer specified` when the runtime has no admin layer.",
    check: "black-box",
    method: "POST",
    path: "/runtime_modify",
    query: "key1=value1&key2=value2&keyN=valueN",
    params: [RUNTIME_PAIRS],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help:
      "Adds or modifies runtime values as passed in query parameters. To delete a previously added key, use an empty string as the value. Note that deletion only applies to overrides added via this endpoint; values loaded from disk can be modified via override but not deleted. E.g. ?key1=value1&key2=value2...",
  },
  {
    id: "admin.endpoints.hystrix_event_stream",
    level: "MUST",
    statement:
      "GET /hystrix_event_stream streams circuit-breaker dashboard events as text/event-stream at each stats flush interval.",
    cite: {
      section: "Endpoints",
      quote:
        "/hystrix_event_stream | none | Streaming response in `text/event-stream` format for a circuit-breaker dashboard, sent at the interval of the bootstrap `stats_flush_interval`.",
    },
    check: "fixture:dashboard-sink",
    method: "GET",
    path: "/hystrix_event_stream",
    query: "",
    params: [],
    mutating: false,
    requires: "dashboard_sink",
    contentType: "text/event-stream",
    shape: "event-stream",
    help: "send hystrix event stream",
  },
  {
    id: "admin.endpoints.tap",
    level: "MUST",
    statement:
      "POST /tap configures an active tap session when a tap extension accepts admin configuration.",
    cite: {
      section: "Endpoints",
      quote:
        "/tap | payload: not shown | Configures an active tap session; available only when a tap extension is configured to accept admin configuration.",
    },
    envoy:
      "Real Envoy takes a JSON or YAML TapRequest body ({config_id, tap_config}) and streams JSON traces.",
    check: "fixture:tap",
    method: "POST",
    path: "/tap",
    query: "",
    params: [],
    mutating: true,
    requires: "tap",
    contentType: "application/json",
    shape: "json:TapTraces",
    help: "tap filter control",
  },
  {
    id: "admin.endpoints.reopen_logs",
    level: "MUST",
    statement: "POST /reopen_logs reopens all access logs, like SIGUSR1.",
    cite: {
      section: "Endpoints",
      quote: "/reopen_logs | none | Reopens all access logs, like SIGUSR1 handling.",
    },
    check: "black-box",
    method: "POST",
    path: "/reopen_logs",
    query: "",
    params: [],
    mutating: true,
    contentType: "text/plain; charset=UTF-8",
    shape: "text:ok",
    help: "reopen access logs",
  },
] as const satisfies readonly AdminEndpointRow[];

/** A path of the admin interface (the part before `?`), as the rows name it. */
export type EndpointPath = typeof ENDPOINTS[number]["path"];

/** The ID of an endpoint row. */
export type EndpointId = typeof ENDPOINTS[number]["id"];
