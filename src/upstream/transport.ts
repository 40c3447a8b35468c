/**
 * Upstream byte transports: plain TCP (`Deno.connect`), TLS that verifies the server certificate
 * against configured CAs (`Deno.startTls` with `caCerts`), and TLS without verification (the
 * specification turns verification off unless `trusted_ca` is configured; Deno's own TLS API has
 * no per-connection switch for that, so that case goes through `node:tls` with
 * `rejectUnauthorized: false`, adapted here to the same read/write interface).
 *
 * @example
 * ```ts ignore
 * import { openTransport } from "./transport.ts";
 * const t = await openTransport({ address: "127.0.0.1", port: 8080, tls: null, timeoutMs: 250 });
 * await t.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n"));
 * t.close();
 * ```
 * @module
 */
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
  keepalive?: boolean;
  /** ALPN to offer on TLS (defaults to `tls.alpn`). */
  alpn?: string[];
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
    if (o.tls && !o.tls.trustedCa?.length) return await nodeTls(o, ac.signal);
    open = tcp = await Deno.connect({ hostname: o.address, port: o.port, signal: ac.signal });
    if (o.keepalive) tcp.setKeepAlive(true);
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
      await conn.handshake();
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

function nodeTls(o: TransportOptions, signal: AbortSignal): Promise<Transport> {
  return new Promise((resolve, reject) => {
    const alpn = o.alpn ?? o.tls?.alpn;
    const sock = tls.connect({
      host: o.address,
      port: o.port,
      servername: o.tls?.sni || undefined,
      rejectUnauthorized: false,
      ...(alpn?.length ? { ALPNProtocols: alpn } : {}),
    });
    const onAbort = () => {
      sock.destroy();
      reject(new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    sock.once("secureConnect", () => {
      signal.removeEventListener("abort", onAbort);
      sock.removeListener("error", onError);
      if (o.keepalive) sock.setKeepAlive(true);
      resolve(new NodeSocketTransport(sock));
    });
    const onError = (e: Error) => {
      signal.removeEventListener("abort", onAbort);
      sock.destroy();
      reject(e);
    };
    sock.once("error", onError);
  });
}
