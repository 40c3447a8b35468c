/**
 * Terminates downstream TLS on an accepted TCP connection with `node:tls`, and counts the
 * handshakes under the listener's `ssl.` scope as Envoy does (`handshake`, `connection_error`,
 * `no_certificate`, `fail_verify_no_cert`, `fail_verify_error`, `fail_verify_san`,
 * `versions.<v>`, `ciphers.<c>`).
 *
 * Why `node:tls` and not `Deno.listenTls`: `Deno.listenTls` takes one certificate per listening
 * socket and has no way to ask for or check a client certificate, to bound the TLS versions or
 * to start TLS on a connection whose first bytes were already read (the TLS inspector reads the
 * ClientHello to choose a filter chain). `node:tls` in Deno (rustls underneath) does all of these.
 * Measured under Deno 2.9.1: a `TLSSocket` made directly with `isServer` does not check the client
 * certificate against `ca` (a certificate from another CA is accepted), while a `tls.Server` handed
 * the connection (`emit("connection")`) does; so each connection gets a small `tls.Server` sharing
 * one `SecureContext`. The `ciphers` option is ignored by the runtime, so cipher suites are
 * refused by the support table.
 *
 * @example Not run: it needs an accepted TCP connection.
 * ```ts ignore
 * import { TlsTerminator } from "./tls_terminator.ts";
 * const t = new TlsTerminator(parsedContext, listenerScope.scope("ssl"));
 * const conn = await t.accept(tcp, new Uint8Array(0));
 * ```
 * @module
 */
import tls from "node:tls";
import { Duplex } from "node:stream";
import type { Scope } from "../stats/types.ts";
import { NodeSocketTransport } from "../upstream/node_socket_transport.ts";
import { type DownstreamTls, sanMatches, splitSans } from "./downstream_tls.ts";

/** A TLS connection as the HTTP codec and the TCP proxy read it. */
export class TlsDownstreamConn extends NodeSocketTransport {
  /** Wraps a secured socket; the addresses are the TCP connection's. */
  constructor(
    readonly tlsSocket: tls.TLSSocket,
    readonly remoteAddr: Deno.NetAddr,
    readonly localAddr: Deno.NetAddr,
  ) {
    super(tlsSocket);
  }
  /** Resolves once the TLS socket has closed (after {@linkcode TlsDownstreamConn.close}). */
  readonly closed: Promise<void> = new Promise((r) => this.tlsSocket.once("close", () => r()));

  /**
   * Ends the connection with a TLS close_notify once written data is flushed; destroys it when
   * the peer does not let that finish within a second.
   */
  override close(): void {
    if (this.tlsSocket.destroyed) return;
    this.tlsSocket.end();
    const t = setTimeout(() => this.tlsSocket.destroy(), 1000);
    this.tlsSocket.once("close", () => clearTimeout(t));
  }

  /** The negotiated ALPN protocol, or `""`. */
  get alpnProtocol(): string {
    return typeof this.tlsSocket.alpnProtocol === "string" ? this.tlsSocket.alpnProtocol : "";
  }
}

/** A node `Duplex` over a `Deno.Conn` whose first bytes (`initial`) were read already. */
function duplexOf(c: Deno.Conn, initial: Uint8Array): Duplex {
  let wake: (() => void) | null = null;
  let flowing = true;
  const d = new Duplex({
    read() {
      flowing = true;
      const w = wake;
      wake = null;
      w?.();
    },
    write(chunk: Uint8Array, _e, cb) {
      writeAll(c, chunk).then(() => cb(), (e) => cb(e));
    },
    final(cb) {
      try {
        (c as Deno.TcpConn).closeWrite();
      } catch { /* closed */ }
      cb();
    },
    destroy(err, cb) {
      try {
        c.close();
      } catch { /* closed */ }
      cb(err);
    },
  });
  if (initial.length) d.push(initial);
  (async () => {
    const b = new Uint8Array(16384);
    try {
      for (;;) {
        if (!flowing) await new Promise<void>((r) => wake = r);
        const n = await c.read(b);
        if (n === null) break;
        flowing = d.push(b.slice(0, n));
      }
    } catch { /* closed */ }
    d.push(null);
  })();
  return d;
}

