/**
 * An HTTP listener that sees its connections: it accepts TCP connections itself (`Deno.listen`),
 * counts each one (`downstream_cx_total`, and `downstream_cx_active` until it has closed) and
 * serves HTTP/1.1 on it with our own codec ({@linkcode serveHttp1}).
 *
 * A connection that opens with the HTTP/2 preface (h2c with prior knowledge) is served by the
 * listener's HTTP/2 server (`h2_server.ts`, made on first use) with the connection manager's
 * `http2_protocol_options`; its requests reach the same handler, under the connection
 * manager's timeouts (`h2c_timers.ts`).
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
import type { DownstreamConn } from "../http/downstream_request.ts";
import { type Http1Control, type RequestHandler, serveHttp1 } from "./http1_server.ts";
import { countClose, type LimitCounters } from "./downstream_limits.ts";
import type { ConnectionGate } from "./overload_state.ts";
import { H2Server } from "./h2_server.ts";
import type { H2Options } from "./h2_options.ts";
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
  /** `http2_protocol_options`: the SETTINGS of HTTP/2 connections (unset: Envoy's defaults). */
  http2?: H2Options;
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
  #h2: H2Server | null = null;

  #newH2(): H2Server {
    return new H2Server(this.handler, () => this.limits, this.protocol.http2);
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
    const toH2 = (initial: Uint8Array) => (this.#h2 ??= this.#newH2()).carry(c, dc, initial);
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
    await this.#h2?.close(graceMs);
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
