/**
 * `/clusters`: the cluster manager and every cluster and host, as text or (`?format=json`) as
 * `envoy.admin.v3.Clusters` with proto3 default omission.
 *
 * Text: first `version_info::static` (or `version_info::<last CDS version>`; the specification
 * keeps this line, Envoy >=1.12 dropped it), then per cluster the circuit-breaker thresholds per
 * priority, `added_via_api`, and per host every per-host stat sorted by name followed by
 * `hostname`, `healthy` (the specification's name for the health string), `health_flags` (Envoy's
 * name for the same string), `weight`, `region`, `zone`, `sub_zone`, `canary`, `priority`,
 * `success_rate` (-1 when the volume is too low) and `local_origin_success_rate`. A cluster with
 * outlier detection first prints Envoy's `outlier::` lines: the success rate average and
 * ejection threshold of the detector's last interval (external and local origin; -1 when not
 * computed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clustersText } from "./clusters_handler.ts";
 * import { testCluster, testContext, testHost } from "./testing_context.ts";
 * const server = testContext({ clusters: [testCluster("web", [testHost("127.0.0.1", 8080)])] });
 * assert.ok(clustersText(server.clusters).includes("web::127.0.0.1:8080::cx_total::0\n"));
 * ```
 * @module
 */
import type {
  ClusterManagerView,
  ClusterView,
  HealthFlags,
  HostCounterName,
  HostGaugeName,
  HostStatId,
  HostView,
  OutlierFigures,
} from "../upstream/types.ts";
import type { Thresholds } from "../config/effective_cluster.ts";
import { ADMIN_RESOURCES, row, type RowId, type RowOf } from "../../spec/mod.ts";
import type { Handler } from "./types.ts";
import { jsonResponse, textResponse, uint64 } from "../config/proto_json.ts";
import { hostPort } from "../upstream/host.ts";

const THRESHOLD_FIELDS = [
  "max_connections",
  "max_pending_requests",
  "max_requests",
  "max_retries",
] as const;

type HealthId = Extract<RowId<typeof ADMIN_RESOURCES>, `admin.resources.health.${string}`>;

/** The host flag behind each failure-flag row, in Envoy's order (the order of concatenation). */
const FAILURE_FLAGS: Readonly<
  Record<
    Exclude<HealthId, "admin.resources.health.healthy" | "admin.resources.health.concatenated">,
    keyof HealthFlags
  >
> = {
  "admin.resources.health.failed_active_hc": "failed_active_hc",
  "admin.resources.health.failed_outlier_check": "failed_outlier_check",
  "admin.resources.health.failed_eds_health": "failed_eds_health",
};

const FAILURES = Object.entries(FAILURE_FLAGS).map(([id, flag]) => ({
  text: row(ADMIN_RESOURCES, id as HealthId).name,
  flag,
}));
const HEALTHY = row(ADMIN_RESOURCES, "admin.resources.health.healthy").name;

/** The health string of a host: `healthy`, or the concatenated failure flags in Envoy's order
 * (`admin.resources.health.*`). */
export function healthFlags(h: HostView): string {
  let s = "";
  for (const f of FAILURES) if (h.health[f.flag]) s += f.text;
  return s || HEALTHY;
}

/** How `/clusters` prints one per-host row: the name of its text line and its value; `stat`
 * marks the counters and gauges, which the JSON form lists under `stats`. */
interface HostLine {
  line: string;
  value: (h: HostView) => string | number | boolean;
  stat?: "counter" | "gauge";
}

/** Each per-host row of `admin.resources` as `/clusters` prints it: the rows typed `Counter` and
 * `Gauge` print the host's statistic of the row's name (`"stat"`); each other row its own line. */
type HostLines = {
  readonly [I in HostStatId]: RowOf<typeof ADMIN_RESOURCES, I>["type"] extends "Counter" | "Gauge"
    ? "stat"
    : HostLine;
};

const HOST_LINES: HostLines = {
  "admin.resources.host-stat.cx_total": "stat",
  "admin.resources.host-stat.cx_active": "stat",
  "admin.resources.host-stat.cx_connect_fail": "stat",
  "admin.resources.host-stat.rq_total": "stat",
  "admin.resources.host-stat.rq_timeout": "stat",
  "admin.resources.host-stat.rq_success": "stat",
  "admin.resources.host-stat.rq_error": "stat",
  "admin.resources.host-stat.rq_active": "stat",
  "admin.resources.host-stat.healthy": { line: "healthy", value: (h) => healthFlags(h) },
  "admin.resources.host-stat.weight": { line: "weight", value: (h) => h.weight },
  "admin.resources.host-stat.zone": { line: "zone", value: (h) => h.zone },
  "admin.resources.host-stat.canary": { line: "canary", value: (h) => h.canary },
  "admin.resources.host-stat.success_rate": { line: "success_rate", value: (h) => h.successRate() },
};

const HOST_ROWS: readonly HostLine[] = (Object.keys(HOST_LINES) as HostStatId[]).map((id) => {
  const line = HOST_LINES[id];
  if (line !== "stat") return line;
  const r = row(ADMIN_RESOURCES, id);
  const name = r.name as HostCounterName | HostGaugeName;
  return {
    line: name,
    value: (h: HostView) => h.stats[name].value(),
    stat: r.type === "Counter" ? "counter" : "gauge",
  };
});
const COUNTERS = HOST_ROWS.filter((l) => l.stat === "counter");
const GAUGES = HOST_ROWS.filter((l) => l.stat === "gauge");
const STAT_LINES = [...COUNTERS, ...GAUGES].sort((a, b) => a.line < b.line ? -1 : 1);

