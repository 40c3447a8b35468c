/**
 * The admin interface's access log: the v3 `admin.access_log` list (any logger of
 * {@linkcode parseAccessLogs}, with filters) and the older `admin.access_log_path` (a file in
 * Envoy's default format; `/dev/null` and the empty string write nothing). Each admin request
 * is logged once its answer has gone out (or the client went away: flag `DC`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAdminAccessLogs } from "./admin_access_log.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const logs = parseAdminAccessLogs({ access_log_path: "/dev/null" }, errors);
 * assert.deepEqual([logs.length, errors.length], [0, 0]);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import { type Errors, isObject } from "../config/config_values.ts";
import { compileFormat, DEFAULT_FORMAT, type LogRecord } from "./access_log_format.ts";
import { type AccessLogConfig, openLogSinks, parseAccessLogs } from "./access_log_config.ts";
import type { RuntimeLookup } from "../config/runtime_lookup.ts";
import type { HeaderMatcherCompiler } from "./access_log_filter.ts";
import type { AccessLogFiles } from "./access_log_file.ts";

/** Parses the access loggers of the bootstrap's `admin` block. */
export function parseAdminAccessLogs(
  admin: Json | undefined,
  errors: Errors,
  headerMatcher?: HeaderMatcherCompiler,
): AccessLogConfig[] {
  if (!isObject(admin)) return [];
  const out = parseAccessLogs(admin.access_log, "admin.access_log", errors, headerMatcher);
  const p = admin.access_log_path;
  if (typeof p === "string" && p !== "" && p !== "/dev/null") {
    out.push({ path: p, format: compileFormat(DEFAULT_FORMAT, "admin.access_log_path") });
  }
  return out;
}

/** An admin request handler (the admin router). */
export type AdminHandler = (req: Request) => Promise<Response>;

/** Where the admin listener is, for `%DOWNSTREAM_LOCAL_ADDRESS%`. */
export interface AdminAddress {
  local: () => Deno.NetAddr;
}

const NO_ADDR: Deno.NetAddr = { transport: "tcp", hostname: "0.0.0.0", port: 0 };

/**
 * Wraps `route` so each request is logged to `logs` (files from `files`); `route` itself when
 * there is nothing to log. The remote address comes from Deno's `ServeHandlerInfo` when given;
 * filters read their runtime keys in `runtime`.
 */
export function loggedAdminRoute(
  route: AdminHandler,
  logs: readonly AccessLogConfig[],
  files: AccessLogFiles,
  where: AdminAddress,
  runtime?: RuntimeLookup,
): (req: Request, info?: Deno.ServeHandlerInfo) => Promise<Response> {
  if (logs.length === 0) return route;
  const sinks = openLogSinks(logs, files, runtime);
  return async (req, info) => {
    const startMs = Date.now();
    const t0 = performance.now();
    const url = new URL(req.url);
    const pseudo: Record<string, string> = {
      ":method": req.method,
      ":path": url.pathname + url.search,
      ":authority": req.headers.get("host") ?? url.host,
      ":scheme": "http",
    };
    const bytesReceived = req.body === null ? 0 : Number(req.headers.get("content-length") ?? 0);
    const res = await route(req);
    const remote = (info?.remoteAddr as Deno.NetAddr | undefined) ?? NO_ADDR;
    const write = (sent: number, flags: string[]) => {
      const r: LogRecord = {
        startMs,
        protocol: "HTTP/1.1",
        req: (n) => pseudo[n] ?? req.headers.get(n),
        resp: res.headers,
        status: res.status,
        flags,
        bytesReceived,
        bytesSent: sent,
        durationMs: performance.now() - t0,
        upstreamHost: null,
        upstreamCluster: null,
        downstreamRemote: remote.transport === "tcp" ? remote : NO_ADDR,
        downstreamLocal: where.local(),
        details: "admin_filter_response",
      };
      for (const s of sinks) if (s.filter == null || s.filter(r)) s.file.write(s.format(r));
    };
    if (res.body === null) {
      write(0, []);
      return res;
    }
    let sent = 0;
    let done = false;
    const rd = res.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        const r = await rd.read();
        if (r.done) {
          ctrl.close();
          if (!done) write(sent, []);
          done = true;
        } else {
          sent += r.value.byteLength;
          ctrl.enqueue(r.value);
        }
      },
      cancel(reason) {
        if (!done) write(sent, ["DC"]);
        done = true;
        return rd.cancel(reason);
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
