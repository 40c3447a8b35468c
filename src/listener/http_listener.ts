/**
 * An HTTP listener that sees its connections: it accepts TCP connections itself (`Deno.listen`),
 * counts each one (`downstream_cx_total`, and `downstream_cx_active` until it has closed) and
 * serves HTTP/1.1 on it with our own codec ({@linkcode serveHttp1}).
 *
 * A connection that opens with the HTTP/2 preface (h2c with prior knowledge) is bridged over
 * loopback to Deno's HTTP server (one per listener, started on first use), which speaks HTTP/2;
 * its requests reach the same handler with the original connection's addresses, under the
 * connection manager's timeouts (`h2c_timers.ts`).
 *
 * @example Not run: it listens on a socket and needs the request handler of a running server.
 * ```ts ignore
 * import { HttpListener } from "./http_listener.ts";
 * const l = new HttpListener("127.0.0.1", 0, handler, [total], [active]);
 * console.log(l.port);
 * await l.close();
 * ```
 * @module
 */
import type { Counter, Gauge } from "../stats/types.ts";
import { onResponseEnd, type ProxyResponse, toResponse } from "../http/proxy_response.ts";
import { HeaderMap } from "../http/header_map.ts";
import {
  DOWNSTREAM_REMOTE_CLOSE,
  DOWNSTREAM_REMOTE_RESET,
  type DownstreamConn,
  fromRequest,
} from "../http/downstream_request.ts";
import { type Http1Control, type RequestHandler, serveHttp1 } from "./http1_server.ts";
import { countClose, headerLimitError, type LimitCounters } from "./downstream_limits.ts";
import type { ConnectionGate } from "./overload_state.ts";
import { H2cConnection, serveTimedStream } from "./h2c_timers.ts";
import { FrameSplicer } from "./h2_frames.ts";
import { type ComponentLog, SILENT } from "../platform/log_site.ts";

/** Handles one request of a connection. */
export type ConnHandler = RequestHandler;

const noop = () => {};
/** How long `close()` lets requests in flight finish before closing their connections. */
const CLOSE_GRACE_MS = 5000;

/** How the connection manager wants its connections spoken (`hcm_options.ts`). */
export interface ListenerProtocol {
  /** AUTO: HTTP/1.1 and h2c; HTTP1: no h2c; HTTP2: h2c only. */
  codec?: "AUTO" | "HTTP1" | "HTTP2";
  http10?: { accept: boolean; defaultHost: string };
  properCase?: boolean;
  /** `enable_trailers`: response trailers go to HTTP/1.1 clients (chunked responses only). */
  trailers?: boolean;
}

