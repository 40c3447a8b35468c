/**
 * An HTTP listener that sees its connections: it accepts TCP connections itself (`Deno.listen`)
 * and hands each one to Deno's HTTP server (hyper, HTTP/1.1 and h2c prior knowledge) through
 * the runtime's per-connection entry point, the one `Deno.serve` is built on. Each accepted
 * connection counts `downstream_cx_total` and raises `downstream_cx_active` until the HTTP server
 * of that connection has finished, so both numbers come from real accept and close events.
 *
 * `Deno.serve` itself reports no connection events. The per-connection entry point is internal to
 * Deno (`Deno[Deno.internal].serveHttpOnConnection`, present in the pinned 2.9.1); when a runtime
 * lacks it, {@linkcode connectionServeAvailable} is false and the listener manager falls back to
 * `Deno.serve` without connection statistics (it logs that once).
 *
 * @example
 * ```ts ignore
 * const l = new HttpListener("127.0.0.1", 0, (req, conn) => new Response("hi"), [total], [active]);
 * console.log(l.port);
 * await l.close();
 * ```
 * @module
 */
import type { Counter, Gauge } from "../stats/types.ts";

/** The addresses of one downstream connection, shared by all its requests. */
export interface DownstreamConn {
  remoteAddr: Deno.NetAddr;
  localAddr: Deno.NetAddr;
}

/** Handles one request of a connection. */
export type ConnHandler = (req: Request, conn: DownstreamConn) => Response | Promise<Response>;

interface ConnServer {
  finished: Promise<void>;
  shutdown(): Promise<void>;
}

type ServeOnConnection = (
  conn: Deno.Conn,
  signal: AbortSignal,
  handler: (req: Request) => Response | Promise<Response>,
  onError: (e: unknown) => Response,
  onListen: (scheme: string) => void,
) => ConnServer;

function serveOnConnection(): ServeOnConnection | null {
  const d = Deno as unknown as Record<symbol, Record<string, unknown>> & { internal?: symbol };
  const key = d.internal;
  if (typeof key !== "symbol") return null;
  const f = d[key]?.serveHttpOnConnection;
  return typeof f === "function" ? f as ServeOnConnection : null;
}

const SERVE_ON_CONNECTION = serveOnConnection();

/** True when this Deno can serve HTTP on an accepted connection (connection stats possible). */
export const connectionServeAvailable: boolean = SERVE_ON_CONNECTION !== null;

const internalError = () => new Response("internal error", { status: 500 });
const noop = () => {};

/** A bound HTTP listener counting its downstream connections. */
export class HttpListener {
  readonly #listener: Deno.TcpListener;
  readonly #servers = new Set<ConnServer>();
  readonly #abort = new AbortController();
  readonly #accepting: Promise<void>;
  #closed = false;

  /**
   * Binds `hostname:port` and serves `handler`; each connection increments every counter of
   * `totals` and every gauge of `actives` (decremented when the connection is gone).
   */
  constructor(
    hostname: string,
    port: number,
    readonly handler: ConnHandler,
    readonly totals: readonly Counter[],
    readonly actives: readonly Gauge[],
  ) {
    if (!SERVE_ON_CONNECTION) throw new Error("this Deno cannot serve HTTP on a connection");
    this.#listener = Deno.listen({ hostname, port });
    this.#accepting = this.#accept(SERVE_ON_CONNECTION);
  }

  /** The bound port. */
  get port(): number {
    return this.#listener.addr.port;
  }

  async #accept(serve: ServeOnConnection): Promise<void> {
    const { totals, actives, handler } = this;
    while (!this.#closed) {
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
      for (let i = 0; i < totals.length; i++) totals[i].inc();
      for (let i = 0; i < actives.length; i++) actives[i].inc();
      const conn: DownstreamConn = {
        remoteAddr: c.remoteAddr as Deno.NetAddr,
        localAddr: c.localAddr as Deno.NetAddr,
      };
      let s: ConnServer;
      try {
        s = serve(c, this.#abort.signal, (req) => handler(req, conn), internalError, noop);
      } catch {
        for (let i = 0; i < actives.length; i++) actives[i].dec();
        try {
          c.close();
        } catch { /* closed */ }
        continue;
      }
      this.#servers.add(s);
      s.finished.catch(noop).finally(() => {
        this.#servers.delete(s);
        for (let i = 0; i < actives.length; i++) actives[i].dec();
      });
    }
  }

  /** Stops accepting, lets requests in flight finish, closes every connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#listener.close();
    } catch { /* closed */ }
    await this.#accepting;
    const all = [...this.#servers];
    await Promise.all(all.map((s) => s.shutdown().catch(noop)));
    await Promise.all(all.map((s) => s.finished.catch(noop)));
  }
}
