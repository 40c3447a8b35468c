/**
 * One downstream HTTP/1.1 connection served by our own codec: reads request heads from a read
 * buffer, hands each request to the connection manager as a {@linkcode DownstreamRequest} (body
 * streamed from the connection with back-pressure), and writes the {@linkcode ProxyResponse}
 * back: small responses as one write, bodies of unknown length chunked (close-delimited for
 * HTTP/1.0). With `enable_trailers`, the trailers of chunked requests are kept for the upstream
 * and a chunked response ends with its trailers; without it both are dropped, as in Envoy.
 * Requests on a connection are answered in order (pipelined ones wait in the buffer). No Fetch
 * `Request`/`Response` objects are made on this path.
 *
 * A connection whose first request line is the HTTP/2 preface is handed to `onH2` with the
 * bytes read so far.
 *
 * @example Not run: it serves a connection accepted on a listening socket.
 * ```ts ignore
 * import { serveHttp1 } from "./http1_server.ts";
 * const c = await listener.accept();
 * await serveHttp1(c, { remoteAddr: c.remoteAddr, localAddr: c.localAddr }, handler, {});
 * ```
 * @module
 */
import { type DirectRead, directReader } from "../platform/direct_read.ts";
import { lingerClose } from "./delayed_close.ts";
import { properCaseHead } from "../http/header_case.ts";
import { HeaderMap } from "../http/header_map.ts";
import { StreamReset } from "../http/stream_reset.ts";
import type { ProxyResponse, ResponseEnd } from "../http/proxy_response.ts";
import {
  lastChunkWithTrailers,
  parseTrailerLine,
  type TrailerSlot,
  trailerSlot,
  trailersOf,
} from "../http/trailers.ts";
import { decodeHead, encodeHead, encodeHeadInto, headWriter } from "../http/head_bytes.ts";
import {
  type CodecError,
  DOWNSTREAM_REMOTE_CLOSE,
  type DownstreamRequest,
} from "../http/downstream_request.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import { localReply } from "../http/local_reply.ts";
import { isGrpcRequest, toGrpcLocalReply } from "../http/grpc_local_reply.ts";
import {
  type BodyFraming,
  composeResponseHead,
  MAX_HEAD_BYTES,
  MAX_HEADERS,
  parseRequestHead,
  reasonPhrase,
  type RequestHead,
  responseHead,
  type ResponseHeadOut,
} from "../http/http1_codec.ts";
import {
  countClose,
  type DownstreamLimits,
  headerLimitError,
  type LimitCounters,
  type UnderscoreAction,
  type UnderscoreCounters,
} from "./downstream_limits.ts";
import { ConnectionTimers, type TimerKind } from "./downstream_timers.ts";
import type { Counter } from "../stats/types.ts";

/** Handles one request. */
export type RequestHandler = (
  req: DownstreamRequest,
  conn: DownstreamConn,
) => Promise<ProxyResponse>;

/** What a served connection can be told from outside. */
export interface Http1Control {
  /** True while a request is being handled (the connection is not idle). */
  busy: boolean;
  /** Ask the connection to close once the current response is written. */
  closing: boolean;
  /** True once a request has arrived on the connection. */
  used?: boolean;
  /** Hands the connection over to HTTP/2 with the bytes already read. */
  onH2?: (initial: Uint8Array) => Promise<void>;
  /** The connection manager's limits and timeouts, and their counters (none when unset). */
  limits?: {
    limits: DownstreamLimits;
    counters: LimitCounters;
    drainTimeoutMs?: number;
    /** `delayed_close_timeout` (`delayed_close.ts`); 0: close at once. */
    delayedCloseMs?: number;
  };
  /** `http_protocol_options`: HTTP/1.0 is answered 426 unless accepted (unset: accepted). */
  http10?: { accept: boolean; defaultHost: string };
  /** `header_key_format.proper_case_words`: response header names in Proper-Case. */
  properCase?: boolean;
  /**
   * `enable_trailers`: a chunked response ends with its trailers (RFC 9112 §7.1.2); without
   * it, or when the response is not chunked, they are dropped, as Envoy's HTTP/1 codec does.
   */
  trailers?: boolean;
}

/**
 * The first sizes of a connection's buffers: most request heads fit 4 KiB and most answers'
 * heads (with a small body) 8 KiB, and an idle keep-alive connection holds no more than that.
 * The read buffer grows when a head needs it (up to `max_request_headers_kb`) and to
 * {@linkcode BODY_BUFFER} when a request body is read; the output buffer when an answer needs it
 * (up to {@linkcode MAX_OUT}).
 */
