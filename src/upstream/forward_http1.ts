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
import type { UpstreamAttempt, UpstreamRequest } from "./upstream_request.ts";
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

/** The answer of an attempt the router abandoned (it is dropped, never seen downstream). */
export function abandoned(): ProxyResponse {
  return localReply(503, resetBody("connection termination"));
}

/** Tracks one request from start to the end of its response; the attempt the router can reset. */
export class Exchange implements UpstreamAttempt {
  done = false;
  timedOut = false;
  /** Reset by the router ({@linkcode Exchange.abort}) before its answer. */
  aborted = false;
  /** A response head came. */
  answered = false;
  deadline: Deadline | null = null;
  /** HTTP/1.1: the pool, the wait for a connection, and the connection once taken. */
  pool: Http1Pool | null = null;
  handle: AcquireHandle | null = null;
  conn: Http1Connection | null = null;
  /** HTTP/2: resets the stream (RST_STREAM). */
  onAbort: (() => void) | null = null;
  /** `max_stream_duration` of the cluster: runs from the pool's connection to the end. */
  streamDeadline: Deadline | null = null;
  /** The `max_stream_duration` passed: the stream was reset. */
  maxDuration = false;
  /** The request was sent in full (the downstream request was received in full). */
  sent = false;
  /** HTTP/1.1: the reader of the request body while it is sent (cancelled by a reset). */
  bodyReader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** HTTP/2: resets the stream for `max_stream_duration` (and ends the wait for its head). */
  onMaxDuration: (() => void) | null = null;
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
    r.attempt = this;
  }

  /**
   * Resets the attempt before its answer, as Envoy's upstream request reset: the HTTP/1.1
   * connection is closed (`upstream_cx_destroy_local_with_active_rq`), the HTTP/2 stream reset
   * (`upstream_rq_tx_reset`), a wait for a connection given up (`upstream_rq_cancelled`). The
   * router counts the outcome (its timeout, its status).
   */
  abort(): void {
    if (this.done || this.answered || this.aborted) return;
    this.aborted = true;
    const s = this.cluster.stats;
    if (this.conn !== null && this.pool !== null) {
      this.pool.destroyActive(this.conn, true);
      this.bodyReader?.cancel().catch(() => {});
    } else if (this.onAbort !== null) {
      s.rq_tx_reset.inc();
      this.onAbort();
    } else {
      s.rq_cancelled.inc();
      this.handle?.cancel?.();
    }
    this.finish();
  }

  /**
   * Counts the response code of a local reply (no outlier detection event), at `now`
   * (performance clock) when known.
   */
  status(code: number, now?: number): void {
    this.cluster.stats.responseCode(code);
    const ok = code < 500;
    (ok ? this.host.stats.rq_success : this.host.stats.rq_error).inc();
    this.host.recordOutcome(ok, now);
  }

  /**
   * Counts an answer from the host: its status code, and what its headers tell health checking
   * and outlier detection.
   */
  response(code: number, headers: readonly (readonly [string, string])[], now?: number): void {
    this.answered = true;
    this.status(code, now);
    this.cluster.hostAnswered(this.host, code, headers);
  }

  /**
   * Starts the cluster's `max_stream_duration` (if any) once the request has a connection or
   * stream, as Envoy's upstream request does when its pool is ready.
   */
  streamStarted(): void {
    const ms = this.cluster.effective.maxStreamDurationMs;
    if (ms === undefined || this.streamDeadline !== null) return;
    this.streamDeadline = this.cluster.deadlines.add(ms, () => this.#maxDurationReached());
  }

  /**
   * `max_stream_duration` passed (counted `upstream_rq_max_duration_reached`): the stream is
   * reset upstream; before the answer the request ends with {@linkcode maxDurationReply}, after
   * it the body is cut.
   */
  #maxDurationReached(): void {
    if (this.done) return;
    this.maxDuration = true;
    this.cluster.stats.rq_max_duration_reached.inc();
    if (this.conn !== null && this.pool !== null) {
      this.pool.destroyActive(this.conn, true);
      this.bodyReader?.cancel().catch(() => {});
    } else if (this.onMaxDuration !== null) {
      this.cluster.stats.rq_tx_reset.inc();
      this.onMaxDuration();
    }
  }

  /**
   * The local reply of a stream reset by `max_stream_duration` before its answer, as Envoy's
   * router: 504 when the request had been received in full, else 408; flag `UMSDR`. No response
   * code is counted for it.
   */
  maxDurationReply(): ProxyResponse {
    this.finish();
    return localReply(
      this.sent ? 504 : 408,
      "upstream max stream duration reached",
      undefined,
      "UMSDR",
    );
  }

  /** Ends the request (idempotent), at `now` (performance clock) when known. */
  finish(now?: number): void {
    if (this.done) return;
    this.done = true;
    if (this.deadline) this.deadline.cancelled = true;
    if (this.streamDeadline) this.streamDeadline.cancelled = true;
    const s = this.cluster.stats;
    this.cluster.breakers[this.r.priority].requests.dec();
    s.rq_active.dec();
    s.rq_time.record((now ?? performance.now()) - this.t0);
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

  /** Counts a timeout and answers 504 (or the request's alternative, 204). */
  timeout(): ProxyResponse {
    this.countTimeout();
    const status = this.r.timeoutStatus ?? 504;
    this.status(status);
    this.cluster.hostFailed(this.host, "timeout");
    this.finish();
    return localReply(status, UPSTREAM_TIMEOUT);
  }
}