/** Lines real Envoy prints per host that the specification's table does not list. */
const ENVOY_LINES: Readonly<Record<string, HostLine["value"]>> = {
  hostname: (h) => h.hostname,
  health_flags: (h) => healthFlags(h),
  region: (h) => h.region,
  sub_zone: (h) => h.sub_zone,
  priority: (h) => h.priority,
  local_origin_success_rate: (h) => h.localOriginSuccessRate?.() ?? -1,
};

/** The per-host text lines after the statistics, in Envoy's order. */
const FACT_LINES: readonly HostLine[] = [
  "hostname",
  "healthy",
  "health_flags",
  "weight",
  "region",
  "zone",
  "sub_zone",
  "canary",
  "priority",
  "success_rate",
  "local_origin_success_rate",
].map((line) => {
  const value = ENVOY_LINES[line] ?? HOST_ROWS.find((l) => l.line === line)?.value;
  if (value === undefined) throw new Error(`no per-host line ${line}`);
  return { line, value };
});

function priorityLabel(t: Thresholds): string {
  return t.priority === "HIGH" ? "high_priority" : "default_priority";
}

/** The `outlier::` lines of `/clusters` and the figure each prints. */
const OUTLIER_LINES: readonly [string, keyof OutlierFigures][] = [
  ["success_rate_average", "successRateAverage"],
  ["success_rate_ejection_threshold", "successRateEjectionThreshold"],
  ["local_origin_success_rate_average", "localOriginSuccessRateAverage"],
  ["local_origin_success_rate_ejection_threshold", "localOriginSuccessRateEjectionThreshold"],
];

function clusterText(c: ClusterView): string {
  let out = "";
  const od = c.outlierFigures?.() ?? null;
  if (od) { for (const [l, k] of OUTLIER_LINES) out += `${c.name}::outlier::${l}::${od[k]}\n`; }
  for (const t of c.thresholds) {
    for (const f of THRESHOLD_FIELDS) out += `${c.name}::${priorityLabel(t)}::${f}::${t[f]}\n`;
  }
  out += `${c.name}::added_via_api::${c.addedViaApi}\n`;
  for (const h of c.hosts()) {
    const p = `${c.name}::${hostPort(h.address, h.port)}::`;
    for (const l of STAT_LINES) out += `${p}${l.line}::${l.value(h)}\n`;
    for (const l of FACT_LINES) out += `${p}${l.line}::${l.value(h)}\n`;
  }
  return out;
}

/** The text form of `/clusters`. */
export function clustersText(cm: ClusterManagerView): string {
  let out = `version_info::${cm.versionInfo() ?? "static"}\n`;
  for (const c of cm.clusters()) out += clusterText(c);
  return out;
}

function hostJson(h: HostView) {
  const stats = [
    ...COUNTERS.map((l) => ({ v: Number(l.value(h)), name: l.line, type: undefined })),
    ...GAUGES.map((l) => ({ v: Number(l.value(h)), name: l.line, type: "GAUGE" })),
  ].map(({ v, name, type }) => ({ type, value: v ? uint64(v) : undefined, name }));
  const rate = h.successRate();
  return {
    address: { socket_address: { address: h.address, port_value: h.port } },
    stats,
    health_status: {
      failed_active_health_check: h.health.failed_active_hc,
      failed_outlier_check: h.health.failed_outlier_check,
      eds_health_status: h.health.failed_eds_health
        ? "UNHEALTHY"
        : h.degradedEdsHealth
        ? "DEGRADED"
        : "HEALTHY",
      failed_active_degraded_check: h.degraded?.() || undefined,
      excluded_via_immediate_hc_fail: h.excluded?.() || undefined,
    },
    success_rate: rate >= 0 ? { value: rate } : undefined,
    local_origin_success_rate: (h.localOriginSuccessRate?.() ?? -1) >= 0
      ? { value: h.localOriginSuccessRate!() }
      : undefined,
    weight: h.weight,
    hostname: h.hostname,
    priority: h.priority,
    locality: { region: h.region, zone: h.zone, sub_zone: h.sub_zone },
  };
}

/** `success_rate_ejection_threshold` and its local-origin twin, when computed. */
function jsonOutlier(od: OutlierFigures | null): Record<string, unknown> {
  if (!od) return {};
  const out: Record<string, unknown> = {};
  if (od.successRateEjectionThreshold >= 0) {
    out.success_rate_ejection_threshold = { value: od.successRateEjectionThreshold };
  }
  if (od.localOriginSuccessRateEjectionThreshold >= 0) {
    out.local_origin_success_rate_ejection_threshold = {
      value: od.localOriginSuccessRateEjectionThreshold,
    };
  }
  return out;
}

/** The `envoy.admin.v3.Clusters` message (before default omission). */
export function clustersMessage(cm: ClusterManagerView): unknown {
  return {
    cluster_statuses: cm.clusters().map((c) => ({
      name: c.name,
      added_via_api: c.addedViaApi,
      host_statuses: c.hosts().map(hostJson),
      circuit_breakers: {
        thresholds: c.thresholds.map((t) => ({
          priority: t.priority === "HIGH" ? "HIGH" : undefined,
          max_connections: t.max_connections,
          max_pending_requests: t.max_pending_requests,
          max_requests: t.max_requests,
          max_retries: t.max_retries,
        })),
      },
      observability_name: c.statName,
      ...jsonOutlier(c.outlierFigures?.() ?? null),
    })),
  };
}

const clusters: Handler = (req, server) =>
  req.params.get("format") === "json"
    ? jsonResponse(clustersMessage(server.clusters))
    : textResponse(clustersText(server.clusters));

/** Handlers of this family, by path. */
export const CLUSTERS_HANDLERS = { "/clusters": clusters } satisfies Record<string, Handler>;
