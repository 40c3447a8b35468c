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
import { hostPort } from "../upstream/host.ts";
import { onResponseEnd, type ProxyResponse } from "../http/proxy_response.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import type { AccessLogFile } from "./access_log_file.ts";
import type { Formatter, LogRecord } from "./access_log_format.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import type { DownstreamRequest } from "../http/downstream_request.ts";

/** One logger: a compiled format and its file. */
export interface LogSink {
  format: Formatter;
  file: AccessLogFile;
}

/** What is learned about one request while it is handled. */
export class LogCtx {
  readonly startMs = Date.now();
  readonly t0 = performance.now();
  cluster: string | null = null;
  upstreamRequest: UpstreamRequest | null = null;
  flags: string[] = [];
  bytesReceived = 0;

  /** Starts collecting for `req` on `conn`. */
  constructor(readonly req: DownstreamRequest, readonly conn: DownstreamConn) {}

  /** Wraps a request body so its bytes are counted as they go upstream. */
  countRequestBody(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const rd = body.getReader();
    return new ReadableStream<Uint8Array>({
      pull: async (ctrl) => {
        const { done, value } = await rd.read();
        if (done) ctrl.close();
        else {
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
    const r: LogRecord = {
      startMs: lg.startMs,
      protocol: lg.req.h2 ? "HTTP/2" : "HTTP/1.1",
      req: lg.header,
      resp: res.headers,
      status: res.status,
      flags: lg.flags,
      bytesReceived: lg.bytesReceived,
      bytesSent,
      durationMs: performance.now() - lg.t0,
      upstreamHost: u === null ? null : hostPort(u.address, u.port),
      upstreamCluster: lg.cluster,
      downstreamRemote: lg.conn.remoteAddr,
      downstreamLocal: lg.conn.localAddr,
    };
    for (const s of this.sinks) s.file.write(s.format(r));
  }

  /**
   * Returns `res`, logged once it has gone downstream: flag `DC` when the client went away
   * first, `UC` when the upstream body failed.
   */
  finish(lg: LogCtx, res: ProxyResponse): ProxyResponse {
    onResponseEnd(res, (sent, end) => {
      if (end !== "complete") lg.flags.push(end === "body_failed" ? "UC" : "DC");
      this.#write(lg, res, sent);
    });
    return res;
  }
}
