/**
 * Upstream HTTP/2 with prior knowledge (plain text or TLS) through `node:http2` client sessions
 * per host and priority, opened lazily, each counted as a connection, retired after
 * `max_requests_per_connection` streams, after `idle_timeout` without streams (default 1 h) and
 * after `max_connection_duration` (streams in flight finish first). A session carries at most `max_concurrent_streams`
 * streams at once (`http2_protocol_options`, also sent in its SETTINGS; the upstream's own
 * SETTINGS lower it): a stream that finds every session full opens another session, or waits
 * for a free stream when the `max_connections` circuit breaker allows no more, as Envoy's pool
 * does. Streams are limited by the cluster's `max_requests`. A session's connection window is
 * `initial_connection_window_size`, Envoy's 256 MiB when unset (never the 64 KiB of HTTP/2's
 * initial window: with that, 32 streams of 2 KiB in flight used it up and the upstream waited for
 * a WINDOW_UPDATE); each stream's window stays `initial_stream_window_size` (64 KiB when unset),
 * so a stream whose body is not read still holds back its upstream.
 *
 * @example Not run: it needs an upstream server to connect to (`pool`, HTTP/2).
 * ```ts ignore
 * const r = await pool.request([[":method", "GET"], [":path", "/"]], null);
 * ```
 * @module
 */
import { bindOptions, clientCert } from "./transport.ts";
import type http2 from "node:http2";
import { HTTP2 } from "./http2_module.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { CircuitBreaker } from "./circuit_breaker.ts";
import type { ClusterStats } from "./cluster_stats.ts";
import type { Host } from "./host.ts";
import { ConnectError } from "./transport.ts";
import { type TrailerSlot, trailerSlot, trailersOf } from "../http/trailers.ts";
import { H2_DEFAULTS } from "../http/h2_defaults.ts";

/** One open session and its stream counts. */
interface Session {
  s: http2.ClientHttp2Session;
  /** Streams opened on it so far. */
  streams: number;
  /** Streams open on it now. */
  active: number;
  openedAt: number;
  ready: Promise<void>;
  dead: boolean;
  /** Takes no new streams (its `max_requests_per_connection` or duration is used up). */
  retired: boolean;
  /**
   * Armed while no stream is open (`idle_timeout`); left armed when a stream opens, it looks
   * again when it runs (`idleSince`), so a session that is busy and idle by turns does not set
   * a timer per stream.
   */
  idle?: ReturnType<typeof setTimeout>;
  /** When its last stream ended (`performance.now()`). */
  idleSince: number;
  /** Runs from the open (`max_connection_duration`). */
  duration?: ReturnType<typeof setTimeout>;
}

/** The largest stream count HTTP/2 allows (Envoy's default `max_concurrent_streams`). */
const MAX_STREAMS = 2147483647;

/** An HTTP/2 response head and body. */
export interface H2Response {
  status: number;
  headers: [string, string][];
  /** The body: all of it when it came whole with the head, else a stream. */
  body: Uint8Array | ReadableStream<Uint8Array> | null;
  stream: http2.ClientHttp2Stream;
  /** The response trailers, filled when they arrive (before the body ends). */
  trailers: TrailerSlot;
  /** The response head ended the stream (no body, no trailers: a gRPC trailers-only answer). */
  endStream?: boolean;
  /** Runs `fn` once the stream has closed (at once when it already has). */
  onClose(fn: () => void): void;
}

/** HTTP/2 sessions of one host. */
export class Http2Pool {
  #all = new Set<Session>();
  #closed = false;
  /** Streams waiting for a free stream of a session (no session may be added). */
  #waiting: (() => void)[] = [];

  /** Creates the pool of `host`. */
  constructor(
    readonly cluster: EffectiveCluster,
    readonly host: Host,
    readonly stats: ClusterStats,
    readonly cb: CircuitBreaker,
  ) {
    // Loading starts with the pool, so the first stream seldom waits for it.
    HTTP2.load().catch(() => {});
  }

