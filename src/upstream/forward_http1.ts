/**
 * One request over an HTTP/1.1 pool: take a connection, write the request (streaming its body),
 * read the response head, and stream the body back; the connection returns to the pool when the
 * body has been read to its end. Counts every per-host and per-cluster request statistic.
 *
 * @example Not run: it needs an upstream server to connect to.
 * ```ts ignore
 * import { forwardHttp1 } from "./forward_http1.ts";
 * const res = await forwardHttp1(cluster, host, request);
 * ```
 * @module
 */
import type { Cluster } from "./cluster.ts";
import type { Host } from "./host.ts";
import { EofError, type Http1Connection, ProtocolError } from "./http1_connection.ts";
import { type AcquireHandle, type Http1Pool, OverflowError } from "./http1_pool.ts";
import { localReply, resetBody, type ResetReason, UPSTREAM_TIMEOUT } from "../http/local_reply.ts";
import { headText, type UpstreamRequest } from "./upstream_request.ts";
import { buildResponseHeaders } from "../http/response_headers.ts";
import type { Deadline } from "./deadline_queue.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import {
  lastChunkWithTrailers,
  type TrailerSlot,
  trailerSlot,
  trailersOf,
} from "../http/trailers.ts";

const CRLF = new Uint8Array([13, 10]);
const encoder = new TextEncoder();
const LAST_CHUNK = encoder.encode("0\r\n\r\n");

/** Tracks one request from start to the end of its response. */
export class Exchange {
  done = false;
  timedOut = false;
  deadline: Deadline | null = null;
  readonly t0 = performance.now();

  /** Starts counting `r` against `cluster` and `host`. */
  constructor(readonly cluster: Cluster, readonly host: Host, readonly r: UpstreamRequest) {
    const s = cluster.stats;
    cluster.breakers[r.priority].requests.inc();
    s.rq_total.inc();
    s.rq_active.inc();
    host.stats.rq_total.inc();
    host.stats.rq_active.inc();
    host.active++;
    r.upstream = host;
  }

  /** Counts the response code of a local reply (no outlier detection event). */
  status(code: number): void {
    this.cluster.stats.responseCode(code);
    const ok = code < 500;
    (ok ? this.host.stats.rq_success : this.host.stats.rq_error).inc();
    this.host.recordOutcome(ok);
  }

  /**
   * Counts an answer from the host: its status code, and what its headers tell health checking
   * and outlier detection.
   */
  response(code: number, headers: readonly (readonly [string, string])[]): void {
    this.status(code);
    this.cluster.hostAnswered(this.host, code, headers);
  }

  /** Ends the request (idempotent). */
  finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.deadline) this.deadline.cancelled = true;
    const s = this.cluster.stats;
    this.cluster.breakers[this.r.priority].requests.dec();
    s.rq_active.dec();
    s.rq_time.record(performance.now() - this.t0);
    this.host.stats.rq_active.dec();
    this.host.active--;
  }

  /** Counts a 503, ends the request and answers with the reset body of `reason`. */
  reset(reason: ResetReason): ProxyResponse {
    this.status(503);
    this.cluster.hostFailed(this.host, reason === "connection failure" ? "connect" : "reset");
    this.finish();
    return localReply(503, resetBody(reason));
  }

  /** Counts a route timeout against the cluster and the host. */
  countTimeout(): void {
    if (this.r.perTryTimeout) this.cluster.stats.s.counter("upstream_rq_per_try_timeout").inc();
    else this.cluster.stats.rq_timeout.inc();
    this.host.stats.rq_timeout.inc();
  }

  /** Counts a timeout and answers 504. */
  timeout(): ProxyResponse {
    this.countTimeout();
    this.status(504);
    this.cluster.hostFailed(this.host, "timeout");
    this.finish();
    return localReply(504, UPSTREAM_TIMEOUT);
  }
}

async function writeBody(
  c: Http1Connection,
  r: UpstreamRequest,
  pool: Http1Pool,
  trailers: boolean,
): Promise<void> {
  const rd = r.body!.getReader();
  const chunked = r.contentLength < 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) break;
    if (value.length === 0) continue;
    if (chunked) {
      await c.writeAll(encoder.encode(value.length.toString(16) + "\r\n"));
      await c.writeAll(value);
      await c.writeAll(CRLF);
    } else await c.writeAll(value);
    pool.countBytes(c);
  }
  if (!chunked) return;
  // Request trailers go out only with enable_trailers (Envoy's HTTP/1 codec drops them else).
  const t = trailers ? r.trailers?.headers ?? null : null;
  await c.writeAll(t === null ? LAST_CHUNK : encoder.encode(lastChunkWithTrailers(t)));
}

