/**
 * A listener with several filter chains, downstream TLS or listener filters: it accepts TCP
 * connections itself, runs the inspectors on the first bytes (`tls_inspector`: is it TLS, the
 * SNI and the ALPN offered; `http_inspector`: the HTTP version of a plain connection), chooses
 * the filter chain by `filter_chain_match` (or the `default_filter_chain`; none: the connection
 * is closed and `no_filter_chain_match` counted), terminates TLS when the chain has a TLS context
 * and hands the connection to the chain's HTTP connection manager or TCP proxy. The bytes the
 * inspectors read are replayed to whatever comes next.
 *
 * Stats: `listener.<address>.downstream_cx_total` / `_active`, `no_filter_chain_match`,
 * `ssl.*` (see `tls_terminator.ts`); `tls_inspector.*` and `http_inspector.*` at the root, as
 * Envoy names them.
 *
 * @example Not run: it listens on a socket.
 * ```ts ignore
 * import { ChainListener } from "./chain_listener.ts";
 * const l = new ChainListener(spec, chainServers, listenerScope, rootScope);
 * console.log(l.port);
 * await l.close();
 * ```
 * @module
 */
import { originalDestination } from "../platform/socket_descriptor.ts";
import type { Counter, Gauge, Scope } from "../stats/types.ts";
import type { DownstreamConn } from "../http/downstream_request.ts";
import type { ChainSpec, ListenerSpec } from "./listener_config.ts";
import { parseChainMatch, selectChain } from "./filter_chain_match.ts";
import { inspectClientHello } from "./tls_inspector.ts";
import { inspectHttp } from "./http_inspector.ts";
import { type TlsDownstreamConn, TlsTerminator } from "./tls_terminator.ts";
import { acceptPause, type ConnectionGate } from "./overload_state.ts";
import { type Http1Control, type RequestHandler, serveHttp1 } from "./http1_server.ts";
import { H2Server } from "./h2_server.ts";
import type { H2Options } from "./h2_options.ts";
import type { TcpProxy } from "./tcp_proxy.ts";
import { SdsWatch } from "./sds_watch.ts";
import { SdsUpdates } from "./sds_stats.ts";

/** What serves the connections of one filter chain. */
export type ChainServer =
  | {
    kind: "http";
    handler: RequestHandler;
    totals: Counter[];
    actives: Gauge[];
    /** The connection manager's timeouts and header limits (none when unset). */
    limits?: Http1Control["limits"];
    /** `http_protocol_options.enable_trailers`. */
    trailers?: boolean;
    /** `http2_protocol_options` (unset: Envoy's defaults). */
    http2?: H2Options;
  }
  | { kind: "tcp"; proxy: TcpProxy };

/** A connection as the codec and the TCP proxy use it. */
type ByteConn = Deno.Conn;

