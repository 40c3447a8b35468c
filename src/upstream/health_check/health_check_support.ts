/**
 * The settings of `health_checks` and `outlier_detection` this build does not honour, refused
 * with their path rather than ignored: Redis and custom checkers, the HTTP/3 check
 * codec, HTTP `send`/`receive` payloads, binary payloads, `alt_port`, `event_service`,
 * `transport_socket_match_criteria`, outlier `monitors`.
 *
 * @example
 * ```ts
 * import { healthSupportErrors } from "./health_check_support.ts";
 * const errs = healthSupportErrors({
 *   health_checks: [{ timeout: "1s", interval: "1s", unhealthy_threshold: 1, healthy_threshold: 1, redis_health_check: {} }],
 * });
 * console.log(errs[0].path); // "health_checks[0].redis_health_check"
 * ```
 * @module
 */
import { isObject } from "../../config/values.ts";

/** One problem, with its path relative to the cluster. */
export interface SupportError {
  path: string;
  message: string;
}

/** Problems of a cluster's (validated, normalized) `health_checks` and `outlier_detection`. */
export function healthSupportErrors(c: Record<string, unknown>): SupportError[] {
  const out: SupportError[] = [];
  const hcs = Array.isArray(c.health_checks) ? c.health_checks : [];
  hcs.forEach((h, i) => {
    if (!isObject(h)) return;
    const at = `health_checks[${i}]`;
    for (const f of ["grpc_health_check", "redis_health_check", "custom_health_check"]) {
      if (h[f] !== undefined && h[f] !== null) {
        out.push({
          path: `${at}.${f}`,
          message: `${f} is not implemented yet (HTTP and TCP only)`,
        });
      }
    }
    for (const f of ["alt_port", "event_service", "transport_socket_match_criteria"]) {
      if (h[f] !== undefined && h[f] !== null) {
        out.push({ path: `${at}.${f}`, message: `${f} is not implemented` });
      }
    }
    const http = isObject(h.http_health_check) ? h.http_health_check : null;
    if (http) {
      for (const f of ["send", "receive"]) {
        if (http[f] !== undefined && http[f] !== null) {
          out.push({
            path: `${at}.http_health_check.${f}`,
            message: `HTTP health check ${f} payloads are not implemented`,
          });
        }
      }
      const codec = String(http.codec_client_type ?? "HTTP1");
      if (codec === "HTTP3") {
        out.push({
          path: `${at}.http_health_check.codec_client_type`,
          message: "codec_client_type HTTP3 is not implemented yet (HTTP1 and HTTP2)",
        });
      }
    }
    const tcp = isObject(h.tcp_health_check) ? h.tcp_health_check : null;
    const payloads = tcp
      ? [
        ["send", tcp.send],
        ...(Array.isArray(tcp.receive) ? tcp.receive : []).map((p, k) =>
          [`receive[${k}]`, p] as const
        ),
      ] as const
      : [];
    for (const [where, p] of payloads) {
      if (isObject(p) && p.binary !== undefined && p.binary !== null) {
        out.push({
          path: `${at}.tcp_health_check.${where}.binary`,
          message: "binary payloads are not implemented (use text)",
        });
      }
    }
  });
  const od = c.outlier_detection;
  if (isObject(od) && od.monitors !== undefined && od.monitors !== null) {
    out.push({ path: "outlier_detection.monitors", message: "monitors are not implemented" });
  }
  return out;
}
