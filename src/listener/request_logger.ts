/**
 * Access logging of HTTP requests: a {@linkcode LogCtx} collects what the connection manager
 * learns about one request (path, authority, route cluster, upstream request, response flags,
 * request body bytes); when the response is returned its body is counted as it streams out and
 * the line is written when the last byte has gone (or the client went away: flag `DC`).
 * Connection managers without access logs never create any of this.
 *
 * @example
 * ```ts ignore
 * const logger = new RequestLogger([{ format, file }]);
 * const lg = logger.start(req, conn);
 * return logger.finish(lg, response);
 * ```
 * @module
 */
import { hostPort } from "../upstream/host.ts";
import { responseFlag } from "../upstream/local_reply.ts";
import type { UpstreamRequest } from "../upstream/upstream_request.ts";
import type { AccessLogFile } from "./access_log_file.ts";
import type { Formatter, LogRecord } from "./access_log_format.ts";
import type { DownstreamConn } from "./http_listener.ts";

/** One logger: a compiled format and its file. */
export interface LogSink {
  format: Formatter;
  file: AccessLogFile;
}

/** What is learned about one request while it is handled. */
export class LogCtx {
  readonly startMs = Date.now();
  readonly t0 = performance.now();
  h2 = false;
  path = "";
  authority = "";
  cluster: string | null = null;
  upstreamRequest: UpstreamRequest | null = null;
  flags: string[] = [];
  bytesReceived = 0;

  /** Starts collecting for `req` on `conn`. */
  constructor(readonly req: Request, readonly conn: DownstreamConn) {}

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
        return this.path;
      case ":authority":
        return this.authority;
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
  start(req: Request, conn: DownstreamConn): LogCtx {
    return new LogCtx(req, conn);
  }

  #write(lg: LogCtx, res: Response, bytesSent: number) {
    const u = lg.upstreamRequest?.upstream ?? null;
    const flag = responseFlag(res);
    if (flag !== undefined && !lg.flags.includes(flag)) lg.flags.push(flag);
    const r: LogRecord = {
      startMs: lg.startMs,
      protocol: lg.h2 ? "HTTP/2" : "HTTP/1.1",
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

  /** Returns `res` with its body counted; the line is written when the body has been sent. */
  finish(lg: LogCtx, res: Response): Response {
    if (res.body === null) {
      this.#write(lg, res, 0);
      return res;
    }
    const rd = res.body.getReader();
    let sent = 0;
    let done = false;
    const end = (flag: string | null) => {
      if (done) return;
      done = true;
      if (flag !== null) lg.flags.push(flag);
      this.#write(lg, res, sent);
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        try {
          const r = await rd.read();
          if (r.done) {
            ctrl.close();
            end(null);
          } else {
            sent += r.value.byteLength;
            ctrl.enqueue(r.value);
          }
        } catch (e) {
          end("UC");
          ctrl.error(e);
        }
      },
      cancel(reason) {
        end("DC");
        return rd.cancel(reason);
      },
    }, { highWaterMark: 0 });
    return new Response(body, { status: res.status, headers: res.headers });
  }
}