/** Replays `initial` before reading on from `c`; its local address may be a restored one. */
export class ReplayConn {
  #initial: Uint8Array;
  constructor(
    readonly conn: Deno.TcpConn,
    initial: Uint8Array,
    readonly localAddr: Deno.Addr = conn.localAddr,
  ) {
    this.#initial = initial;
  }
  get remoteAddr() {
    return this.conn.remoteAddr;
  }
  read(b: Uint8Array): Promise<number | null> {
    if (this.#initial.length === 0) return this.conn.read(b);
    const n = Math.min(b.length, this.#initial.length);
    b.set(this.#initial.subarray(0, n));
    this.#initial = this.#initial.subarray(n);
    return Promise.resolve(n);
  }
  write(b: Uint8Array): Promise<number> {
    return this.conn.write(b);
  }
  closeWrite(): Promise<void> {
    return this.conn.closeWrite().catch(() => {});
  }
  close(): void {
    this.conn.close();
  }
}

interface Chain {
  spec: ChainSpec;
  server: ChainServer;
  tls: TlsTerminator | null;
  bridge: H2Server | null;
}

/** A bound listener that chooses a filter chain per connection. */
export class ChainListener {
  /** Connection limits and overload actions (none when unset). */
  gate: ConnectionGate | null = null;
  readonly #listener: Deno.TcpListener | Deno.TlsListener;
  /** Set when the runtime's own TLS listener terminates TLS (see {@linkcode nativeTlsFits}). */
  readonly #native: boolean;
  readonly #chains: Chain[];
  readonly #default: Chain | null;
  readonly #conns = new Map<Deno.TcpConn, Http1Control | null>();
  readonly #accepting: Promise<void>;
  #closed = false;
  #wakeClosed: () => void = () => {};
  readonly #closedSignal = new Promise<void>((r) => this.#wakeClosed = r);
  #sds: SdsWatch | null = null;
  /** The listener's and this worker's `downstream_cx_total` and `downstream_cx_active`. */
  readonly #total: Counter[];
  readonly #active: Gauge[];
  readonly #noMatch: Counter;
  readonly #tlsStats: Scope | null;
  readonly #httpStats: Scope | null;

  /**
   * Binds `spec`'s address (shared with the other workers when `worker.reusePort`, whose index
   * names the per-worker stats); `scopeFor(port)` gives the listener's stats scope once the port
   * is bound, then `servers(chain)` makes what serves each chain; `root` is the store's root scope.
   */
  constructor(
    readonly spec: ListenerSpec,
    servers: (chain: ChainSpec) => ChainServer,
    scopeFor: (port: number) => Scope,
    root: Scope,
    worker?: { index: number; reusePort: boolean },
  ) {
    const reusePort = worker?.reusePort ?? false;
    const only = spec.chains[0]?.tls;
    this.#native = nativeTlsFits(spec);
    this.#listener = this.#native && only
      ? Deno.listenTls({
        hostname: spec.address,
        port: spec.port,
        reusePort,
        cert: only.cert.pem,
        key: only.key.pem,
        ...(only.alpn.length ? { alpnProtocols: only.alpn } : {}),
      })
      : Deno.listen({ hostname: spec.address, port: spec.port, reusePort });
    const ls = scopeFor(this.#listener.addr.port);
    const ssl = ls.scope("ssl");
    const make = (c: ChainSpec): Chain => ({
      spec: c,
      server: servers(c),
      tls: c.tls ? new TlsTerminator(c.tls, ssl) : null,
      bridge: null,
    });
    this.#chains = spec.chains.map(make);
    this.#default = spec.defaultChain ? make(spec.defaultChain) : null;
    const ws = ls.scope(`worker_${worker?.index ?? 0}`);
    this.#total = [ls.counter("downstream_cx_total"), ws.counter("downstream_cx_total")];
    this.#active = [ls.gauge("downstream_cx_active"), ws.gauge("downstream_cx_active")];
    this.#noMatch = ls.counter("no_filter_chain_match");
    this.#tlsStats = spec.listenerFilters.tls ? root.scope("tls_inspector") : null;
    this.#httpStats = spec.listenerFilters.http ? root.scope("http_inspector") : null;
    for (const s of [this.#tlsStats, this.#httpStats]) {
      if (!s) continue;
      const names = s === this.#tlsStats
        ? [
          "client_hello_too_large",
          "tls_found",
          "tls_not_found",
          "alpn_found",
          "alpn_not_found",
          "sni_found",
          "sni_not_found",
        ]
        : ["read_error", "http10_found", "http11_found", "http2_found", "http_not_found"];
      for (const n of names) s.counter(n);
    }
    const all = [...this.#chains, ...(this.#default ? [this.#default] : [])];
    const files = all.flatMap((c) => c.spec.tls?.sdsFiles ?? []);
    if (files.length > 0) {
      const updates = new SdsUpdates(
        root,
        all.filter((c) => c.tls && c.spec.tls && c.spec.tls.sdsFiles.length > 0).map((c) => ({
          secrets: c.spec.tls!.sdsSecrets,
          reload: () => {
            const next = c.spec.reloadTls();
            if (!next) return false;
            try {
              c.tls!.update(next);
              return true;
            } catch {
              return false; // a certificate that does not load keeps the previous one
            }
          },
        })),
      );
      this.#sds = new SdsWatch(files, () => updates.changed());
    }
    this.#accepting = this.#accept();
  }

  /** The bound port. */
  get port(): number {
    return this.#listener.addr.port;
  }

  async #accept(): Promise<void> {
    while (!this.#closed) {
      // While stop_accepting_connections is engaged, connections wait in the kernel's queue.
      if (await acceptPause(this.gate, this.#closedSignal)) continue;
      let c: Deno.TcpConn;
      try {
        c = (await this.#listener.accept()) as Deno.TcpConn;
      } catch (e) {
        if (this.#closed || e instanceof Deno.errors.BadResource) return;
        await new Promise((r) => setTimeout(r, 10));
        continue;
      }
      const gate = this.gate;
      if (this.#closed || (gate !== null && !gate.admit(this.#conns.size))) {
        c.close();
        continue;
      }
      this.#take(c, null);
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

  /** Serves an admitted connection; `restored`: its original destination, already known. */
  #take(c: Deno.TcpConn, restored: Deno.NetAddr | null): void {
    const gate = this.gate;
    try {
      c.setNoDelay(true);
    } catch { /* closed */ }
    for (const t of this.#total) t.inc();
    for (const a of this.#active) a.inc();
    this.#conns.set(c, null);
    let handedOver = false;
    this.#serve(c, restored, () => handedOver = true).catch(() => {}).finally(() => {
      this.#conns.delete(c);
      if (this.#conns.size === 0) this.#emptied?.();
      gate?.closed();
      for (const a of this.#active) a.dec();
      if (handedOver) return;
      try {
        c.close();
      } catch { /* closed */ }
    });
  }

  /**
   * Finds the listener a redirected connection goes to (`use_original_dst`), given by the
   * listener manager: one bound to the original destination, or to any address on its port.
   */
  handoff:
    | ((to: Deno.NetAddr) => { adopt(c: Deno.TcpConn, local: Deno.NetAddr): void } | null)
    | null = null;

  /**
   * Reads the first bytes until the inspectors have decided, the peer stops sending or the
   * listener filter timeout; `null` when the connection is to be closed. With
   * `continue_on_listener_filters_timeout` a read still under way when the time is up is handed
   * on (`pending`), so no byte is lost.
   */
  async #inspect(c: Deno.TcpConn) {
    const lf = this.spec.listenerFilters;
    let buf = new Uint8Array(0);
    let tls: ReturnType<typeof inspectClientHello> = { kind: "not-tls" };
    let http: ReturnType<typeof inspectHttp> = { kind: "none" };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<"timeout">((r) => {
      if (lf.timeoutMs > 0) timer = setTimeout(() => r("timeout"), lf.timeoutMs);
    });
    let pending: Promise<Uint8Array | null> | null = null;
    try {
      for (;;) {
        tls = lf.tls ? inspectClientHello(buf) : { kind: "not-tls" };
        http = lf.http && tls.kind !== "tls" ? inspectHttp(buf) : { kind: "none" };
        if (tls.kind !== "more" && http.kind !== "more") break;
        const chunk = new Uint8Array(16384);
        pending = c.read(chunk).then((n) => n === null ? null : chunk.subarray(0, n));
        const got = await Promise.race([pending, expired]);
        if (got === "timeout") {
          if (!lf.continueOnTimeout) return null;
          break;
        }
        pending = null;
        if (got === null) break;
        const next = new Uint8Array(buf.length + got.length);
        next.set(buf);
        next.set(got, buf.length);
        buf = next;
      }
    } catch {
      this.#httpStats?.counter("read_error").inc();
      return null;
    } finally {
      clearTimeout(timer);
    }
    return { buf, tls, http, pending };
  }

  /** Serves a connection of the runtime's TLS listener: handshake, then the only chain. */
  async #serveNative(c: Deno.TlsConn, chain: Chain): Promise<void> {
    const ssl = chain.tls!.ssl;
    try {
      // No time limit here, as in Envoy without transport_socket_connect_timeout (a TlsConn
      // cannot be closed under a handshake in progress; a configured limit takes node:tls).
      await c.handshake();
    } catch {
      ssl.counter("connection_error").inc();
      return;
    }
    ssl.counter("handshake").inc();
    const dc: DownstreamConn = {
      remoteAddr: c.remoteAddr as Deno.NetAddr,
      localAddr: c.localAddr as Deno.NetAddr,
      tls: true,
    };
    await this.#dispatch(chain, c, c as unknown as Deno.TcpConn, dc);
  }

  /** Hands `conn` (over the accepted `c`) to the chain's connection manager or TCP proxy. */
  async #dispatch(chain: Chain, conn: ByteConn, c: Deno.TcpConn, dc: DownstreamConn) {
    const s = chain.server;
    if (s.kind === "tcp") return await s.proxy.handle(conn);
    for (const t of s.totals) t.inc();
    for (const a of s.actives) a.inc();
    const ctl: Http1Control = {
      busy: false,
      closing: this.#closed,
      onH2: (first) =>
        (chain.bridge ??= new H2Server(s.handler, () => s.limits, s.http2)).carry(conn, dc, first),
      limits: s.limits,
      trailers: s.trailers,
    };
    this.#conns.set(c, ctl);
    try {
      await serveHttp1(conn, dc, s.handler, ctl);
    } finally {
      for (const a of s.actives) a.dec();
    }
  }

  async #serve(
    c: Deno.TcpConn,
    restored: Deno.NetAddr | null,
    handOver: () => void,
  ): Promise<void> {
    if (this.#native) return await this.#serveNative(c as unknown as Deno.TlsConn, this.#chains[0]);
    const lf = this.spec.listenerFilters;
    const remote = c.remoteAddr as Deno.NetAddr;
    let local = restored ?? c.localAddr as Deno.NetAddr;
    if (restored === null && (lf.originalDst || this.spec.useOriginalDst)) {
      local = originalDestination(local, remote) ?? local;
      const to = this.spec.useOriginalDst ? this.handoff?.(local) : null;
      if (to && to !== this) {
        handOver();
        return to.adopt(c, local);
      }
    }
    let initial = new Uint8Array(0);
    let pending: Promise<Uint8Array | null> | null = null;
    let serverName = "";
    let transport = "raw_buffer";
    let alpn: string[] = [];
    if (lf.tls || lf.http) {
      const r = await this.#inspect(c);
      if (!r) return;
      initial = r.buf;
      pending = r.pending;
      const ts = this.#tlsStats;
      if (ts) {
        if (r.tls.kind === "tls") {
          ts.counter("tls_found").inc();
          transport = "tls";
          serverName = r.tls.serverName;
          alpn = r.tls.alpn;
          ts.counter(serverName ? "sni_found" : "sni_not_found").inc();
          ts.counter(alpn.length ? "alpn_found" : "alpn_not_found").inc();
        } else if (r.tls.kind === "too-large") {
          ts.counter("client_hello_too_large").inc();
          return;
        } else ts.counter("tls_not_found").inc();
      }
      const hs = this.#httpStats;
      if (hs && transport !== "tls") {
        const k = r.http.kind;
        if (k === "h2c") alpn = ["h2c"];
        else if (k === "http/1.1" || k === "http/1.0") alpn = [k];
        hs.counter(
          k === "h2c"
            ? "http2_found"
            : k === "http/1.1"
            ? "http11_found"
            : k === "http/1.0"
            ? "http10_found"
            : "http_not_found",
        ).inc();
      }
    }
    const i = selectChain(this.#chains.map((x) => x.spec.match), {
      destIp: local.hostname,
      destPort: local.port,
      srcIp: remote.hostname,
      srcPort: remote.port,
      serverName,
      transport,
      alpn,
    });
    const chain = i >= 0 ? this.#chains[i] : this.#default;
    if (!chain) {
      this.#noMatch.inc();
      return;
    }
    let conn: ByteConn;
    let tlsConn: TlsDownstreamConn | null = null;
    if (pending) {
      // The inspectors gave up waiting; what the read still under way brings comes next.
      const more = await pending.catch(() => null);
      if (more) {
        const next = new Uint8Array(initial.length + more.length);
        next.set(initial);
        next.set(more, initial.length);
        initial = next;
      }
    }
    if (chain.tls) {
      tlsConn = await chain.tls.accept(c, initial, chain.spec.handshakeTimeoutMs ?? 15_000);
      if (!tlsConn) return;
      conn = tlsConn as unknown as ByteConn;
    } else conn = new ReplayConn(c, initial, local) as unknown as ByteConn;
    const dc: DownstreamConn = { remoteAddr: remote, localAddr: local, tls: chain.tls !== null };
    try {
      await this.#dispatch(chain, conn, c, dc);
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
      // TLS ends with a close_notify written after the last bytes: let it go out.
      if (tlsConn) await tlsConn.closed;
    }
  }

  /** Runs when the last connection closed (while {@linkcode ChainListener.close} waits). */
  #emptied: (() => void) | null = null;

  /**
   * Stops accepting (then calls `onStopped`: the address is free) and closes every connection:
   * idle ones at once, busy ones after their current response; with `graceMs` (a drain) the
   * connections left, HTTP/2 and TCP-proxied ones included, may finish for that long before
   * they are closed under them.
   */
  async close(onStopped?: () => void, graceMs = 0): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#wakeClosed();
    this.#sds?.close();
    try {
      this.#listener.close();
    } catch { /* closed */ }
    await this.#accepting;
    onStopped?.();
    for (const [c, ctl] of this.#conns) {
      if (ctl) ctl.closing = true;
      if (!ctl?.busy) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    }
    const left = this.#conns.size === 0 || graceMs <= 0
      ? Promise.resolve()
      : new Promise<void>((r) => this.#emptied = r);
    await Promise.all([...this.#chains, this.#default].map(async (ch) => {
      if (ch?.bridge) await ch.bridge.close(graceMs > 0 ? graceMs : undefined);
      if (ch?.server.kind === "tcp") await ch.server.proxy.drain(graceMs);
    }));
    if (graceMs <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([left, new Promise<void>((r) => timer = setTimeout(r, graceMs))]);
    clearTimeout(timer);
    this.#emptied = null;
    for (const c of this.#conns.keys()) {
      try {
        c.close();
      } catch { /* closed */ }
    }
  }
}

/**
 * True when the listener's TLS can be left to the runtime's own TLS listener (`Deno.listenTls`,
 * rustls in Rust, without the `node:tls` stream adapters: the fast path): one filter chain that
 * matches everything, with TLS that asks for no client certificate, keeps the default TLS
 * versions, does not require SNI, reads no SDS file and has no `transport_socket_connect_timeout`,
 * and no listener filter. That listener
 * cannot report the negotiated version or cipher, so `ssl.versions.*` and `ssl.ciphers.*` are
 * counted only on the `node:tls` path.
 */
export function nativeTlsFits(spec: ListenerSpec): boolean {
  const c = spec.chains[0];
  const t = c?.tls;
  return spec.chains.length === 1 && spec.defaultChain === null && !!t &&
    !spec.listenerFilters.tls && !spec.listenerFilters.http && !spec.listenerFilters.originalDst &&
    !spec.useOriginalDst && t.ca === null &&
    !t.requireSni && t.minVersion === "TLSv1.2" && t.maxVersion === "TLSv1.3" &&
    t.sdsFiles.length === 0 && c.handshakeTimeoutMs === null &&
    JSON.stringify(c.match) === JSON.stringify(EMPTY_MATCH);
}

const EMPTY_MATCH = parseChainMatch(undefined, "", []);