  #open(): Session {
    const s = this.stats;
    const hs = this.host.stats;
    const tls = this.cluster.tls;
    const url = `${tls ? "https" : "http"}://${this.host.key}`;
    // localAddress/localPort reach the socket (checked on Deno 2.9.1); the typings omit them.
    const sess = HTTP2.get().connect(url, {
      ...(tls
        ? {
          ca: tls.trustedCa?.length ? tls.trustedCa : undefined,
          rejectUnauthorized: !!tls.trustedCa?.length,
          servername: tls.sni || undefined,
          ALPNProtocols: tls.alpn?.length ? tls.alpn : ["h2"],
          ...clientCert(tls) ?? {},
        }
        : {}),
      ...bindOptions(this.cluster.upstreamBind),
      ...h2SettingsOptions(this.cluster.http2Settings),
      // max_headers_count: a response head with more fields resets its stream (the
      // pseudo-header :status is one more entry).
      ...(this.cluster.maxHeadersCount !== undefined
        ? { maxHeaderListPairs: Math.max(4, this.cluster.maxHeadersCount + 1) }
        : {}),
    } as http2.SecureClientSessionOptions);
    const t0 = performance.now();
    const rec: Session = {
      s: sess,
      streams: 0,
      active: 0,
      openedAt: t0,
      idleSince: t0,
      ready: Promise.resolve(),
      dead: false,
      retired: false,
    };
    this.#all.add(rec);
    const d = this.cluster.maxConnectionDurationMs;
    if (d > 0) {
      rec.duration = setTimeout(() => {
        this.stats.cx_max_duration_reached.inc();
        this.#retire(rec);
      }, d);
    }
    this.cb.connections.inc();
    s.cx_total.inc();
    s.cx_http2_total.inc();
    s.cx_active.inc();
    hs.cx_total.inc();
    hs.cx_active.inc();
    let connected = false;
    rec.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        s.cx_connect_timeout.inc();
        sess.destroy();
        reject(new ConnectError("timeout", "connect timeout"));
      }, this.cluster.connectTimeoutMs);
      sess.once("connect", () => {
        clearTimeout(timer);
        sess.setLocalWindowSize(
          this.cluster.http2Settings?.initialConnectionWindowSize ??
            H2_DEFAULTS.initialConnectionWindowSize,
        );
        connected = true;
        s.cx_connect_ms.record(performance.now() - t0);
        resolve();
      });
      sess.once("error", (e: Error) => {
        clearTimeout(timer);
        if (!connected) reject(new ConnectError("failure", e.message));
      });
      sess.once("close", () => {
        clearTimeout(timer);
        if (!connected) reject(new ConnectError("failure", "connection closed"));
      });
    });
    rec.ready.catch(() => {
      s.cx_connect_fail.inc();
      hs.cx_connect_fail.inc();
    });
    sess.on("error", () => {});
    sess.once("close", () => this.#gone(rec));
    return rec;
  }

  #gone(rec: Session) {
    if (!this.#all.delete(rec)) return;
    rec.dead = true;
    clearTimeout(rec.idle);
    clearTimeout(rec.duration);
    this.#wake();
    const s = this.stats;
    s.cx_active.dec();
    this.host.stats.cx_active.dec();
    s.cx_destroy.inc();
    s.cx_length_ms.record(performance.now() - rec.openedAt);
    this.cb.connections.dec();
  }

  /** The streams a session may carry at once: the configured limit, lowered by the upstream's. */
  #limit(rec: Session): number {
    const mine = this.cluster.http2Settings?.maxConcurrentStreams ?? MAX_STREAMS;
    const theirs = rec.s.remoteSettings?.maxConcurrentStreams ?? MAX_STREAMS;
    return Math.max(1, Math.min(mine, theirs));
  }

  /** A session that takes a new stream now, if any. */
  #free(): Session | null {
    for (const r of this.#all) {
      if (r.dead || r.retired || r.s.closed || r.s.destroyed) continue;
      if (r.active < this.#limit(r)) return r;
    }
    return null;
  }

  /** True when some session is open for new streams (full or not). */
  #anyOpen(): boolean {
    for (const r of this.#all) {
      if (!r.dead && !r.retired && !r.s.closed && !r.s.destroyed) return true;
    }
    return false;
  }

  /** Starts the idle time of a session without streams (`idle_timeout`). */
  #idleFrom(rec: Session): void {
    const t = this.cluster.upstreamIdleTimeoutMs;
    if (t <= 0) return;
    rec.idleSince = performance.now();
    rec.idle ??= setTimeout(() => this.#idleCheck(rec, t), t);
  }

  /** Retires `rec` when it has been without streams for `t` ms; else waits for the rest. */
  #idleCheck(rec: Session, t: number): void {
    rec.idle = undefined;
    if (rec.active > 0 || rec.dead) return;
    const left = rec.idleSince + t - performance.now();
    if (left > 0) {
      rec.idle = setTimeout(() => this.#idleCheck(rec, t), Math.ceil(left));
      return;
    }
    this.stats.cx_idle_timeout.inc();
    this.#retire(rec);
  }

  /** Takes no new streams on `rec`; closes it (GOAWAY) once its streams are done. */
  #retire(rec: Session): void {
    rec.retired = true;
    if (rec.active === 0 && !rec.dead) rec.s.close();
  }

  /** Lets the first waiting stream look again (a stream ended or a session went away). */
  #wake(): void {
    this.#waiting.shift()?.();
  }

  /**
   * The session for the next stream, its stream already counted: a free one, else a new one
   * while the `max_connections` circuit breaker allows (one at least), else the first to free a
   * stream.
   */
  async #session(): Promise<Session> {
    if (!HTTP2.loaded) await HTTP2.load();
    for (;;) {
      if (this.#closed) throw new ConnectError("failure", "pool closed");
      let rec = this.#free();
      if (rec === null && (!this.#anyOpen() || this.cb.connections.canCreate())) {
        if (this.#all.size > 0 && !this.cb.connections.canCreate()) this.stats.cx_overflow.inc();
        rec = this.#open();
      }
      if (rec !== null) {
        rec.streams++;
        rec.active++;
        return rec;
      }
      this.stats.cx_overflow.inc();
      await new Promise<void>((r) => this.#waiting.push(r));
    }
  }

  /**
   * Opens a stream and resolves with the response head; rejects on connect failure or reset.
   * `requestTrailers`, filled before `body` ends, go out after it (a HEADERS frame that ends the
   * stream).
   */
  async request(
    headers: Record<string, string | string[]>,
    body: ReadableStream<Uint8Array> | null,
    onStream: (st: http2.ClientHttp2Stream) => void,
    requestTrailers?: TrailerSlot,
  ): Promise<H2Response> {
    const current = await this.#session();
    /** Run once the stream has closed (see `H2Response.onClose`); made on first use. */
    let closeWaiters: (() => void)[] | null = null;
    /** Rejects the wait for the response head while it lasts. */
    let headFailed: ((e: Error) => void) | null = null;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      current.active--;
      // A retired session closes once its last stream is done; another waits idle.
      if (current.active === 0) {
        if (current.retired) current.s.close();
        else this.#idleFrom(current);
      }
      this.#wake();
      // The reason is made only when it is needed: an Error captures a stack.
      if (headFailed !== null) headFailed(new Error("stream reset before headers"));
      if (closeWaiters !== null) { for (const fn of closeWaiters.splice(0)) fn(); }
    };
    const max = this.cluster.maxRequestsPerConnection;
    if (max > 0 && current.streams >= max) {
      current.retired = true;
      this.stats.cx_max_requests.inc();
    }
    try {
      await current.ready;
    } catch (e) {
      end();
      throw e;
    }
    const withTrailers = body !== null && requestTrailers !== undefined;
    const st = current.s.request(headers, {
      endStream: body === null,
      waitForTrailers: withTrailers,
    });
    if (withTrailers) {
      // No trailers came after all: an empty set ends the stream with an empty DATA frame.
      st.once("wantTrailers", () => st.sendTrailers(headerRecord(requestTrailers.headers)));
    }
    // Each of these events comes once per stream: plain listeners, without the wrapper and the
    // removal of `once`.
    st.on("close", end);
    const trailers = trailerSlot();
    st.on("trailers", (t: http2.IncomingHttpHeaders) => {
      trailers.headers = trailersOf(headerList(t));
    });
    onStream(st);
    if (body) pump(body, st);
    let endStream = false;
    let early: EarlyBody | null = null;
    const resHeaders = await new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
      headFailed = reject;
      st.on("response", (h: http2.IncomingHttpHeaders, flags: number) => {
        headFailed = null;
        endStream = (flags & 1) !== 0;
        // What arrives before the head is handed on is kept: a small body often comes whole
        // with its head, and then goes on as bytes rather than as a stream.
        if (!endStream) early = collectEarly(st);
        resolve(h);
      });
      st.on("error", reject);
    });
    const status = Number(resHeaders[":status"]);
    const onClose = (fn: () => void) => ended ? fn() : void (closeWaiters ??= []).push(fn);
    return {
      status,
      headers: headerList(resHeaders),
      body: wholeBody(st, early, resHeaders, trailers) ?? toWeb(st, early, onClose),
      stream: st,
      trailers,
      endStream,
      onClose,
    };
  }

  /** Closes every session. */
  close(): void {
    this.#closed = true;
    for (const w of this.#waiting.splice(0)) w();
    for (const r of [...this.#all]) {
      r.s.destroy();
      this.#gone(r);
    }
  }
}

/** The fields of an HTTP/2 header block, pseudo-headers left out. */
function headerList(h: http2.IncomingHttpHeaders): [string, string][] {
  const list: [string, string][] = [];
  for (const k in h) {
    const v = h[k];
    // 58: ":" (a pseudo-header)
    if (k.charCodeAt(0) === 58 || v === undefined) continue;
    if (Array.isArray(v)) { for (const x of v) list.push([k, x]); }
    else list.push([k, String(v)]);
  }
  return list;
}

/** Trailers as `node:http2` takes them (repeated names as arrays). */
function headerRecord(h: Headers | null): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  h?.forEach((v, k) => {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  });
  return out;
}

