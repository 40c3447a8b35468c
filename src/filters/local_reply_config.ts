/**
 * The connection manager's `local_reply_config`: how the replies the proxy makes itself (no
 * route, no cluster, no healthy upstream, a connect failure, a fault abort, a rate limit, a
 * direct response...) are rewritten before they go out, as Envoy does:
 *
 * - the first of `mappers` whose `filter` (an access log filter, on the request, the reply's
 *   status, headers and response flags) matches may change the `status_code`, replace the
 *   `body` and add `headers_to_add`; its `body_format_override` replaces the format;
 * - the body is then laid out by `body_format` (a substitution format: `%LOCAL_REPLY_BODY%`,
 *   `%RESPONSE_CODE%`, `%REQ(...)%`...), with its content type (`text/plain` for text,
 *   `application/json` for JSON, or `content_type`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLocalReplyConfig } from "./local_reply_config.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const c = parseLocalReplyConfig(
 *   { body_format: { text_format: "%LOCAL_REPLY_BODY% (%RESPONSE_CODE%)" } },
 *   "hcm.local_reply_config",
 *   errors,
 * );
 * assert.deepEqual(errors, []);
 * assert.notEqual(c, null);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, fail, isObject, unwrap } from "../config/config_values.ts";
import { parseTypedSubstitutionFormat } from "../access_log/access_log_config.ts";
import { type LogPredicate, parseAccessLogFilter } from "../access_log/access_log_filter.ts";
import type { Formatter, LogRecord } from "../access_log/access_log_format.ts";
import type { DownstreamConn, DownstreamRequest } from "../http/downstream_request.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { parseHeaderMatcher } from "../router/header_matcher.ts";
import { onlyFields } from "./http_filter.ts";

type BodyFormat = { format: Formatter; contentType: string };

interface Mapper {
  filter: LogPredicate;
  status: number | null;
  body: string | null;
  format: BodyFormat | null;
  headers: [string, string, boolean][];
}

/** A compiled `LocalReplyConfig`. */
export interface LocalReplyConfig {
  mappers: Mapper[];
  format: BodyFormat | null;
}

function dataSourceText(v: Json, at: string, errors: Errors): string | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  if (!onlyFields(v, ["inline_string", "inline_bytes", "filename"], at, errors)) return null;
  try {
    if (typeof v.inline_string === "string") return v.inline_string;
    if (typeof v.inline_bytes === "string") {
      return new TextDecoder().decode(
        Uint8Array.from(atob(v.inline_bytes), (c) => c.charCodeAt(0)),
      );
    }
    if (typeof v.filename === "string") return Deno.readTextFileSync(v.filename);
  } catch (e) {
    return fail(errors, at, `cannot read: ${(e as Error).message}`), null;
  }
  return fail(errors, at, "one of inline_string, inline_bytes, filename is required"), null;
}

function parseMapper(v: Json, at: string, errors: Errors): Mapper | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  const n = errors.length;
  onlyFields(
    v,
    ["filter", "status_code", "body", "body_format_override", "headers_to_add"],
    at,
    errors,
  );
  const filter = v.filter === undefined
    ? (fail(errors, `${at}.filter`, "filter is required"), null)
    : parseAccessLogFilter(v.filter, `${at}.filter`, errors, parseHeaderMatcher);
  const sc = unwrap(v.status_code);
  if (
    sc !== undefined && (typeof sc !== "number" || !Number.isInteger(sc) || sc < 200 || sc >= 600)
  ) {
    fail(errors, `${at}.status_code`, "must be an integer in [200, 600)");
  }
  const body = v.body === undefined ? null : dataSourceText(v.body, `${at}.body`, errors);
  const format = v.body_format_override === undefined
    ? null
    : parseTypedSubstitutionFormat(v.body_format_override, `${at}.body_format_override`, errors);
  const headers: [string, string, boolean][] = [];
  if (v.headers_to_add !== undefined) {
    if (!Array.isArray(v.headers_to_add)) fail(errors, `${at}.headers_to_add`, "must be a list");
    else {
      v.headers_to_add.forEach((o, i) => {
        const h = isObject(o) ? o.header : undefined;
        if (!isObject(h) || typeof h.key !== "string" || typeof (h.value ?? "") !== "string") {
          return fail(errors, `${at}.headers_to_add[${i}].header`, "needs a key and a value");
        }
        const append = isObject(o) &&
          (o.append_action === "APPEND_IF_EXISTS_OR_ADD" ||
            (o.append_action === undefined && unwrap(o.append) !== false));
        headers.push([h.key.toLowerCase(), String(h.value ?? ""), append]);
      });
    }
  }
  if (errors.length > n || filter === null) return null;
  return { filter, status: typeof sc === "number" ? sc : null, body, format, headers };
}