const HEAD_BUFFER = 4 * 1024;
const OUT_BUFFER = 8 * 1024;
/** A request body is read in pieces of up to this many bytes (or the buffer's size if larger). */
const BODY_BUFFER = 16 * 1024;
/** Responses up to this size (head and body) go out in one write. */
const MAX_OUT = 64 * 1024;
const encoder = new TextEncoder();
const CONTINUE = encoder.encode("HTTP/1.1 100 Continue\r\n\r\n");
const CRLF = encoder.encode("\r\n");
const LAST_CHUNK = encoder.encode("0\r\n\r\n");

const noop = () => {};
/** Room kept for a response head in the output buffer beside a body (most heads are smaller). */
const HEAD_ROOM = 4096;
const EMPTY = new Uint8Array(0);

class ClientGone extends Error {}
class MalformedBody extends Error {
  constructor(message: string, readonly status: 400 | 431 = 400) {
    super(message);
  }
}

/** The connection state of one downstream HTTP/1.1 connection. */
class Http1ServerConn {
  buf = new Uint8Array(HEAD_BUFFER);
  start = 0;
  end = 0;
  out = new Uint8Array(OUT_BUFFER);
  /** Told of every read or write (stream activity). */
  activity: () => void = noop;
  /** Counts bytes read and written, when set. */
  bytes: { rx: Counter; tx: Counter } | null = null;
  /** At most this many bytes of a request body are read ahead of the upstream. */
  readAhead = Infinity;
  /** Told when the request body has been read to its end. */
  bodyDone: () => void = noop;
  /** Cancels the response body being copied, if any. */
  abortBody: () => void = noop;
  /** The client closed or reset the connection (seen by a read). */
  gone = false;
  /** Who closed the connection first: the client, the proxy, or nobody yet. */
  closedBy: "remote" | "local" | null = null;
  /** The connection was closed from outside while a response was written to it. */
  cutUnderRequest = false;
  /** Told when the proxy resets the response being written (its body ended early). */
  txReset: () => void = noop;
  /** The read issued while a request is handled (see {@linkcode Http1ServerConn.watch}). */
  #early: Promise<boolean> | null = null;

  constructor(readonly conn: Deno.Conn) {}

  /**
   * Issues the read for the next request while the current one is handled, so a client that
   * goes away is seen at once (`onGone`) rather than when the answer is written. Bytes that
   * arrive (a pipelined request) stay in the buffer for the next {@linkcode Http1ServerConn.fill}.
   * Nothing else may read or move the buffer until that read has ended.
   */
  watch(onGone: () => void): void {
    if (this.#early !== null || this.gone) return;
    if (this.start === this.end) this.start = this.end = 0;
    else if (this.end === this.buf.length) {
      if (this.start === 0) return; // full of pipelined bytes: read when they are taken
      this.buf.copyWithin(0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
    }
    this.#onGone = onGone;
    // An empty buffer is read into whole: no view to make.
    const room = this.end === 0 ? this.buf : this.buf.subarray(this.end);
    const read = this.#reader ??= directReader(this.conn);
    this.#early = read(room).then(this.#earlyRead, this.#earlyFailed);
  }

  /** The early read's reader (the runtime's read op, `direct_read.ts`), made on first use. */
  #reader: DirectRead | null = null;

  /** Told by {@linkcode Http1ServerConn.watch}'s read when the client went away. */
  #onGone: () => void = noop;

  // The reactions of the early read: made once per connection, not per request.
  #earlyRead = (n: number): boolean => {
    this.#early = null;
    if (n === 0) {
      this.gone = true;
      this.closedBy ??= "remote";
      this.#onGone();
      return false;
    }
    this.end += n;
    this.bytes?.rx.inc(n);
    this.activity();
    return true;
  };

  #earlyFailed = (e: unknown): boolean => {
    this.#early = null;
    // A connection closed here (BadResource, Interrupted) is not the client going away.
    if (!(e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted)) {
      this.gone = true;
      this.closedBy ??= "remote";
      this.#onGone();
    }
    return false;
  };

