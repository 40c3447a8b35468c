/**
 * `/clusters`: the cluster manager and every cluster and host, as text or (`?format=json`) as
 * `envoy.admin.v3.Clusters` with proto3 default omission.
 *
 * Text: first `version_info::static` (or `version_info::<last CDS version>`; the specification
 * keeps this line, Envoy ≥1.12 dropped it), then per cluster the outlier lines (only with
 * `outlier_detection`), the circuit-breaker thresholds per priority, `added_via_api`, and per host every per-host stat sorted by name followed by
 * `hostname`, `health_flags`, `weight`, `region`, `zone`, `sub_zone`, `canary`, `priority`,
 * `success_rate` (-1 when the volume is too low) and `local_origin_success_rate`.
 *
 * @example
 * ```ts ignore
 * import { clustersText } from "./clusters_handler.ts";
 * console.log(clustersText(server.clusters));
 * ```
 * @module
 */
import type {
  ClusterManagerView,
  ClusterView,
  HostView,
  OutlierFigures,
} from "../upstream/types.ts";
import type { Thresholds } from "../config/effective_cluster.ts";
import type { Handler } from "./types.ts";
import { jsonResponse, textResponse, uint64 } from "../config/proto_json.ts";
import { hostPort } from "../upstream/host.ts";

const COUNTERS = [
  "cx_total",
  "cx_connect_fail",
  "rq_total",
  "rq_timeout",
  "rq_success",
  "rq_error",
];
const GAUGES = ["cx_active", "rq_active"];
const THRESHOLD_FIELDS = [
  "max_connections",
  "max_pending_requests",
  "max_requests",
  "max_retries",
] as const;

/** The health string of a host: `healthy`, or the failure flags in Envoy's order. */
export function healthFlags(h: HostView): string {
  let s = "";
  if (h.health.failed_active_hc) s += "/failed_active_hc";
  if (h.health.failed_outlier_check) s += "/failed_outlier_check";
  if (h.health.failed_eds_health) s += "/failed_eds_health";
  return s || "healthy";
}

function statValue(h: HostView, name: string): number {
  return (h.stats as unknown as Record<string, { value(): number }>)[name].value();
}

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

/** The figures of a cluster: its detector's, or -1 everywhere for a view without one. */
function outlierFigures(c: ClusterView): OutlierFigures | null {
  if (c.outlierFigures) return c.outlierFigures();
  if (!c.config.outlier_detection) return null;
  return {
    successRateAverage: -1,
    successRateEjectionThreshold: -1,
    localOriginSuccessRateAverage: -1,
    localOriginSuccessRateEjectionThreshold: -1,
  };
}

function clusterText(c: ClusterView): string {
  let out = "";
  const od = outlierFigures(c);
  if (od) { for (const [l, k] of OUTLIER_LINES) out += `${c.name}::outlier::${l}::${od[k]}\n`; }
  for (const t of c.thresholds) {
    for (const f of THRESHOLD_FIELDS) out += `${c.name}::${priorityLabel(t)}::${f}::${t[f]}\n`;
  }
  out += `${c.name}::added_via_api::${c.addedViaApi}\n`;
  for (const h of c.hosts()) {
    const p = `${c.name}::${hostPort(h.address, h.port)}::`;
    for (const name of [...COUNTERS, ...GAUGES].sort()) {
      out += `${p}${name}::${statValue(h, name)}\n`;
    }
    out += `${p}hostname::${h.hostname}\n`;
    out += `${p}health_flags::${healthFlags(h)}\n`;
    out += `${p}weight::${h.weight}\n`;
    out += `${p}region::${h.region}\n`;
    out += `${p}zone::${h.zone}\n`;
    out += `${p}sub_zone::${h.sub_zone}\n`;
    out += `${p}canary::${h.canary}\n`;
    out += `${p}priority::${h.priority}\n`;
    out += `${p}success_rate::${h.successRate()}\n`;
    out += `${p}local_origin_success_rate::${h.localOriginSuccessRate?.() ?? -1}\n`;
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
    ...COUNTERS.map((name) => ({ v: statValue(h, name), name, type: undefined })),
    ...GAUGES.map((name) => ({ v: statValue(h, name), name, type: "GAUGE" })),
  ].map(({ v, name, type }) => ({ type, value: v ? uint64(v) : undefined, name }));
  const rate = h.successRate();
  return {
    address: { socket_address: { address: h.address, port_value: h.port } },
    stats,
    health_status: {
      failed_active_health_check: h.health.failed_active_hc,
      failed_outlier_check: h.health.failed_outlier_check,
      eds_health_status: h.health.failed_eds_health ? "UNHEALTHY" : "HEALTHY",
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
      ...jsonOutlier(outlierFigures(c)),
    })),
  };
}

const clusters: Handler = (req, server) =>
  req.params.get("format") === "json"
    ? jsonResponse(clustersMessage(server.clusters))
    : textResponse(clustersText(server.clusters));

/** Handlers of this family, by path. */
export const CLUSTERS_HANDLERS = { "/clusters": clusters } satisfies Record<string, Handler>;
