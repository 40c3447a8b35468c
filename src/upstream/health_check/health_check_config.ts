/**
 * The run-time form of one `core.HealthCheck` (validated, defaults applied): intervals in
 * milliseconds with Envoy's fallbacks (`unhealthy_interval` defaults to `interval`,
 * `unhealthy_edge_interval` to `unhealthy_interval`, `healthy_edge_interval` to `interval`,
 * `no_traffic_healthy_interval` to `no_traffic_interval`), thresholds, and the checker's own
 * settings (HTTP or TCP).
 *
 * @example
 * ```ts
 * import { healthCheckConfig } from "./health_check_config.ts";
 * const c = healthCheckConfig({
 *   timeout: "1s", interval: "2s", unhealthy_threshold: 3, healthy_threshold: 2,
 *   no_traffic_interval: "60s", reuse_connection: true,
 *   tcp_health_check: {},
 * });
 * console.log(c.unhealthyEdgeIntervalMs, c.checker.kind); // 2000 "tcp"
 * ```
 * @module
 */
import type { JsonObject } from "../../config/bootstrap_types.ts";
import { isObject, parseBool, parseDuration, parseUInt32 } from "../../config/values.ts";
import { compileStringMatcher, type StringPredicate } from "../../config/string_matcher.ts";

/** A half-open range of HTTP statuses `[start, end)`. */
export interface StatusRange {
  start: number;
  end: number;
}

/** A header to add to HTTP health check requests. */
export interface HeaderToAdd {
  name: string;
  value: string;
  /** False: replaces a header of the same name. */
  append: boolean;
}

/** HTTP checker settings. */
export interface HttpCheckerConfig {
  kind: "http";
  path: string;
  /** Empty: the cluster name. */
  host: string;
  expected: StatusRange[];
  retriable: StatusRange[];
  headersToAdd: HeaderToAdd[];
  headersToRemove: string[];
  codec: "HTTP1" | "HTTP2" | "HTTP3";
  serviceNameMatcher: StringPredicate | null;
}

/** TCP checker settings: payloads as bytes; no `send` means connect-only. */
export interface TcpCheckerConfig {
  kind: "tcp";
  send: Uint8Array | null;
  receive: Uint8Array[];
}

/** gRPC checker settings (`grpc.health.v1.Health/Check`). */
export interface GrpcCheckerConfig {
  kind: "grpc";
  serviceName: string;
  /** Empty: the host's hostname, else the cluster name. */
  authority: string;
}

/** One health check, ready to run. */
export interface HealthCheckConfig {
  timeoutMs: number;
  intervalMs: number;
  initialJitterMs: number;
  intervalJitterMs: number;
  intervalJitterPercent: number;
  unhealthyThreshold: number;
  healthyThreshold: number;
  noTrafficIntervalMs: number;
  noTrafficHealthyIntervalMs: number;
  unhealthyIntervalMs: number;
  unhealthyEdgeIntervalMs: number;
  healthyEdgeIntervalMs: number;
  reuseConnection: boolean;
  alwaysLogHealthCheckFailures: boolean;
  eventLogPath: string;
  /** `tls_options.alpn_protocols`, when set. */
  alpn: string[] | null;
  checker: HttpCheckerConfig | TcpCheckerConfig | GrpcCheckerConfig;
}

function ms(v: unknown, fallback: number): number {
  const p = parseDuration(v);
  return p.ok ? p.value : fallback;
}

function u32(v: unknown, fallback: number): number {
  const p = parseUInt32(v);
  return p.ok ? p.value : fallback;
}