/** Forwards `r` to `host` over HTTP/1.1. Never rejects. */
export async function forwardHttp1(
  cluster: Cluster,
  host: Host,
  r: UpstreamRequest,
): Promise<ProxyResponse> {
  const pool = cluster.h1Pool(host, r.priority);
  const ex = new Exchange(cluster, host, r);
  const handle: AcquireHandle = {};
  let conn: Http1Connection | null = null;
  if (r.timeoutMs > 0) {
    ex.deadline = cluster.deadlines.add(r.timeoutMs, () => {
      ex.timedOut = true;
      handle.cancel?.();
      if (conn) pool.destroy(conn, true);
    });
  }
  const head = headText(r);
  for (let attempt = 0;; attempt++) {
    try {
      // An idle connection is taken without a promise; otherwise wait for one.
      conn = pool.takeIdle() ?? await pool.acquire(handle);
    } catch (e) {
      if (ex.timedOut) return ex.timeout();
      if (e instanceof OverflowError) {
        cluster.stats.rq_pending_overflow.inc();
        ex.status(503);
        ex.finish();
        return cluster.overflowReply();
      }
      return ex.reset("connection failure");
    }
    if (ex.timedOut) {
      pool.release(conn, true);
      return ex.timeout();
    }
    const reused = conn.requests > 0;
    conn.requests++;
    try {
      await conn.writeHead(head);
      if (r.body) await writeBody(conn, r, pool, cluster.effective.http1Trailers === true);
      const rh = await conn.readHead(r.method);
      return respond(ex, pool, conn, rh.status, rh.headers, rh.close);
    } catch (e) {
      pool.destroy(conn, !(e instanceof EofError));
      conn = null;
      if (ex.timedOut) return ex.timeout();
      // A kept-alive connection the upstream had already closed: retry once on a new one.
      if (e instanceof EofError && reused && r.body === null && attempt === 0) continue;
      if (e instanceof ProtocolError) cluster.stats.cx_protocol_error.inc();
      else cluster.stats.rq_rx_reset.inc();
      return ex.reset(e instanceof ProtocolError ? "protocol error" : "connection termination");
    }
  }
}

function respond(
  ex: Exchange,
  pool: Http1Pool,
  conn: Http1Connection,
  status: number,
  list: [string, string][],
  close: boolean,
): ProxyResponse {
  if (status < 200 || status > 599) {
    pool.destroy(conn, true);
    return ex.reset("protocol error");
  }
  ex.response(status, list);
  const headers = buildResponseHeaders(list, ex.t0);
  // As Envoy's HTTP/1 codec: trailers are kept only with `enable_trailers`, else dropped.
  const trailers: TrailerSlot | undefined = ex.cluster.effective.http1Trailers
    ? trailerSlot()
    : undefined;
  if (conn.bodyDone()) {
    pool.release(conn, !close);
    ex.finish();
    return { status, headers, body: null };
  }
  const whole = conn.takeBufferedBody();
  if (whole) {
    pool.release(conn, !close);
    ex.finish();
    return { status, headers, body: whole };
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const b = await conn.readBody();
        // Bytes count as they arrive, so a long body shows in the totals while it streams.
        pool.countBytes(conn);
        if (b === null) {
          if (trailers !== undefined) trailers.headers = trailersOf(conn.trailers);
          ctrl.close();
          pool.release(conn, !close);
          ex.finish();
        } else ctrl.enqueue(b);
      } catch (e) {
        pool.destroy(conn, !(e instanceof EofError));
        // A route timeout after the response head is not counted as a timeout (as in Envoy):
        // the response was already counted by its status.
        if (!ex.timedOut) ex.cluster.stats.rq_rx_reset.inc();
        ex.finish();
        ctrl.error(e);
      }
    },
    cancel() {
      if (conn.bodyDone()) {
        // Every byte was read: the response was delivered, not cancelled.
        pool.release(conn, !close);
      } else {
        pool.destroy(conn, true);
        ex.cluster.stats.rq_cancelled.inc();
      }
      ex.finish();
    },
  }, { highWaterMark: 0 });
  return trailers === undefined ? { status, headers, body } : { status, headers, body, trailers };
}