  /**
   * Makes the read buffer at least `size` bytes, its unread bytes moved to the front; not while
   * the early read of {@linkcode Http1ServerConn.watch} owns it.
   */
  reserve(size: number): void {
    if (this.buf.length >= size || this.#early !== null) return;
    const b = new Uint8Array(size);
    b.set(this.buf.subarray(this.start, this.end));
    this.end -= this.start;
    this.start = 0;
    this.buf = b;
  }

  /** Reads more bytes; false at end of stream. Grows the buffer up to `max` when full. */
  fill(max: number, ahead = Infinity): Promise<boolean> {
    // The read issued early (the usual case between requests) is the one to wait for.
    if (this.#early !== null) return this.#early;
    return this.#fill(max, ahead);
  }

  async #fill(max: number, ahead: number): Promise<boolean> {
    if (this.gone) return false;
    if (this.start === this.end) this.start = this.end = 0;
    if (this.end === this.buf.length) {
      if (this.start > 0) {
        this.buf.copyWithin(0, this.start, this.end);
        this.end -= this.start;
        this.start = 0;
      } else if (this.buf.length < max) {
        const b = new Uint8Array(Math.min(max, this.buf.length * 2));
        b.set(this.buf.subarray(0, this.end));
        this.buf = b;
      } else return true; // full: the caller sees no progress and decides
    }
    const room = Math.min(this.buf.length, this.end + ahead);
    const n = await this.conn.read(this.buf.subarray(this.end, room));
    if (n === null) {
      this.closedBy ??= "remote";
      return false;
    }
    this.end += n;
    this.bytes?.rx.inc(n);
    this.activity();
    return true;
  }

  /**
   * Writes every byte of `data`; rejects with `ClientGone` when the connection fails. A write
   * the socket takes whole (the usual case) costs one promise reaction, no async frame.
   */
  write(data: Uint8Array): Promise<void> {
    if (data.length === 0) return Promise.resolve();
    let first: Promise<number>;
    try {
      first = this.conn.write(data);
    } catch (e) {
      return Promise.reject(this.#writeFailed(e));
    }
    return first.then((n) => {
      this.bytes?.tx.inc(n);
      this.activity();
      return n < data.length ? this.#writeRest(data, n) : undefined;
    }, (e) => {
      throw this.#writeFailed(e);
    });
  }

  async #writeRest(data: Uint8Array, from: number): Promise<void> {
    try {
      let off = from;
      while (off < data.length) {
        const n = await this.conn.write(data.subarray(off));
        off += n;
        this.bytes?.tx.inc(n);
        this.activity();
      }
    } catch (e) {
      throw e instanceof ClientGone ? e : this.#writeFailed(e);
    }
  }

  /** Notes who closed the connection after a failed write; the error to throw. */
  #writeFailed(e: unknown): ClientGone {
    // A write on a connection the proxy closed (a listener stopping) fails too: that is not
    // the client's doing, and it happened under the request being answered.
    if (!(e instanceof Deno.errors.BadResource || e instanceof Deno.errors.Interrupted)) {
      this.closedBy ??= "remote";
    } else if (this.closedBy === null) {
      this.closedBy = "local";
      this.cutUnderRequest = true;
    }
    return new ClientGone();
  }

  /**
   * `delayed_close_timeout` ({@linkcode lingerClose}), the read issued by
   * {@linkcode Http1ServerConn.watch} included. True when the time ran out first.
   */
  linger(ms: number): Promise<boolean> {
    return lingerClose(this.conn, ms, this.buf, (n) => this.bytes?.rx.inc(n), this.#early);
  }

  /**
   * Finds the end of the request head (index of CRLFCRLF) at or after `from`, or -1. A head that
   * ends with bare LF line endings (LF LF, or LF CR LF) gives -2: it is answered 400.
   */
  headEnd(from: number): number {
    const b = this.buf;
    for (let i = Math.max(from + 1, this.start + 1); i < this.end; i++) {
      if (b[i] !== 10) continue;
      if (b[i - 1] === 10) return -2;
      if (b[i - 1] === 13 && i >= 3 && b[i - 2] === 10) {
        if (i - 3 >= this.start && b[i - 3] === 13) return i - 3;
        return -2;
      }
    }
    return -1;
  }
}

/**
 * The wait for a request's answer when timeouts may answer first: the handler's answer and the
 * timeout's reply race, the first settles the wait. Made once per connection: its reactions are
 * not closures per request. After a timeout answered, the connection closes once that reply is
 * written, so the late answer of the handler never meets a later wait (`retired` makes sure).
 */
class AnswerRace {
  /** The request waited for. */
  req: DownstreamRequest | null = null;
  /** A timeout answered it. */
  late = false;
  #resolve: ((r: ProxyResponse) => void) | null = null;
  #reject: ((e: unknown) => void) | null = null;
  /** A timeout answered once: no handler answer settles anything on this connection again. */
  #retired = false;

  /** The executor of the wait's promise. */
  start = (resolve: (r: ProxyResponse) => void, reject: (e: unknown) => void): void => {
    this.#resolve = resolve;
    this.#reject = reject;
  };

