/**
 * Upstream byte transports: plain TCP (`Deno.connect`), TLS that verifies the server certificate
 * against configured CAs (`Deno.startTls` with `caCerts`), and TLS without verification (the
 * specification turns verification off unless `trusted_ca` is configured; Deno's own TLS API has
 * no per-connection switch for that, so that case goes through `node:tls` with
 * `rejectUnauthorized: false`, adapted here to the same read/write interface). A TLS context with
 * a client certificate (`tls_certificates`) presents it to the upstream (mTLS); that also goes
 * through `node:tls`, since `Deno.startTls` cannot present one.
 *
 * A connection with a local source address (`upstream_bind_config`) also goes through `node:net`
 * / `node:tls` (`localAddress`, `localPort`), because `Deno.connect` cannot bind one; a bind that
 * fails (the address is not on this host, the port is taken) fails the connection attempt.
 *
 * @example Not run: it needs an upstream server to connect to (127.0.0.1:8080).
 * ```ts ignore
 * import { openTransport } from "./transport.ts";
 * const t = await openTransport({ address: "127.0.0.1", port: 8080, tls: null, timeoutMs: 250 });
 * await t.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n"));
 * t.close();
 * ```
 * @module
 */
import { applyTcpKeepalive, type TcpKeepalive, tuneTcpKeepalive } from "./tcp_keepalive.ts";
import net from "node:net";
import tls from "node:tls";
import type { EffectiveTls } from "../config/effective_cluster.ts";
import { NodeSocketTransport } from "./node_socket_transport.ts";

/** What the HTTP/1.1 client needs of a connection. */
export interface Transport {
  read(buf: Uint8Array): Promise<number | null>;
  write(data: Uint8Array): Promise<number>;
  close(): void;
}

/** Why a connection attempt failed. */
export class ConnectError extends Error {
  /** `timeout` when `connect_timeout` expired, else `failure`. */
  constructor(readonly reason: "timeout" | "failure", message: string) {
    super(message);
    this.name = "ConnectError";
  }
}

/** Where and how to connect. */
export interface TransportOptions {
  address: string;
  port: number;
  tls: EffectiveTls | null;
  timeoutMs: number;
  /** `upstream_connection_options.tcp_keepalive` (time, interval, probes); unset: off. */
  keepalive?: TcpKeepalive | null;
  /** ALPN to offer on TLS (defaults to `tls.alpn`). */
  alpn?: string[];
  /** Receives the protocol the TLS handshake chose by ALPN (null: none). */
  onAlpn?: (protocol: string | null) => void;
  /**
   * Local source address of the connection (`upstream_bind_config.source_address`); port 0 lets
   * the system choose. Unset or `null`: no bind.
   */
  bind?: { address: string; port: number } | null;
}

/**
 * The `node:net` / `node:tls` / `node:http2` connect options that bind a source address (port 0:
 * any port); empty for no bind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bindOptions } from "./transport.ts";
 * assert.deepEqual(bindOptions({ address: "127.0.0.2", port: 0 }), { localAddress: "127.0.0.2" });
 * ```
 */
export function bindOptions(
  bind: { address: string; port: number } | null | undefined,
): { localAddress?: string; localPort?: number } {
  if (!bind) return {};
  return {
    ...(bind.address ? { localAddress: bind.address } : {}),
    ...(bind.port ? { localPort: bind.port } : {}),
  };
}