async function writeAll(c: Deno.Conn, b: Uint8Array): Promise<void> {
  let off = 0;
  while (off < b.length) off += await c.write(off ? b.subarray(off) : b);
}

/** Terminates TLS for one filter chain. */
export class TlsTerminator {
  #opts: tls.TlsOptions = {};
  #cfg: DownstreamTls;

  /** Builds the secure context of `cfg`; counts into `ssl` (the listener's `ssl.` scope). */
  constructor(cfg: DownstreamTls, readonly ssl: Scope) {
    this.#cfg = cfg;
    this.update(cfg);
    for (
      const n of [
        "handshake",
        "connection_error",
        "no_certificate",
        "fail_verify_no_cert",
        "fail_verify_error",
        "fail_verify_san",
      ]
    ) ssl.counter(n);
  }

  /** The context in use. */
  get cfg(): DownstreamTls {
    return this.#cfg;
  }

  /** Uses `cfg` for the connections accepted from now on (SDS secrets that changed). */
  update(cfg: DownstreamTls): void {
    const base = {
      cert: cfg.cert.pem,
      key: cfg.key.pem,
      ...(cfg.ca ? { ca: [cfg.ca.pem] } : {}),
      minVersion: cfg.minVersion,
      maxVersion: cfg.maxVersion,
    };
    const secureContext = tls.createSecureContext(base);
    this.#opts = {
      ...base,
      secureContext,
      requestCert: cfg.ca !== null,
      rejectUnauthorized: false,
      ...(cfg.alpn.length ? { ALPNProtocols: cfg.alpn } : {}),
    };
    this.#cfg = cfg;
  }

  /**
   * Runs the handshake on `tcp` (whose first bytes `initial` were read already); resolves to the
   * secured connection, or `null` (counted, connection closed) when it fails or the client
   * certificate is refused.
   */
  accept(
    tcp: Deno.TcpConn,
    initial: Uint8Array,
    timeoutMs = 15_000,
  ): Promise<TlsDownstreamConn | null> {
    const d = duplexOf(tcp, initial);
    const server = tls.createServer(this.#opts);
    const cfg = this.#cfg;
    return new Promise((resolve) => {
      let done = false;
      const timer = setTimeout(() => fail("connection_error"), timeoutMs);
      const fail = (stat: string) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.ssl.counter(stat).inc();
        d.destroy();
        resolve(null);
      };
      server.on("tlsClientError", () => fail("connection_error"));
      server.on("secureConnection", (s: tls.TLSSocket) => {
        if (done) return s.destroy();
        const why = this.#refuse(s, cfg);
        if (why) {
          s.destroy();
          return fail(why);
        }
        done = true;
        clearTimeout(timer);
        this.ssl.counter("handshake").inc();
        const v = s.getProtocol();
        if (v) this.ssl.scope("versions").counter(v).inc();
        const c = s.getCipher()?.name;
        if (c) this.ssl.scope("ciphers").counter(c).inc();
        s.setNoDelay?.(true);
        resolve(
          new TlsDownstreamConn(
            s,
            tcp.remoteAddr as Deno.NetAddr,
            tcp.localAddr as Deno.NetAddr,
          ),
        );
      });
      server.emit("connection", d);
    });
  }

  /** The stat of a refused client, or `null` when the connection may go on. */
  #refuse(s: tls.TLSSocket, cfg: DownstreamTls): string | null {
    if (cfg.requireSni && !(s as unknown as { servername?: string }).servername) {
      return "connection_error";
    }
    if (!cfg.ca) return null;
    const peer = s.getPeerCertificate();
    const has = peer && Object.keys(peer).length > 0 && peer.raw !== undefined;
    if (!has) {
      if (cfg.requireClientCert) return "fail_verify_no_cert";
      this.ssl.counter("no_certificate").inc();
      return null;
    }
    if (!s.authorized) return "fail_verify_error";
    if (cfg.sanMatchers.length > 0) {
      const sans = splitSans(peer.subjectaltname);
      const ok = cfg.sanMatchers.some((m) => sans.some(([t, v]) => sanMatches(m, t, v)));
      if (!ok) return "fail_verify_san";
    }
    return null;
  }
}