  /** The handler answered. */
  answered = (r: ProxyResponse): void => {
    const f = this.#resolve;
    if (f === null || this.#retired) return;
    this.#resolve = this.#reject = null;
    f(r);
  };

  /** The handler failed. */
  failed = (e: unknown): void => {
    const f = this.#reject;
    if (f === null || this.#retired) return;
    this.#resolve = this.#reject = null;
    f(e);
  };

  /** A timeout answers with `r` (turned gRPC for a gRPC request), unless the wait is over. */
  expire = (r: ProxyResponse): void => {
    const f = this.#resolve;
    const req = this.req;
    if (f === null || req === null) return;
    this.#resolve = this.#reject = null;
    this.late = this.#retired = true;
    f(isGrpcRequest(req.headers) ? toGrpcLocalReply(r, req.method === "HEAD") : r);
  };
}

/** Where a connection is: between requests, reading a head, in the handler, writing, closed. */
type Phase = "wait" | "head" | "handler" | "write" | "closed";
const isClosed = (s: { phase: Phase }) => s.phase === "closed";

/** The local reply of a stream timeout: its status and Envoy's body. */
function timeoutReply(kind: TimerKind, requestComplete: boolean): ProxyResponse {
  const [status, body] = kind === "header"
    ? [408, "request header timeout"]
    : kind === "request"
    ? [408, "request timeout"]
    : [requestComplete ? 504 : 408, "stream timeout"];
  return localReply(status, body, { connection: "close" });
}

/** Serves requests on `conn` until it closes; never rejects. */
export async function serveHttp1(
  conn: Deno.Conn,
  dc: DownstreamConn,
  handler: RequestHandler,
  ctl: Http1Control,
): Promise<void> {
  const c = new Http1ServerConn(conn);
  const maxHead = ctl.limits?.limits.requestHeadersBytes ?? MAX_HEAD_BYTES;
  const timers = ctl.limits ? new ConnectionTimers(ctl.limits.limits, ctl.limits.counters) : null;
  const st = { phase: "wait" as Phase };
  let body: RequestBody | null = null;
  const race = new AnswerRace();
  const expire = race.expire;
  /** The proxy closed the connection while a request was handled or answered. */
  let localActive = false;
  /** The request in flight was reset toward the client (counted once). */
  let resetSent = false;
  const countTxReset = () => {
    if (resetSent) return;
    resetSent = true;
    ctl.limits?.counters.rqTxReset.inc();
  };
  c.txReset = countTxReset;
  const closeNow = () => {
    if (c.closedBy === null) {
      c.closedBy = "local";
      if (st.phase === "handler" || st.phase === "write") {
        localActive = true;
        countTxReset();
      }
    }
    st.phase = "closed";
    try {
      conn.close();
    } catch { /* closed */ }
  };
  /** Aborts the request in flight (its `signal`), when there is one. */
  let inFlight: StreamReset | null = null;
  // The client went away while its request was handled or answered: as Envoy on a remote close
  // with an active stream, the stream is reset (its upstream attempt with it) and counted.
  const onGone = () => {
    const p = st.phase;
    if (p !== "handler" && p !== "write") return;
    const n = ctl.limits?.counters;
    if (n !== undefined) {
      n.cxDestroyRemoteActiveRq.inc();
      n.cxDestroyActiveRq.inc();
      n.rqRxReset.inc();
    }
    closeNow();
    inFlight?.reset(DOWNSTREAM_REMOTE_CLOSE);
    if (p === "write") c.abortBody();
  };
  const setIdleTimeout = timers === null
    ? undefined
    : (ms: number) => timers.setStreamIdleTimeout(ms);
  c.bodyDone = () => {
    timers?.requestDone();
    c.watch(onGone);
  };
  if (ctl.limits) {
    const { counters, limits } = ctl.limits;
    c.bytes = { rx: counters.cxRxBytes, tx: counters.cxTxBytes };
    c.readAhead = limits.bufferLimitBytes;
  }
  if (timers !== null) {
    c.activity = () => timers.activity();
    timers.onFire = (kind) => {
      if (kind === "idle" || kind === "max_duration") {
        ctl.closing = true;
        if (st.phase === "wait") closeNow();
        return;
      }
      const reply = timeoutReply(kind, body === null || body.done);
      if (st.phase === "head") {
        st.phase = "closed";
        const h = parseRequestHead("");
        writeResponse(c, reply, h, true).catch(noop).finally(closeNow);
      } else if (st.phase === "handler") expire(reply);
      else if (st.phase === "write") {
        closeNow();
        c.abortBody();
      }
    };
    timers.start();
  }
  let first = true;
  let served = 0;
  /** The connection went to the HTTP/2 codec, which counts its close. */
  let handedOver = false;
  /** The connection became a tunnel (upgrade, CONNECT): its end is not a request's. */
  let tunnel = false;
  try {
    for (;;) {
      // Read a request head.
      let he = -1;
      let scan = c.start;
      /** A read just brought bytes (and reported its activity, whose time the timers take). */
      let justRead = false;
      for (;;) {
        // Empty lines before a request line are ignored (RFC 9112 section 2.2).
        while (c.end - c.start >= 2 && c.buf[c.start] === 13 && c.buf[c.start + 1] === 10) {
          c.start += 2;
        }
        if (timers !== null && c.end > c.start && st.phase === "wait") {
          st.phase = "head";
          timers.streamStart(justRead);
        }
        he = c.headEnd(Math.max(c.start, scan));
        if (he !== -1) break;
        if (c.end - c.start > maxHead) break;
        scan = Math.max(c.start, c.end - 3);
        const before = c.start;
        const had = c.end - c.start;
        if (!await c.fill(maxHead + 4)) return;
        justRead = true;
        if (isClosed(st)) return;
        scan -= before - c.start;
        if (c.end - c.start === had) break; // buffer full without a head end
      }
      timers?.headDone();
      ctl.busy = true;
      ctl.used = true;
      let head: RequestHead;
      const headStart = c.start;
      if (he === -2) {
        head = parseRequestHead("");
        head.error = { status: 400, details: "bare LF line ending in the request head" };
        c.start = c.end;
      } else if (he < 0 || he - c.start > maxHead) {
        head = parseRequestHead("");
        head.error = { status: 431, details: "headers too large" };
        c.start = c.end;
      } else {
        head = parseRequestHead(decodeHead(c.buf, c.start, he));
        c.start = he + 4;
        if (head.error === null && ctl.limits) {
          const { limits, counters } = ctl.limits;
          head.error = headerLimitError(head.headers, limits, counters.http1Underscores, "http1");
        }
      }
      if (head.h2Preface) {
        if (first && ctl.onH2) {
          timers?.stop();
          handedOver = true;
          await ctl.onH2(c.buf.slice(headStart, c.end));
          return;
        }
        head.error = { status: 400, details: "unexpected HTTP/2 preface" };
      }
      first = false;
      const h10 = ctl.http10;
      if (h10 !== undefined && head.error === null && head.http10) {
        if (!h10.accept) head.error = { status: 426, details: "HTTP/1.0 is not accepted" };
        else if (head.authority === "" && h10.defaultHost !== "") head.authority = h10.defaultHost;
      }
      body = head.error === null && head.contentLength !== 0
        ? new RequestBody(c, head.contentLength, head.expectContinue)
        : null;
      // Request trailers are kept only with enable_trailers (else read and dropped), as Envoy.
      if (body !== null && head.contentLength < 0 && ctl.trailers === true) {
        body.trailers = trailerSlot();
        const lim = ctl.limits;
        if (lim !== undefined) {
          const l = lim.limits;
          body.maxTrailers = l.maxHeadersCount;
          body.maxTrailerBytes = l.requestHeadersBytes;
          if (l.headersWithUnderscores !== "ALLOW") {
            body.underscores = {
              action: l.headersWithUnderscores,
              counters: lim.counters.http1Underscores,
            };
          }
        }
      }
      if (body === null) timers?.requestDone();
      const ac = new StreamReset();
      inFlight = ac;
      resetSent = false;
      const rb = body;
      let raw: ReadableStream<Uint8Array> | null = null;
      const connect = head.error === null && head.method === "CONNECT";
      const upgradable = head.error === null && head.contentLength === 0 &&
        (connect || isUpgrade(head.headers));
      // Every field is set here, absent ones as undefined: requests keep one object shape.
      const req: DownstreamRequest = {
        method: head.method,
        path: head.path,
        authority: head.authority,
        scheme: dc.tls ? "https" : "http",
        headers: head.headers,
        body: rb === null ? null : rb.stream(),
        contentLength: head.contentLength,
        h2: false,
        error: head.error,
        trailers: rb?.trailers,
        bodyError: rb === null ? undefined : () => rb.error,
        upgrade: upgradable ? () => raw ??= rawStream(c) : undefined,
        setIdleTimeout,
        filterState: undefined,
        signal: ac,
        reset: closeNow,
        clientGone: undefined,
        account: undefined,
      };
      if (!upgradable && rb === null && head.error === null) c.watch(onGone);
      let res: ProxyResponse;
      let timedOut = false;
      st.phase = "handler";
      try {
        const pending = handler(req, dc);
        if (timers === null) res = await pending;
        else {
          // Whichever comes first answers: the handler, or a timeout through `expire`.
          race.req = req;
          race.late = false;
          const answer = new Promise<ProxyResponse>(race.start);
          pending.then(race.answered, race.failed);
          res = await answer;
          race.req = null;
          if (race.late) {
            // A timeout answered first; the handler's answer is dropped when it comes.
            timedOut = true;
            pending.then((late) => {
              if (late.body instanceof ReadableStream) late.body.cancel().catch(noop);
            }, noop);
          }
        }
      } catch {
        res = { status: 500, headers: new HeaderMap(), body: null };
      }
      if (isClosed(st)) {
        // Reset before its answer: nothing is written; the answer's end is still reported.
        if (res.body instanceof ReadableStream) res.body.cancel().catch(noop);
        res.onEnd?.(0, c.gone ? "client_gone" : "complete");
        return;
      }
      if (raw !== null) {
        // The connection's bytes now belong to the upgraded exchange: it ends with it.
        tunnel = true;
        timers?.requestDone();
        if (res.status === 101) await writeSwitched(c, res, "101 Switching Protocols");
        else if (connect && res.status >= 200 && res.status < 300) {
          // A CONNECT answered 2xx: the connection is a tunnel from here on (no body framing).
          res.headers.delete("content-length");
          res.headers.delete("transfer-encoding");
          await writeSwitched(c, res, `${res.status} ${reasonPhrase(res.status)}`);
        } else await writeResponse(c, res, head, true);
        return;
      }
      st.phase = "write";
      timers?.requestDone();
      served++;
      const max = ctl.limits?.limits.maxRequestsPerConnection ?? 0;
      let close = timedOut || !head.keepAlive || ctl.closing ||
        res.headers.get("connection") === "close" || (body !== null && !body.done);
      if (max > 0 && served >= max) {
        if (!close) ctl.limits!.counters.cxMaxRequestsReached.inc();
        close = true;
      }
      const keep = await writeResponse(
        c,
        res,
        head,
        close,
        ctl.properCase === true,
        ctl.trailers === true ? res.trailers : undefined,
      );
      ctl.busy = false;
      inFlight = null;
      if (isClosed(st)) return;
      st.phase = "wait";
      // The response's last write reported its activity just now.
      timers?.streamEnd(!keep, true);
      if (!keep) return;
      if (body !== null && !body.done) return;
      body = null;
      if (ctl.closing) return;
    }
  } catch {
    // Client gone or connection closed under us: nothing more to do.
  } finally {
    ctl.busy = false;
    timers?.stop();
    const delayMs = ctl.limits?.delayedCloseMs ?? 0;
    if (
      delayMs > 0 && !handedOver && !tunnel && st.phase !== "closed" && c.closedBy === null &&
      !c.gone
    ) {
      c.closedBy = "local";
      if (await c.linger(delayMs)) ctl.limits!.counters.cxDelayedCloseTimeout.inc();
    }
    try {
      conn.close();
    } catch { /* already closed */ }
    const n = ctl.limits?.counters;
    if (n !== undefined && !handedOver) {
      // A client that closed under a request was counted when it was seen (`onGone`).
      const active = !tunnel && (st.phase === "handler" || st.phase === "write");
      const under = localActive || c.cutUnderRequest || (c.closedBy === null && active);
      countClose(n, c.closedBy ?? "local", under);
    }
  }
}

function isUpgrade(h: Headers): boolean {
  const u = h.get("upgrade");
  const c = h.get("connection");
  return u !== null && u !== "" && c !== null && /(^|,)\s*upgrade\s*(,|$)/i.test(c);
}

/** The bytes after the request head, as they arrive. */
function rawStream(c: Http1ServerConn): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      if (c.start === c.end) {
        c.start = c.end = 0;
        let n: number | null = null;
        try {
          n = await c.conn.read(c.buf);
        } catch { /* closed */ }
        if (n === null) return ctrl.close();
        c.end = n;
      }
      ctrl.enqueue(c.buf.slice(c.start, c.end));
      c.start = c.end;
    },
  }, { highWaterMark: 0 });
}