async function pump(body: ReadableStream<Uint8Array>, st: http2.ClientHttp2Stream) {
  const rd = body.getReader();
  try {
    for (;;) {
      const { done, value } = await rd.read();
      if (done) break;
      if (!st.write(value)) await new Promise((r) => st.once("drain", r));
    }
    st.end();
  } catch {
    st.close(HTTP2.get().constants.NGHTTP2_CANCEL);
  }
}

/** Body pieces that arrived between a response head and the hand-over of its body. */
interface EarlyBody {
  chunks: Uint8Array[];
  size: number;
  /** Stops collecting (the body's own reader takes over). */
  stop(): void;
}

/** Above this many early bytes the stream pauses until its body is read. */
const EARLY_LIMIT = 65536;

/** Collects the body pieces of `st` from its response head on. */
function collectEarly(st: http2.ClientHttp2Stream): EarlyBody {
  const e: EarlyBody = { chunks: [], size: 0, stop: () => st.off("data", onData) };
  const onData = (d: Uint8Array) => {
    e.chunks.push(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
    e.size += d.byteLength;
    if (e.size >= EARLY_LIMIT) st.pause();
  };
  st.on("data", onData);
  return e;
}

/**
 * The whole body as bytes when all of it arrived with the head: the stream has ended without
 * trailers and the body has the declared `content-length` (so the downstream framing is the
 * same as for a streamed body). Else null (the body streams).
 */
function wholeBody(
  st: http2.ClientHttp2Stream,
  early: EarlyBody | null,
  h: http2.IncomingHttpHeaders,
  trailers: TrailerSlot,
): Uint8Array | null {
  if (early === null || !st.readableEnded || trailers.headers !== null) return null;
  const declared = h["content-length"];
  if (declared === undefined || Number(declared) !== early.size) return null;
  early.stop();
  if (early.chunks.length === 1) return early.chunks[0];
  const out = new Uint8Array(early.size);
  let at = 0;
  for (const c of early.chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * The body of `st` as a stream, starting with the `early` pieces; `onClose` runs a function once
 * the stream has closed (at once when it closed before this body was made).
 */
function toWeb(
  st: http2.ClientHttp2Stream,
  early: EarlyBody | null,
  onClose: (fn: () => void) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(ctrl) {
      const end = () => {
        try {
          ctrl.close();
        } catch { /* already closed */ }
      };
      if (early !== null) {
        early.stop();
        for (const c of early.chunks) ctrl.enqueue(c);
      }
      // A headers-only response (END_STREAM on HEADERS) may have ended before this body was
      // made; a stream that closes after a reset without an end errors the body.
      if (st.readableEnded) return end();
      const closed = () => {
        if (st.readableEnded) return end();
        if (st.rstCode === HTTP2.get().constants.NGHTTP2_NO_ERROR) return;
        try {
          ctrl.error(new Error(`stream reset (code ${st.rstCode})`));
        } catch { /* already closed */ }
      };
      st.on("data", (d: Uint8Array) => {
        ctrl.enqueue(new Uint8Array(d.buffer, d.byteOffset, d.byteLength));
        if ((ctrl.desiredSize ?? 0) <= 0) st.pause();
      });
      st.once("end", end);
      onClose(closed);
      st.once("error", (e: Error) => {
        try {
          ctrl.error(e);
        } catch { /* already closed */ }
      });
    },
    pull() {
      st.resume();
    },
    cancel() {
      st.close(HTTP2.get().constants.NGHTTP2_CANCEL);
    },
  }, { highWaterMark: 4 });
}

/**
 * The `node:http2` options for the SETTINGS of `http2_protocol_options`: the initial stream
 * window, the HPACK table size and the concurrent stream limit (the connection window is set
 * once connected).
 */
export function h2SettingsOptions(
  s: EffectiveCluster["http2Settings"],
): { settings?: http2.Settings } {
  if (s === undefined) return {};
  const settings: http2.Settings = {};
  if (s.initialStreamWindowSize !== undefined) {
    settings.initialWindowSize = s.initialStreamWindowSize;
  }
  if (s.hpackTableSize !== undefined) settings.headerTableSize = s.hpackTableSize;
  if (s.maxConcurrentStreams !== undefined) settings.maxConcurrentStreams = s.maxConcurrentStreams;
  return Object.keys(settings).length === 0 ? {} : { settings };
}