const PREFACE = new TextEncoder().encode("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * An HTTP/2-only connection: it must open with the HTTP/2 preface (h2c with prior knowledge),
 * else it is closed, as an HTTP/2 codec does with bytes that are not HTTP/2.
 */
async function h2Only(
  c: Deno.Conn,
  toH2: (initial: Uint8Array) => Promise<void>,
  counters?: LimitCounters,
): Promise<void> {
  const got = new Uint8Array(PREFACE.length);
  let n = 0;
  let by: "remote" | "local" = "local";
  try {
    while (n < got.length) {
      const r = await c.read(got.subarray(n));
      if (r === null) {
        by = "remote";
        break;
      }
      const end = n + r;
      while (n < end && got[n] === PREFACE[n]) n++;
      if (n < end) break;
    }
  } catch { /* closed */ }
  if (n === got.length) return toH2(got);
  try {
    c.close();
  } catch { /* closed */ }
  if (counters !== undefined) countClose(counters, by, false);
}

/** A bound HTTP listener counting its downstream connections. */
export class HttpListener {
  readonly #listener: Deno.TcpListener;
  readonly #conns = new Map<Deno.Conn, Http1Control>();
  readonly #served = new Set<Promise<void>>();
  readonly #accepting: Promise<void>;
  #bridge: H2cBridge | null = null;

  #newBridge(): H2cBridge {
    const b = new H2cBridge(this.handler, () => this.limits);
    b.log = this.log;
    return b;
  }
  #closed = false;
  /** The connection manager's limits and timeouts for each new connection (none when unset). */
  limits: Http1Control["limits"];
  /** Connection limits and overload actions (none when unset). */
  gate: ConnectionGate | null = null;
  /** The `connection` logger: a debug line when a connection is accepted and when it closes. */
  log: ComponentLog = SILENT;
  #connId = 0;
  #wakeClosed: () => void = noop;
  readonly #closedSignal = new Promise<void>((r) => this.#wakeClosed = r);

  /**
   * Binds `hostname:port` and serves `handler`; each connection increments every counter of
   * `totals` and every gauge of `actives` (decremented when the connection is gone);
   * `closeGraceMs` bounds how long {@linkcode HttpListener.close} waits for requests in flight;
   * `reusePort` lets several workers (and a hot-restarted process) bind the same port.
   */
  constructor(
    hostname: string,
    port: number,
    readonly handler: ConnHandler,
    readonly totals: readonly Counter[],
    readonly actives: readonly Gauge[],
    readonly closeGraceMs: number = CLOSE_GRACE_MS,
    readonly protocol: ListenerProtocol = {},
    reusePort = false,
  ) {
    this.#listener = Deno.listen({ hostname, port, reusePort });
    this.#accepting = this.#accept();
  }

  /** The bound port. */
  get port(): number {
    return this.#listener.addr.port;
  }

  async #accept(): Promise<void> {
    while (!this.#closed) {
      // While stop_accepting_connections is engaged, connections wait in the kernel's queue.
      const paused = this.gate?.view.acceptResumed();
      if (paused) {
        await Promise.race([paused, this.#closedSignal]);
        continue;
      }
      let c: Deno.TcpConn;
      try {
        c = await this.#listener.accept();
      } catch (e) {
        if (this.#closed || e instanceof Deno.errors.BadResource) return;
        // Out of file descriptors and the like: keep the listener, try again shortly.
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      if (this.#closed) {
        c.close();
        continue;
      }
      const gate = this.gate;
      if (gate !== null && !gate.admit(this.#conns.size)) {
        c.close();
        continue;
      }
      this.#take(c, c.localAddr as Deno.NetAddr);
    }
  }

  /**
   * Serves a connection that the listener it reached handed over (`use_original_dst`: this
   * listener has the address the client originally addressed): admitted, counted, drained and
   * closed as this listener's own; `local` is that original address.
   */
  adopt(c: Deno.TcpConn, local: Deno.NetAddr): void {
    const gate = this.gate;
    if (this.#closed || (gate !== null && !gate.admit(this.#conns.size))) {
      c.close();
      return;
    }
    this.#take(c, local);
  }

  /** Serves an admitted connection whose local address is `local`. */
  #take(c: Deno.TcpConn, local: Deno.NetAddr): void {
    const { totals, actives, gate } = this;
    try {
      c.setNoDelay(true);
    } catch { /* closed already */ }
    for (let i = 0; i < totals.length; i++) totals[i].inc();
    for (let i = 0; i < actives.length; i++) actives[i].inc();
    const dc: DownstreamConn = {
      remoteAddr: c.remoteAddr as Deno.NetAddr,
      localAddr: local,
    };
    const log = this.log;
    const id = ++this.#connId;
    if (log.on("debug")) {
      log(
        "debug",
        `[C${id}] new connection from ${dc.remoteAddr.hostname}:${dc.remoteAddr.port}`,
      );
    }
    const codec = this.protocol.codec ?? "AUTO";
    const toH2 = (initial: Uint8Array) =>
      (this.#bridge ??= this.#newBridge()).carry(c, dc, initial);
    const ctl: Http1Control = {
      busy: false,
      closing: false,
      onH2: codec === "HTTP1" ? undefined : toH2,
      limits: this.limits,
      http10: this.protocol.http10,
      properCase: this.protocol.properCase,
      trailers: this.protocol.trailers,
    };
    this.#conns.set(c, ctl);
    const serving = codec === "HTTP2"
      ? h2Only(c, toH2, this.limits?.counters)
      : serveHttp1(c, dc, this.handler, ctl);
    const served = serving.finally(() => {
      if (log.on("debug")) {
        log("debug", `[C${id}] connection closed${this.#closed ? " (listener stopped)" : ""}`);
      }
      this.#conns.delete(c);
      this.#served.delete(served);
      gate?.closed();
      for (let i = 0; i < actives.length; i++) actives[i].dec();
    });
    this.#served.add(served);
  }

  /**
   * Stops accepting (then calls `onStopped`: the address is free), closes idle connections, lets
   * requests in flight finish for up to `graceMs` (default `closeGraceMs`), then closes the
   * connections that are left.
   */
  async close(graceMs = this.closeGraceMs, onStopped?: () => void): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wakeClosed();
    try {
      this.#listener.close();
    } catch { /* closed */ }
    await this.#accepting;
    onStopped?.();
    for (const [c, ctl] of this.#conns) {
      ctl.closing = true;
      // A connection accepted just now may have its first request on the way: it is served
      // (and then closed) within the grace period rather than closed unanswered.
      if (!ctl.busy && ctl.used) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    }
    await this.#bridge?.close();
    // Requests in flight get a grace period; then their connections are closed under them, so
    // an upstream that never answers cannot hold shutdown forever.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<false>((r) => timer = setTimeout(() => r(false), graceMs));
    const finished = await Promise.race([Promise.all([...this.#served]).then(() => true), grace]);
    clearTimeout(timer);
    if (finished) return;
    // Handlers still waiting write to a closed connection when they end; nobody waits for them.
    for (const c of this.#conns.keys()) {
      try {
        c.close();
      } catch { /* closed */ }
    }
  }
}

/**
 * Carries HTTP/2 connections (h2c, or h2 after TLS) to Deno's HTTP server on a loopback port: the bytes already read go
 * first, then both directions are copied until either side closes. A response the connection
 * manager marks `connection: close` (a drain closing its connection) has that header removed
 * (HTTP/2 has none) and makes its connection send the client a GOAWAY instead ({@linkcode FrameSplicer}).
 */
export class H2cBridge {
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  /** Bridge-side local port → the downstream connection it carries. */
  readonly #byPort = new Map<number, DownstreamConn>();
  readonly #links = new Set<Deno.Conn>();
  /** Bridge-side local port → asks that connection's client to go away. */
  readonly #goaway = new Map<number, () => void>();

  readonly #limits: () => Http1Control["limits"];
  /** Where a debug line says that a response's trailers were dropped. */
  log: ComponentLog = SILENT;

  /**
   * Serves `handler` for the connections carried; `limits` (when set) are the connection
   * manager's, whose timeouts apply to each connection and stream (`h2c_timers.ts`).
   */
  constructor(handler: ConnHandler, limits: () => Http1Control["limits"]) {
    this.#limits = limits;
    this.#server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: noop,
      onError: () => new Response("internal error", { status: 500 }),
    }, async (req, info) => {
      const dc = this.#byPort.get(info.remoteAddr.port);
      if (dc === undefined) return new Response(null, { status: 421 });
      const r = fromRequest(req);
      r.h2 = true;
      r.signal = req.signal;
      r.clientGone = () => clientGone(req.signal, this.#byPort.has(info.remoteAddr.port));
      // The server's headers are immutable; the connection manager rewrites its own copy.
      r.headers = new HeaderMap([...req.headers]);
      const l = limits();
      if (l !== undefined) {
        r.error = headerLimitError(r.headers, l.limits, l.counters.http2Underscores, "http2");
      }
      if (dc.tls) r.scheme = "https";
      const run = async (x: typeof r) => {
        const res = await handler(x, dc);
        // A stream reset before its answer (status 0, or a bodiless answer to a client gone)
        // has nothing to send: its end is reported now and the server gets a placeholder.
        if (res.status === 0 || (res.body === null && req.signal.aborted)) return gone(res);
        this.#noteTrailers(res);
        if (res.headers.get("connection") === "close") {
          res.headers.delete("connection");
          this.#goaway.get(info.remoteAddr.port)?.();
        }
        return res;
      };
      if (l !== undefined) return serveTimedStream(r, run, l, req.signal);
      return toResponse(await run(r));
    });
  }

  /**
   * HTTP/2 clients get no trailers: Deno's HTTP server, which speaks HTTP/2 here, has no API to
   * send them, so trailers the upstream sent are dropped (Envoy would forward them). Envoy has
   * no statistic for this; a debug line says so once the response has ended.
   */
  #noteTrailers(res: ProxyResponse): void {
    if (res.trailers === undefined) return;
    const log = this.log;
    onResponseEnd(res, () => {
      const t = res.trailers?.headers;
      if (t == null || !log.on("debug")) return;
      const names = [...t.keys()].join(", ");
      log("debug", `trailers dropped (${names}): the HTTP/2 downstream server cannot send them`);
    });
  }

  /** Carries `down` (whose first bytes were `initial`) until it closes. */
  async carry(down: Deno.Conn, dc: DownstreamConn, initial: Uint8Array): Promise<void> {
    const l = this.#limits();
    let up: Deno.TcpConn;
    try {
      up = await Deno.connect({ hostname: "127.0.0.1", port: this.#server.addr.port });
    } catch {
      if (l !== undefined) countClose(l.counters, "local", false);
      return;
    }
    const port = (up.localAddr as Deno.NetAddr).port;
    this.#byPort.set(port, dc);
    this.#links.add(up);
    /** Who ended the connection first: its client, or the proxy (a timer, a drain, a stop). */
    let by: "remote" | "local" | null = null;
    const end = () => {
      by ??= "local";
      // Streams aborted from here on were not reset by the client: its connection is gone.
      this.#byPort.delete(port);
      for (const c of [up, down]) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    };
    // Writes to the client, in order: the server's frames, walked once on their way
    // ({@linkcode FrameSplicer}), with the proxy's own GOAWAYs between two of them.
    let writes = Promise.resolve();
    const send = (pieces: Uint8Array[]) => {
      const p = writes.then(async () => {
        for (const piece of pieces) await writeAll(down, piece);
      });
      writes = p.catch(noop);
      return p;
    };
    let timed: H2cConnection | null = null;
    const splicer = new FrameSplicer(
      l === undefined
        ? undefined
        : (type, flags, stream) => timed?.serverFrame(type, flags, stream),
    );
    if (l !== undefined) {
      const splice = (frame: Uint8Array) => {
        const now = splicer.insert(frame);
        if (now !== null) send([now]).catch(noop);
      };
      timed = new H2cConnection(l, splice, () => writes, end, PREFACE.length);
    }
    this.#goaway.set(port, () => {
      if (timed !== null) return timed.drain();
      const now = splicer.request();
      if (now !== null) send([now]).catch(noop);
    });
    try {
      timed?.fromClient(initial);
      await writeAll(up, initial);
      const client = () => void (by ??= "remote");
      const a = copy(down, up, timed === null ? undefined : (b) => timed?.fromClient(b)).then(
        client,
        client,
      );
      const b = copyFrames(up, splicer, send).catch(noop);
      await Promise.race([a, b]);
      end();
      await Promise.all([a, b]);
    } catch {
      /* either side went away */
    } finally {
      timed?.stop();
      const active = (timed?.openStreams ?? 0) > 0;
      end();
      if (l !== undefined) countClose(l.counters, by ?? "local", active);
      this.#byPort.delete(port);
      this.#goaway.delete(port);
      this.#links.delete(up);
    }
  }

  /**
   * Shuts the bridged server down gracefully first (each HTTP/2 client gets a GOAWAY and its
   * streams in flight finish, for at most `graceMs`), then cuts what is still carried.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    const done = this.#server.shutdown();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((r) => timer = setTimeout(r, graceMs));
    await Promise.race([done, grace]);
    clearTimeout(timer);
    for (const l of this.#links) {
      try {
        l.close();
      } catch { /* closed */ }
    }
    await done;
  }
}

/**
 * The body of that placeholder: Deno 2.9.1's HTTP server panics ("HTTP state error: Expected
 * to be last strong reference") when a bodiless response answers an HTTP/2 request whose client
 * has reset it.
 */
const PLACEHOLDER = new Uint8Array([0x2d]);

/** The placeholder answer of a stream reset before its answer; its end reported first. */
function gone(res: ProxyResponse): ProxyResponse {
  const end = res.onEnd;
  res.onEnd = undefined;
  end?.(0, "complete");
  return { status: 502, headers: new HeaderMap(), body: PLACEHOLDER.slice() };
}

/**
 * How the client of a bridged HTTP/2 request went away, once the server's `signal` has aborted:
 * it reset the stream ({@linkcode DOWNSTREAM_REMOTE_RESET}) when its connection is still
 * carried (`open`), else the connection has gone ({@linkcode DOWNSTREAM_REMOTE_CLOSE}).
 */
function clientGone(signal: AbortSignal, open: boolean): Error | null {
  if (!signal.aborted) return null;
  return open ? DOWNSTREAM_REMOTE_RESET : DOWNSTREAM_REMOTE_CLOSE;
}

async function writeAll(c: Deno.Conn, b: Uint8Array): Promise<void> {
  let off = 0;
  while (off < b.length) off += await c.write(off ? b.subarray(off) : b);
}

/** Copies the bridged server's frames to the client through `splicer`; each read is written before the next. */
async function copyFrames(
  from: Deno.Conn,
  splicer: FrameSplicer,
  send: (pieces: Uint8Array[]) => Promise<void>,
): Promise<void> {
  const b = new Uint8Array(16384);
  for (;;) {
    const n = await from.read(b);
    if (n === null) return;
    await send(splicer.feed(b.subarray(0, n)));
  }
}

async function copy(from: Deno.Conn, to: Deno.Conn, seen?: (b: Uint8Array) => void): Promise<void> {
  const b = new Uint8Array(16384);
  for (;;) {
    const n = await from.read(b);
    if (n === null) return;
    seen?.(b.subarray(0, n));
    await writeAll(to, b.subarray(0, n));
  }
}