/** Writes a 101 (or CONNECT 2xx) head as the handler made it, then the tunnelled bytes. */
async function writeSwitched(c: Http1ServerConn, res: ProxyResponse, line: string): Promise<void> {
  let text = `HTTP/1.1 ${line}\r\n`;
  res.headers.forEach((v, k) => text += k + ": " + v + "\r\n");
  let sent = 0;
  let how: ResponseEnd = "complete";
  try {
    await c.write(encodeHead(text + "\r\n"));
    if (res.body instanceof ReadableStream) {
      const rd = res.body.getReader();
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await rd.read();
        } catch {
          how = "body_failed";
          break;
        }
        if (r.done) break;
        await c.write(r.value);
        sent += r.value.byteLength;
      }
    }
  } catch {
    how = "client_gone";
  } finally {
    res.onEnd?.(sent, how);
  }
}

/** An output buffer for `want` bytes: `out`'s size doubled until it fits (at most MAX_OUT). */
function outBuffer(out: Uint8Array, want: number): Uint8Array<ArrayBuffer> {
  let n = out.length;
  while (n < want) n *= 2;
  return new Uint8Array(Math.min(n, MAX_OUT));
}

/**
 * Writes `res`; true when the connection may serve another request. Reports the end to
 * `res.onEnd`.
 */