/** Compiles a `local_reply_config` found at `at`. */
export function parseLocalReplyConfig(
  v: Json | undefined,
  at: string,
  errors: Errors,
): LocalReplyConfig | null {
  if (v === undefined) return null;
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  const n = errors.length;
  onlyFields(v, ["mappers", "body_format"], at, errors);
  const mappers: Mapper[] = [];
  if (v.mappers !== undefined) {
    if (!Array.isArray(v.mappers)) fail(errors, `${at}.mappers`, "must be a list");
    else {
      v.mappers.forEach((m, i) => {
        const x = parseMapper(m, `${at}.mappers[${i}]`, errors);
        if (x) mappers.push(x);
      });
    }
  }
  const format = v.body_format === undefined
    ? null
    : parseTypedSubstitutionFormat(v.body_format, `${at}.body_format`, errors);
  return errors.length > n ? null : { mappers, format };
}

const encoder = new TextEncoder();

/**
 * Rewrites the local reply `res` to request `req` (on `conn`, started at `startMs`) by `c`;
 * replies the proxy did not make itself are returned as they are.
 */
export function rewriteLocalReply(
  c: LocalReplyConfig,
  res: ProxyResponse,
  req: DownstreamRequest,
  conn: DownstreamConn,
  startMs: number,
): ProxyResponse {
  if (res.localBody === undefined) return res;
  const pseudo: Record<string, string> = {
    ":method": req.method,
    ":path": req.path,
    ":authority": req.authority,
    ":scheme": req.scheme,
  };
  const rec: LogRecord = {
    startMs,
    protocol: req.h2 ? "HTTP/2" : "HTTP/1.1",
    req: (n) => pseudo[n] ?? req.headers.get(n),
    resp: res.headers,
    status: res.status,
    flags: res.flag === undefined ? [] : [res.flag],
    bytesReceived: 0,
    bytesSent: 0,
    durationMs: Date.now() - startMs,
    upstreamHost: null,
    upstreamCluster: null,
    downstreamRemote: conn.remoteAddr,
    downstreamLocal: conn.localAddr,
    localReplyBody: res.localBody,
    dynamicMetadata: req.dynamicMetadata ?? null,
  };
  let format = c.format;
  let body = res.localBody;
  const m = c.mappers.find((x) => x.filter(rec));
  if (m !== undefined) {
    if (m.status !== null) res.status = rec.status = m.status;
    if (m.body !== null) body = rec.localReplyBody = m.body;
    for (const [k, v, append] of m.headers) {
      append ? res.headers.append(k, v) : res.headers.set(k, v);
    }
    if (m.format !== null) format = m.format;
  }
  if (format !== null) {
    body = format.format(rec);
    res.headers.set("content-type", format.contentType);
  } else if (m?.body != null && body !== "") res.headers.set("content-type", "text/plain");
  if (body === res.localBody && format === null) return res;
  if (res.body instanceof ReadableStream) res.body.cancel().catch(() => {});
  res.body = body === "" ? null : encoder.encode(body);
  res.localBody = body;
  return res;
}
