/**
 * The validation rules of `core.HealthCheck` that Envoy's `health_check.proto` carries beyond
 * field kinds (which the tables check): HTTP header names and values (no NUL, CR or LF; names
 * not empty), at most 1000 `request_headers_to_add`, `expected_statuses` and
 * `retriable_statuses` ranges with start < end inside [100, 600), and `text` payloads that are
 * hex strings. Each error names its path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { healthCheckErrors } from "./health_check_rules.ts";
 * const errs = healthCheckErrors([{ http_health_check: { path: "/", expected_statuses: [{ start: 99, end: 200 }] } }]);
 * assert.equal(errs[0].path, "health_checks[0].http_health_check.expected_statuses[0]");
 * ```
 * @module
 */
import { isObject } from "./values.ts";
import { fieldRow } from "./nested_schema.ts";
import { compileStringMatcher } from "./string_matcher.ts";
import type { Errors } from "./config_values.ts";
import type { Json } from "./bootstrap_types.ts";

const HTTP = "core.HealthCheck.HttpHealthCheck";
const rule = (message: string, field: string) => fieldRow(message, field).id;

/** One problem, with its path relative to the cluster. */
export interface HealthCheckError {
  path: string;
  /** The ID of the table row of the field. */
  rule: string;
  message: string;
}

/** True for a hex string of whole bytes (`"000000FF"`). */
export function isHexPayload(text: string): boolean {
  return text.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(text);
}

/** Envoy's non-strict header value rule: no NUL, CR or LF. */
const BAD_HEADER_CHAR = /[\0\r\n]/;

function statusRanges(v: unknown, at: string, field: string, out: HealthCheckError[]) {
  if (!Array.isArray(v)) return;
  v.forEach((r, i) => {
    if (!isObject(r)) return;
    const start = Number(r.start ?? 0);
    const end = Number(r.end ?? 0);
    if (!(start < end && start >= 100 && end <= 600)) {
      out.push({
        path: `${at}[${i}]`,
        rule: rule(HTTP, field),
        message: `invalid status range [${start}, ${end}): expecting start < end, start >= 100 ` +
          "and end <= 600",
      });
    }
  });
}

function payloadErrors(v: unknown, at: string, out: HealthCheckError[]) {
  if (!isObject(v)) return;
  if (typeof v.text === "string" && !isHexPayload(v.text)) {
    out.push({
      path: `${at}.text`,
      rule: rule("core.HealthCheck.Payload", "text"),
      message: `invalid hex string '${v.text}'`,
    });
  }
}

function httpErrors(h: Record<string, unknown>, at: string, out: HealthCheckError[]) {
  for (const f of ["host", "path"]) {
    if (typeof h[f] === "string" && BAD_HEADER_CHAR.test(h[f] as string)) {
      out.push({
        path: `${at}.${f}`,
        rule: rule(HTTP, f),
        message: "value must be a valid HTTP header value",
      });
    }
  }
  const add = Array.isArray(h.request_headers_to_add) ? h.request_headers_to_add : [];
  if (add.length > 1000) {
    out.push({
      path: `${at}.request_headers_to_add`,
      rule: rule(HTTP, "request_headers_to_add"),
      message: "value must contain no more than 1000 item(s)",
    });
  }
  add.forEach((o, i) => {
    const hdr = isObject(o) && isObject(o.header) ? o.header : null;
    if (!hdr) return;
    const key = String(hdr.key ?? "");
    if (key === "" || BAD_HEADER_CHAR.test(key)) {
      out.push({
        path: `${at}.request_headers_to_add[${i}].header.key`,
        rule: rule(HTTP, "request_headers_to_add"),
        message: "value must be a valid HTTP header name",
      });
    }
    if (BAD_HEADER_CHAR.test(String(hdr.value ?? ""))) {
      out.push({
        path: `${at}.request_headers_to_add[${i}].header.value`,
        rule: rule(HTTP, "request_headers_to_add"),
        message: "value must be a valid HTTP header value",
      });
    }
  });
  const remove = Array.isArray(h.request_headers_to_remove) ? h.request_headers_to_remove : [];
  remove.forEach((n, i) => {
    if (typeof n !== "string" || n === "" || BAD_HEADER_CHAR.test(n)) {
      out.push({
        path: `${at}.request_headers_to_remove[${i}]`,
        rule: rule(HTTP, "request_headers_to_remove"),
        message: "value must be a valid HTTP header name",
      });
    }
  });
  if (h.service_name_matcher !== undefined) {
    const found: Errors = [];
    compileStringMatcher(h.service_name_matcher as Json, `${at}.service_name_matcher`, found);
    for (const e of found) {
      out.push({ path: e.path, rule: rule(HTTP, "service_name_matcher"), message: e.message });
    }
  }
  statusRanges(h.expected_statuses, `${at}.expected_statuses`, "expected_statuses", out);
  statusRanges(h.retriable_statuses, `${at}.retriable_statuses`, "retriable_statuses", out);
}

/** Problems of a cluster's (schema-checked) `health_checks` list. */
export function healthCheckErrors(hcs: unknown): HealthCheckError[] {
  const out: HealthCheckError[] = [];
  if (!Array.isArray(hcs)) return out;
  hcs.forEach((h, i) => {
    if (!isObject(h)) return;
    const at = `health_checks[${i}]`;
    if (isObject(h.http_health_check)) {
      httpErrors(h.http_health_check, `${at}.http_health_check`, out);
    }
    const g = h.grpc_health_check;
    if (isObject(g) && typeof g.authority === "string" && BAD_HEADER_CHAR.test(g.authority)) {
      out.push({
        path: `${at}.grpc_health_check.authority`,
        rule: rule("core.HealthCheck.GrpcHealthCheck", "authority"),
        message: "value must be a valid HTTP header value",
      });
    }
    if (isObject(h.tcp_health_check)) {
      const t = h.tcp_health_check;
      payloadErrors(t.send, `${at}.tcp_health_check.send`, out);
      if (Array.isArray(t.receive)) {
        t.receive.forEach((p, k) => payloadErrors(p, `${at}.tcp_health_check.receive[${k}]`, out));
      }
    }
  });
  return out;
}