async function writeResponse(
  c: Http1ServerConn,
  res: ProxyResponse,
  head: RequestHead,
  close: boolean,
  properCase = false,
  trailers?: TrailerSlot,
): Promise<boolean> {
  const body = res.body;
  const bytes = body instanceof Uint8Array ? body : null;
  const bodyLength = bytes !== null ? bytes.byteLength : body === null ? -2 : -1;
  // The head goes straight into the output buffer as bytes; as text only when it is respelled
  // (Proper-Case) or does not fit.
  let h: ResponseHeadOut | null = null;
  let n = -1;
  if (!properCase) {
    // Room for the body too, so that head and body leave in one write.
    const want = (bytes === null ? 0 : bytes.byteLength) + HEAD_ROOM;
    if (c.out.length < want && want <= MAX_OUT) c.out = outBuffer(c.out, want);
    const w = headWriter.reset(c.out);
    h = composeResponseHead(
      res.status,
      res.headers,
      bodyLength,
      head.method,
      head.http10,
      close,
      w.put,
    );
    n = w.pos;
    w.reset(EMPTY);
  }
  if (h === null || n < 0) {
    h = responseHead(res.status, res.headers, bodyLength, head.method, head.http10, close);
    if (properCase) h.text = properCaseHead(h.text);
  }
  let sent = 0;
  let how: ResponseEnd = "complete";
  try {
    if (n < 0) {
      const total = h.text.length + (bytes === null ? 0 : bytes.byteLength);
      if (c.out.length < total && total <= MAX_OUT) c.out = outBuffer(c.out, total);
      n = encodeHeadInto(h.text, c.out);
    }
    if (h.framing === "none" || bytes !== null) {
      // The whole response is known: one write when it fits the output buffer.
      if (h.framing === "length" && bytes !== null) {
        if (n >= 0 && n + bytes.byteLength <= c.out.length) {
          c.out.set(bytes, n);
          await c.write(c.out.subarray(0, n + bytes.byteLength));
        } else {
          await c.write(n >= 0 ? c.out.subarray(0, n) : encodeHead(h.text));
          await c.write(bytes);
        }
        sent = bytes.byteLength;
      } else await c.write(n >= 0 ? c.out.subarray(0, n) : encodeHead(h.text));
      if (body instanceof ReadableStream) body.cancel().catch(() => {});
      return !close;
    }
    await c.write(n >= 0 ? c.out.subarray(0, n) : encodeHead(h.text));
    const report = (n: number, e: ResponseEnd) => {
      sent = n;
      how = e;
    };
    const stream = body as ReadableStream<Uint8Array>;
    return await pipeBody(c, stream, h.framing, h.length, report, trailers) && !close &&
      h.framing !== "close";
  } catch (e) {
    if (how === "complete") how = "client_gone";
    if (!(e instanceof ClientGone)) throw e;
    return false;
  } finally {
    res.onEnd?.(sent, how);
  }
}

