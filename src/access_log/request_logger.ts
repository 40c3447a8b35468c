/**
 * Access logging of HTTP requests: a {@linkcode LogCtx} collects what the connection manager
 * learns about one request (path, authority, route cluster, upstream request, response flags,
 * request body bytes); when the response is returned its body is counted as it streams out and
 * the line is written when the last byte has gone (or the client went away: flag `DC`).
 * Connection managers without access logs never create any of this.
 *
 * @example Not run: it is the inside of a running server's request handler.
 * ```ts ignore
 * import { RequestLogger } from "./request_logger.ts";
 * const logger = new RequestLogger([{ format, file }]);
 * const lg = logger.start(req, conn);
 * return logger.finish(lg, response);
 * ```
 * @module
 */
import type { DynamicMetadata } from "../http/dynamic_metadata.ts";
import type { FilterState } from "../http/filter_state.ts";
import { hostPort } from "../upstream/host.ts";
import { onResponseEnd, type ProxyResponse } from "../http/proxy_response.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import type { AccessLogFile } from "./access_log_file.ts";
import type { Formatter, LogRecord } from "./access_log_format.ts";
import type { LogPredicate } from "./access_log_filter.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";

/** One logger: a compiled format, its file and its filter. */
export interface LogSink {
  format: Formatter;
  file: AccessLogFile;
  /** When set, a line is written only when it says true. */
  filter?: LogPredicate | null;
}

/** `%RESPONSE_CODE_DETAILS%` of the local replies the proxy core makes, by response flag. */
const DETAILS_OF_FLAG: Readonly<Record<string, string>> = {
  UH: "no_healthy_upstream",
  UT: "upstream_response_timeout",
  UF: "upstream_reset_before_response_started{connection_failure}",
  UO: "upstream_reset_before_response_started{overflow}",
  UC: "upstream_reset_before_response_started{connection_termination}",
  UR: "upstream_reset_before_response_started{remote_reset}",
  UPE: "upstream_reset_before_response_started{protocol_error}",
  NR: "route_not_found",
  NC: "cluster_not_found",
  DPE: "codec_error",
};

/** What is learned about one request while it is handled. */
export class LogCtx {
  readonly startMs = Date.now();
  readonly t0 = performance.now();
  cluster: string | null = null;
  upstreamRequest: UpstreamRequest | null = null;
  flags: string[] = [];
  bytesReceived = 0;
  /** `performance.now()` when the last request byte arrived (null: still streaming). */
  requestEnd: number | null = null;
  /** `performance.now()` when the response headers came back from the upstream. */
  responseStart: number | null = null;
  /** `%RESPONSE_CODE_DETAILS%` when a filter or the manager decided the response. */
  details: string | null = null;
  /** The matched route's name. */
  routeName: string | null = null;
  /** True when the health check filter answered. */
  healthCheck = false;
  /** The request's filter state, once a filter stored an object in it. */
  filterState: FilterState | null = null;
  /** The request's dynamic metadata, once a filter wrote to it. */
  dynamicMetadata: DynamicMetadata | null = null;

  /** Starts collecting for `req` on `conn`. */
  constructor(readonly req: DownstreamRequest, readonly conn: DownstreamConn) {}

  /** Wraps a request body so its bytes are counted as they go upstream. */
  countRequestBody(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const rd = body.getReader();
    return new ReadableStream<Uint8Array>({
      pull: async (ctrl) => {
        const { done, value } = await rd.read();
        if (done) {
          this.requestEnd = performance.now();
          ctrl.close();
        } else {
          this.bytesReceived += value.byteLength;
          ctrl.enqueue(value);
        }
      },
      cancel: (reason) => rd.cancel(reason),
    }, { highWaterMark: 0 });
  }

  /** Request header lookup for `%REQ(...)%`: pseudo-headers, then forwarded, then received. */
  header = (name: string): string | null => {
    switch (name) {
      case ":method":
        return this.req.method;
      case ":path":
        return this.req.path;
      case ":authority":
        return this.req.authority;
      case ":scheme":
        return "http";
    }
    const ur = this.upstreamRequest;
    if (ur !== null) {
      const hs = ur.headers;
      for (let i = 0; i < hs.length; i++) if (hs[i][0] === name) return hs[i][1];
    }
    return this.req.headers.get(name);
  };
}

/** Writes access log lines of one connection manager. */
export class RequestLogger {
  /** Logs to every sink of `sinks`. */
  constructor(readonly sinks: readonly LogSink[]) {}

  /** Starts a request's log context. */
  start(req: DownstreamRequest, conn: DownstreamConn): LogCtx {
    return new LogCtx(req, conn);
  }

  #write(lg: LogCtx, res: ProxyResponse, bytesSent: number) {
    const u = lg.upstreamRequest?.upstream ?? null;
    const flag = res.flag;
    if (flag !== undefined && !lg.flags.includes(flag)) lg.flags.push(flag);
    const upstreamAnswered = u !== null && flag === undefined;
    const r: LogRecord = {
      startMs: lg.startMs,
      protocol: lg.req.h2 ? "HTTP/2" : "HTTP/1.1",
      req: lg.header,
      resp: res.headers,
      trailers: res.trailers?.headers ?? null,
      status: res.status,
      flags: lg.flags,
      bytesReceived: lg.bytesReceived,
      bytesSent,
      durationMs: performance.now() - lg.t0,
      upstreamHost: u === null ? null : hostPort(u.address, u.port),
      upstreamCluster: lg.cluster,
      downstreamRemote: lg.conn.remoteAddr,
      downstreamLocal: lg.conn.localAddr,
      requestDurationMs: lg.req.body === null
        ? 0
        : lg.requestEnd === null
        ? null
        : lg.requestEnd - lg.t0,
      responseDurationMs: upstreamAnswered && lg.responseStart !== null
        ? lg.responseStart - lg.t0
        : null,
      details: lg.details ??
        (upstreamAnswered ? "via_upstream" : DETAILS_OF_FLAG[lg.flags[0]] ?? null),
      routeName: lg.routeName,
      healthCheck: lg.healthCheck,
      filterState: lg.filterState,
      dynamicMetadata: lg.dynamicMetadata,
    };
    for (const s of this.sinks) {
      if (s.filter == null || s.filter(r)) s.file.write(s.format(r));
    }
  }

  /**
   * Returns `res`, logged once it has gone downstream: flag `DC` when the client went away
   * first, `UC` when the upstream body failed.
   */
  finish(lg: LogCtx, res: ProxyResponse): ProxyResponse {
    lg.responseStart ??= performance.now();
    onResponseEnd(res, (sent, end) => {
      if (end !== "complete") {
        const f = end === "body_failed" ? "UC" : "DC";
        if (!lg.flags.includes(f)) lg.flags.push(f);
      }
      this.#write(lg, res, sent);
    });
    return res;
  }
}