/** Opens a connection; rejects with {@linkcode ConnectError} on failure or timeout. */
export async function openTransport(o: TransportOptions): Promise<Transport> {
  const ac = new AbortController();
  let timedOut = false;
  let tcp: Deno.TcpConn | null = null;
  let open: { close(): void } | null = null;
  const timer = o.timeoutMs > 0
    ? setTimeout(() => {
      timedOut = true;
      ac.abort();
      // A TLS handshake in progress is not abortable: closing the socket ends it.
      try {
        open?.close();
      } catch { /* already closed */ }
    }, o.timeoutMs)
    : undefined;
  try {
    // node:tls for TLS without verification and for a client certificate (mTLS):
    // Deno.startTls offers neither.
    if (o.bind || (o.tls && (!o.tls.trustedCa?.length || clientCert(o.tls)))) {
      return await nodeConnect(o, ac.signal);
    }
    open = tcp = await Deno.connect({ hostname: o.address, port: o.port, signal: ac.signal });
    if (o.keepalive) applyTcpKeepalive(tcp, o.keepalive);
    tcp.setNoDelay(true);
    if (!o.tls) return tcp;
    const alpn = o.alpn ?? o.tls.alpn;
    const conn = await Deno.startTls(tcp, {
      hostname: o.tls.sni || o.address,
      caCerts: o.tls.trustedCa,
      ...(alpn?.length ? { alpnProtocols: alpn } : {}),
    });
    tcp = null;
    open = conn;
    try {
      // The handshake (and certificate check) belongs to connecting, not to the first write.
      const info = await conn.handshake();
      o.onAlpn?.(info.alpnProtocol);
    } catch (e) {
      try {
        conn.close();
      } catch { /* already closed */ }
      throw e;
    }
    return conn;
  } catch (e) {
    try {
      tcp?.close();
    } catch { /* already closed */ }
    if (timedOut) {
      throw new ConnectError("timeout", `connect timeout after ${o.timeoutMs}ms`);
    }
    throw new ConnectError("failure", e instanceof Error ? e.message : String(e));
  } finally {
    clearTimeout(timer);
  }
}

/** The client certificate and key a TLS context presents to the upstream (mTLS), if any. */
export function clientCert(t: EffectiveTls): { cert: string; key: string } | null {
  return t.certChain && t.privateKey ? { cert: t.certChain, key: t.privateKey } : null;
}

/**
 * Connects through `node:net` (plain) or `node:tls`: TLS without verification, and every
 * connection with a local source address. With `trustedCa` the server certificate is verified
 * against it, and against the SNI (or the address when there is none).
 */
function nodeConnect(o: TransportOptions, signal: AbortSignal): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const bind = bindOptions(o.bind);
    const alpn = o.alpn ?? o.tls?.alpn;
    const ca = o.tls?.trustedCa?.length ? o.tls.trustedCa : undefined;
    // Half-open like Deno.TcpConn: the TCP proxy closes each direction on its own (node:tls
    // honours `allowHalfOpen` although its option type does not list it).
    const base = { host: o.address, port: o.port, ...bind, allowHalfOpen: true };
    const tlsOptions: tls.ConnectionOptions & typeof base = {
      ...base,
      servername: o.tls?.sni || undefined,
      ...(ca ? { ca, rejectUnauthorized: true } : { rejectUnauthorized: false }),
      ...(alpn?.length ? { ALPNProtocols: alpn } : {}),
      ...(o.tls ? clientCert(o.tls) ?? {} : {}),
    };
    const sock = o.tls ? tls.connect(tlsOptions) : net.connect(base);
    const onAbort = () => {
      sock.destroy();
      reject(new Error("aborted"));
    };
    const onError = (e: Error) => {
      signal.removeEventListener("abort", onAbort);
      sock.destroy();
      reject(e);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    sock.once("error", onError);
    sock.once(o.tls ? "secureConnect" : "connect", () => {
      signal.removeEventListener("abort", onAbort);
      sock.removeListener("error", onError);
      if (o.keepalive) {
        sock.setKeepAlive(true, (o.keepalive.time ?? 0) * 1000);
        tuneTcpKeepalive(
          { transport: "tcp", hostname: sock.localAddress ?? "", port: sock.localPort ?? 0 },
          { transport: "tcp", hostname: sock.remoteAddress ?? "", port: sock.remotePort ?? 0 },
          o.keepalive,
        );
      }
      sock.setNoDelay(true);
      if (o.tls) o.onAlpn?.((sock as tls.TLSSocket).alpnProtocol || null);
      resolve(new NodeSocketTransport(sock));
    });
  });
}