/**
 * Copies a streamed body to the client in the given framing; false when it ended early (then the
 * connection must close). `report` learns the bytes sent and how it ended.
 */
async function pipeBody(
  c: Http1ServerConn,
  body: ReadableStream<Uint8Array>,
  framing: BodyFraming,
  length: number,
  report: (sent: number, how: ResponseEnd) => void,
  trailers?: TrailerSlot,
): Promise<boolean> {
  const rd = body.getReader();
  c.abortBody = () => void rd.cancel().catch(noop);
  const chunked = framing === "chunked";
  let sent = 0;
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await rd.read();
    } catch {
      if (!c.gone) c.txReset();
      report(sent, c.gone ? "client_gone" : "body_failed");
      return false;
    }
    if (r.done) break;
    let piece = r.value;
    if (framing === "length" && sent + piece.byteLength > length) {
      piece = piece.subarray(0, length - sent);
    }
    try {
      await writePiece(c, piece, chunked);
    } catch (e) {
      report(sent, "client_gone");
      rd.cancel().catch(() => {});
      throw e;
    }
    sent += piece.byteLength;
    report(sent, "complete");
    if (framing === "length" && sent >= length) {
      rd.cancel().catch(() => {});
      break;
    }
  }
  if (framing === "length" && sent < length) {
    if (!c.gone) c.txReset();
    report(sent, c.gone ? "client_gone" : "body_failed");
    return false;
  }
  if (chunked) {
    // The upstream filled the trailers before it ended the body.
    const t = trailers?.headers ?? null;
    await c.write(t === null ? LAST_CHUNK : encoder.encode(lastChunkWithTrailers(t)));
  }
  return true;
}

async function writePiece(c: Http1ServerConn, piece: Uint8Array, chunked: boolean) {
  if (piece.byteLength === 0) return;
  if (!chunked) return await c.write(piece);
  await c.write(encoder.encode(piece.byteLength.toString(16) + "\r\n"));
  await c.write(piece);
  await c.write(CRLF);
}