async function writeBody(
  c: Http1Connection,
  r: UpstreamRequest,
  pool: Http1Pool,
  trailers: boolean,
  ex: Exchange,
): Promise<void> {
  const rd = r.body!.getReader();
  ex.bodyReader = rd;
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
  ex.pool = pool;
  ex.handle = handle;
  let conn: Http1Connection | null = null;
  if (r.timeoutMs > 0) {
    ex.deadline = cluster.deadlines.add(r.timeoutMs, () => {
      ex.timedOut = true;
      handle.cancel?.();
      if (conn) pool.destroyActive(conn, true);
      // A request body still arriving is not waited for.
      ex.bodyReader?.cancel().catch(() => {});
    }, ex.t0);
  }
  for (let attempt = 0;; attempt++) {
    try {
      // An idle connection is taken without a promise; otherwise wait for one.
      conn = pool.takeIdle() ?? await pool.acquire(handle);
    } catch (e) {
      if (ex.aborted) return abandoned();
      if (ex.timedOut) return ex.timeout();
      if (e instanceof OverflowError) {
        cluster.stats.rq_pending_overflow.inc();
        ex.status(503);
        ex.finish();
        return cluster.overflowReply();
      }
      return ex.reset("connection failure");
    }
    if (ex.aborted) {
      pool.release(conn, true);
      return abandoned();
    }
    if (ex.timedOut) {
      pool.release(conn, true);
      return ex.timeout();
    }
    ex.conn = conn;
    ex.streamStarted();
    const reused = conn.requests > 0;
    conn.requests++;
    try {
      await conn.writeRequestHead(r);
      if (r.body) await writeBody(conn, r, pool, cluster.effective.http1Trailers === true, ex);
      ex.bodyReader = null;
      if (!ex.maxDuration && !ex.aborted) ex.sent = true;
      const rh = await conn.readHead(r.method);
      return respond(ex, pool, conn, rh.status, rh.headers, rh.close);
    } catch (e) {
      ex.conn = null;
      if (ex.aborted) return abandoned();
      if (ex.maxDuration) return ex.maxDurationReply();
      pool.destroyActive(conn, !(e instanceof EofError));
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
  // One clock reading for what the answer's head settles (outcome, service time, pool, timing).
  const now = performance.now();
  ex.response(status, list, now);
  const headers = buildResponseHeaders(list, ex.t0, now);
  // As Envoy's HTTP/1 codec: trailers are kept only with `enable_trailers`, else dropped.
  const trailers: TrailerSlot | undefined = ex.cluster.effective.http1Trailers
    ? trailerSlot()
    : undefined;
  if (conn.bodyDone()) {
    pool.release(conn, !close, now);
    ex.finish(now);
    return { status, headers, body: null };
  }
  const whole = conn.takeBufferedBody();
  if (whole) {
    pool.release(conn, !close, now);
    ex.finish(now);
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
        pool.destroyActive(conn, !(e instanceof EofError));
        // A route timeout after the response head is not counted as a timeout (as in Envoy):
        // the response was already counted by its status.
        if (!ex.timedOut && !ex.maxDuration) ex.cluster.stats.rq_rx_reset.inc();
        ex.finish();
        ctrl.error(e);
      }
    },
    cancel() {
      if (conn.bodyDone()) {
        // Every byte was read: the response was delivered, not cancelled.
        pool.release(conn, !close);
      } else {
        pool.destroyActive(conn, true);
        ex.cluster.stats.rq_cancelled.inc();
      }
      ex.finish();
    },
  }, { highWaterMark: 0 });
  return trailers === undefined ? { status, headers, body } : { status, headers, body, trailers };
}