/** Decodes a hex payload (`"000000FF"`); whitespace is not allowed, as in Envoy. */
export function hexPayload(text: string): Uint8Array | null {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function payload(v: unknown): Uint8Array | null {
  if (!isObject(v)) return null;
  if (typeof v.text === "string") return hexPayload(v.text);
  if (typeof v.binary === "string") {
    // Protobuf JSON bytes: URL-safe letters and missing padding are accepted.
    const std = v.binary.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    try {
      return Uint8Array.from(
        atob(std + "=".repeat((4 - std.length % 4) % 4)),
        (c) => c.charCodeAt(0),
      );
    } catch {
      return null;
    }
  }
  return null;
}

function ranges(v: unknown, fallback: StatusRange[]): StatusRange[] {
  if (!Array.isArray(v) || v.length === 0) return fallback;
  return v.filter(isObject).map((r) => ({ start: Number(r.start), end: Number(r.end) }));
}

function headersToAdd(v: unknown): HeaderToAdd[] {
  if (!Array.isArray(v)) return [];
  const out: HeaderToAdd[] = [];
  for (const o of v) {
    if (!isObject(o) || !isObject(o.header)) continue;
    const b = parseBool(o.append);
    const append = o.append_action !== undefined
      ? o.append_action === "APPEND_IF_EXISTS_OR_ADD"
      : b.ok
      ? b.value
      : true;
    out.push({
      name: String(o.header.key ?? "").toLowerCase(),
      value: String(o.header.value ?? ""),
      append,
    });
  }
  return out;
}

/** The run-time form of a validated `core.HealthCheck` with defaults applied. */
export function healthCheckConfig(h: JsonObject): HealthCheckConfig {
  const intervalMs = ms(h.interval, 1);
  const unhealthyIntervalMs = ms(h.unhealthy_interval, intervalMs);
  const noTrafficIntervalMs = ms(h.no_traffic_interval, 60_000);
  const http = isObject(h.http_health_check) ? h.http_health_check : null;
  const tcp = isObject(h.tcp_health_check) ? h.tcp_health_check : {};
  const grpc = isObject(h.grpc_health_check) ? h.grpc_health_check : null;
  const tls = isObject(h.tls_options) ? h.tls_options : null;
  return {
    timeoutMs: ms(h.timeout, 1),
    intervalMs,
    initialJitterMs: ms(h.initial_jitter, 0),
    intervalJitterMs: ms(h.interval_jitter, 0),
    intervalJitterPercent: u32(h.interval_jitter_percent, 0),
    unhealthyThreshold: Math.max(1, u32(h.unhealthy_threshold, 1)),
    healthyThreshold: Math.max(1, u32(h.healthy_threshold, 1)),
    noTrafficIntervalMs,
    noTrafficHealthyIntervalMs: ms(h.no_traffic_healthy_interval, noTrafficIntervalMs),
    unhealthyIntervalMs,
    unhealthyEdgeIntervalMs: ms(h.unhealthy_edge_interval, unhealthyIntervalMs),
    healthyEdgeIntervalMs: ms(h.healthy_edge_interval, intervalMs),
    reuseConnection: h.reuse_connection !== false,
    alwaysLogHealthCheckFailures: h.always_log_health_check_failures === true,
    eventLogPath: typeof h.event_log_path === "string" ? h.event_log_path : "",
    alpn: tls && Array.isArray(tls.alpn_protocols) && tls.alpn_protocols.length
      ? tls.alpn_protocols.map(String)
      : null,
    checker: grpc
      ? {
        kind: "grpc",
        serviceName: typeof grpc.service_name === "string" ? grpc.service_name : "",
        authority: typeof grpc.authority === "string" ? grpc.authority : "",
      }
      : http
      ? {
        kind: "http",
        path: String(http.path ?? "/"),
        host: typeof http.host === "string" ? http.host : "",
        expected: ranges(http.expected_statuses, [{ start: 200, end: 201 }]),
        retriable: ranges(http.retriable_statuses, []),
        headersToAdd: headersToAdd(http.request_headers_to_add),
        headersToRemove: Array.isArray(http.request_headers_to_remove)
          ? http.request_headers_to_remove.map((x) => String(x).toLowerCase())
          : [],
        codec: (["HTTP2", "HTTP3"].includes(String(http.codec_client_type))
          ? http.codec_client_type
          : "HTTP1") as HttpCheckerConfig["codec"],
        serviceNameMatcher: http.service_name_matcher === undefined
          ? null
          : compileStringMatcher(http.service_name_matcher, "service_name_matcher", []),
      }
      : {
        kind: "tcp",
        send: payload(tcp.send),
        receive: Array.isArray(tcp.receive)
          ? tcp.receive.map(payload).filter((x): x is Uint8Array => x !== null)
          : [],
      },
  };
}