/** A request body read from the connection buffer: content-length or chunked. */
class RequestBody {
  done = false;
  /** Set when the body turned out malformed (the request is then answered 400). */
  error: CodecError | null = null;
  /** Where the trailers go, when they are kept. */
  trailers?: TrailerSlot;
  /** Kept trailers are held to the header limits (`max_headers_count`, `max_request_headers_kb`). */
  maxTrailers = MAX_HEADERS;
  maxTrailerBytes = MAX_HEAD_BYTES;
  /** Kept trailers are held to `headers_with_underscores_action` too, as Envoy's codec holds them. */
  underscores: { action: UnderscoreAction; counters: UnderscoreCounters } | null = null;
  #remaining: number;
  #chunkLeft = -1; // -1: expect a size line; -2: expect CRLF after data
  #continue: boolean;

  constructor(readonly c: Http1ServerConn, length: number, expectContinue: boolean) {
    this.#remaining = length;
    this.#continue = expectContinue;
  }

  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (ctrl) => {
        try {
          const piece = await this.#next();
          if (piece === null) ctrl.close();
          else ctrl.enqueue(piece);
        } catch (e) {
          if (e instanceof MalformedBody) this.error = { status: e.status, details: e.message };
          ctrl.error(e);
        }
      },
    }, { highWaterMark: 0 });
  }

  async #more(): Promise<void> {
    const c = this.c;
    c.reserve(BODY_BUFFER);
    if (!await c.fill(c.buf.length, c.readAhead)) throw new Error("client closed during the body");
  }

  async #next(): Promise<Uint8Array | null> {
    if (this.done) return null;
    if (this.#continue) {
      this.#continue = false;
      await this.c.write(CONTINUE);
    }
    const c = this.c;
    if (this.#remaining >= 0) {
      if (c.start === c.end) await this.#more();
      const n = Math.min(this.#remaining, c.end - c.start);
      const out = c.buf.slice(c.start, c.start + n);
      c.start += n;
      this.#remaining -= n;
      if (this.#remaining === 0) {
        this.done = true;
        c.bodyDone();
      }
      return out;
    }
    for (;;) {
      if (this.#chunkLeft > 0) {
        if (c.start === c.end) await this.#more();
        const n = Math.min(this.#chunkLeft, c.end - c.start);
        const out = c.buf.slice(c.start, c.start + n);
        c.start += n;
        this.#chunkLeft -= n;
        if (this.#chunkLeft === 0) this.#chunkLeft = -2;
        return out;
      }
      if (this.#chunkLeft === -2) {
        if ((await this.#line()) !== "") throw new MalformedBody("missing CRLF after chunk data");
        this.#chunkLeft = -1;
      }
      const line = await this.#line();
      // At most 13 hex digits: every size stays a safe integer.
      const m = /^([0-9a-fA-F]{1,13})[ \t]*(?:;[^\r\n]*)?$/.exec(line);
      if (!m) throw new MalformedBody("invalid chunk size");
      const size = parseInt(m[1], 16);
      if (size === 0) {
        // The trailer section, up to the empty line: kept when asked for, else dropped.
        const slot = this.trailers;
        const fields: [string, string][] = [];
        let bytes = 0;
        for (let t = await this.#line(); t !== ""; t = await this.#line()) {
          if (slot === undefined) continue;
          const f = parseTrailerLine(t);
          if (f === null) throw new MalformedBody("malformed trailer field");
          bytes += t.length + 2;
          const u = this.underscores;
          if (u !== null && f[0].includes("_")) {
            if (u.action === "REJECT_REQUEST") {
              u.counters.rejected.inc();
              throw new MalformedBody("http1.unexpected_underscore");
            }
            u.counters.dropped.inc();
            continue;
          }
          if (fields.length >= this.maxTrailers || bytes > this.maxTrailerBytes) {
            throw new MalformedBody("trailers too large", 431);
          }
          fields.push(f);
        }
        if (slot !== undefined) slot.headers = trailersOf(fields);
        this.done = true;
        c.bodyDone();
        return null;
      }
      this.#chunkLeft = size;
    }
  }

  async #line(): Promise<string> {
    const c = this.c;
    for (;;) {
      const i = c.buf.indexOf(10, c.start);
      if (i >= 0 && i < c.end) {
        if (i === c.start || c.buf[i - 1] !== 13) {
          throw new MalformedBody("bare LF in chunked body");
        }
        const s = decodeHead(c.buf, c.start, i - 1);
        c.start = i + 1;
        return s;
      }
      if (c.end - c.start >= 4096) throw new MalformedBody("chunk line too long");
      await this.#more();
    }
  }
}
