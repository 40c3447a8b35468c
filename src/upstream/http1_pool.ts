/**
 * The HTTP/1.1 keep-alive pool of one host and priority. Idle connections are reused (last in,
 * first out); a new connection is opened while the cluster's `max_connections` allows it, else
 * the request waits (at most `max_pending_requests` wait) for a connection to come back.
 * Connections are closed after `max_requests_per_connection` requests (1 disables keep-alive),
 * after `common_http_protocol_options.idle_timeout` idle (default 1 h), and once
 * `max_connection_duration` has passed (at once when idle, else when their request ends), each
 * counted (`upstream_cx_max_requests`, `upstream_cx_idle_timeout`,
 * `upstream_cx_max_duration_reached`).
 *
 * @example Not run: it needs a pool (`pool`) connected to an upstream server.
 * ```ts ignore
 * const c = await pool.acquire();
 * // ... one request/response on c ...
 * pool.release(c, true);
 * ```
 * @module
 */
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { CircuitBreaker } from "./circuit_breaker.ts";
import type { ClusterStats } from "./cluster_stats.ts";
import type { Host } from "./host.ts";
import { Http1Connection } from "./http1_connection.ts";
import { ConnectError, openTransport } from "./transport.ts";
import { type ComponentLog, SILENT } from "../platform/log_site.ts";

/** The request could not wait: `max_pending_requests` reached. */
export class OverflowError extends Error {
  /** Creates the error. */
  constructor() {
    super("overflow");
    this.name = "OverflowError";
  }
}

/** A request waiting for a connection. */
export interface Waiter {
  resolve(c: Http1Connection): void;
  reject(e: Error): void;
}

/**
 * Read-ahead buffer of one connection: `per_connection_buffer_limit_bytes` caps it, within
 * 16-64 KiB (64 KiB also bounds a response head, near Envoy's 60 KiB default header limit).
 */
export function bufferSizeFor(limit: number): number {
  return Math.max(16384, Math.min(limit, 65536));
}

/** Lets a caller stop waiting for a connection (the pool fills in `cancel`). */
export interface AcquireHandle {
  cancel?: () => void;
}

/** A keep-alive pool. */
export class Http1Pool {
  #idle: Http1Connection[] = [];
  #waiters: Waiter[] = [];
  #all = new Set<Http1Connection>();
  #counted = new WeakMap<Http1Connection, [number, number]>();
  /** Per connection, what its idle read calls when the connection goes away (made once). */
  #goneOf = new WeakMap<Http1Connection, (remote: boolean) => void>();
  /** One sweep timer closes the connections idle too long (each holds its `idleSince`). */
  #sweep: ReturnType<typeof setTimeout> | undefined;
  /** Every connection's `max_connection_duration` timer. */
  #durationTimers = new Map<Http1Connection, ReturnType<typeof setTimeout>>();
  /** Connections whose `max_connection_duration` has passed: closed once their request ends. */
  #expired = new WeakSet<Http1Connection>();
  #closed = false;
  readonly #bufSize: number;
  /** The `pool` logger: connections created, failed and closed (debug). */
  log: ComponentLog = SILENT;

  /** Creates the pool of `host`, charging connections to `cb`. */
  constructor(
    readonly cluster: EffectiveCluster,
    readonly host: Host,
    readonly stats: ClusterStats,
    readonly cb: CircuitBreaker,
  ) {
    this.#bufSize = bufferSizeFor(cluster.perConnectionBufferLimitBytes);
  }

  /** Open connections (idle and busy). */
  size(): number {
    return this.#all.size;
  }

  /** An idle connection, or `null`. */
  takeIdle(): Http1Connection | null {
    while (this.#idle.length > 0) {
      const c = this.#idle.pop()!;
      if (c.closed) continue;
      c.take();
      return c;
    }
    return null;
  }

  /**
   * A connection for one request: idle, new, or after waiting. Rejects with
   * {@linkcode OverflowError} or {@linkcode ConnectError}.
   */
  acquire(handle?: AcquireHandle): Promise<Http1Connection> {
    const idle = this.takeIdle();
    if (idle) return Promise.resolve(idle);
    const cb = this.cb;
    if (!cb.pending.canCreate()) return Promise.reject(new OverflowError());
    this.stats.rq_pending_total.inc();
    this.stats.rq_pending_active.inc();
    cb.pending.inc();
    const done = () => {
      cb.pending.dec();
      this.stats.rq_pending_active.dec();
    };
    if (cb.connections.canCreate()) {
      return this.#connect().finally(done);
    }
    this.stats.cx_overflow.inc();
    return new Promise<Http1Connection>((resolve, reject) => {
      const w: Waiter = {
        resolve: (c) => {
          done();
          resolve(c);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      };
      if (handle) handle.cancel = () => this.#cancel(w);
      this.#waiters.push(w);
    });
  }

  #cancel(w: Waiter) {
    const i = this.#waiters.indexOf(w);
    if (i >= 0) {
      this.#waiters.splice(i, 1);
      w.reject(new Error("cancelled"));
    }
  }

  async #connect(): Promise<Http1Connection> {
    const s = this.stats;
    const h = this.host.stats;
    this.cb.connections.inc();
    s.cx_total.inc();
    s.cx_http1_total.inc();
    s.cx_active.inc();
    h.cx_total.inc();
    h.cx_active.inc();
    const t0 = performance.now();
    if (this.log.on("debug")) this.log("debug", `creating a new connection to ${this.host.key}`);
    try {
      const t = await openTransport({
        address: this.host.address,
        port: this.host.port,
        tls: this.cluster.tls,
        timeoutMs: this.cluster.connectTimeoutMs,
        keepalive: this.cluster.tcpKeepalive,
        // The configured alpn_protocols, else the protocol this pool speaks.
        alpn: this.cluster.tls
          ? (this.cluster.tls.alpn?.length ? this.cluster.tls.alpn : ["http/1.1"])
          : undefined,
        bind: this.cluster.upstreamBind,
      });
      s.cx_connect_ms.record(performance.now() - t0);
      const c = new Http1Connection(t, this.#bufSize);
      const mh = this.cluster.maxHeadersCount;
      if (mh !== undefined) c.maxHeaders = mh;
      if (this.#closed) {
        c.close();
        throw new ConnectError("failure", "pool closed");
      }
      this.#all.add(c);
      this.#counted.set(c, [0, 0]);
      const d = this.cluster.maxConnectionDurationMs;
      if (d > 0) this.#durationTimers.set(c, setTimeout(() => this.#durationReached(c), d));
      return c;
    } catch (e) {
      this.cb.connections.dec();
      s.cx_active.dec();
      h.cx_active.dec();
      s.cx_connect_fail.inc();
      h.cx_connect_fail.inc();
      if (e instanceof ConnectError && e.reason === "timeout") s.cx_connect_timeout.inc();
      if (this.log.on("debug")) {
        this.log("debug", `connection to ${this.host.key} failed: ${(e as Error).message}`);
      }
      this.#serveWaiter();
      throw e;
    }
  }

  /** Brings `upstream_cx_rx_bytes_total` and `_tx_` up to date with `c`'s traffic so far. */
  countBytes(c: Http1Connection): void {
    this.#countBytes(c);
  }

  #countBytes(c: Http1Connection) {
    const seen = this.#counted.get(c);
    if (!seen) return;
    if (c.rxBytes > seen[0]) this.stats.cx_rx_bytes_total.inc(c.rxBytes - seen[0]);
    if (c.txBytes > seen[1]) this.stats.cx_tx_bytes_total.inc(c.txBytes - seen[1]);
    seen[0] = c.rxBytes;
    seen[1] = c.txBytes;
  }

  #idleGone(c: Http1Connection): (remote: boolean) => void {
    let gone = this.#goneOf.get(c);
    if (gone === undefined) {
      gone = (remote) => this.destroy(c, !remote);
      this.#goneOf.set(c, gone);
    }
    return gone;
  }

  /** Returns a connection after a response at `now` (if known); `reusable` false closes it. */
  release(c: Http1Connection, reusable: boolean, now?: number): void {
    this.#countBytes(c);
    const max = this.cluster.maxRequestsPerConnection;
    if (max > 0 && c.requests >= max && reusable && !c.closed) {
      this.stats.cx_max_requests.inc();
      reusable = false;
    }
    if (!reusable || c.closed || this.#closed || c.hasUnreadData() || this.#expired.has(c)) {
      this.destroy(c, true);
      return;
    }
    // A waiter that stopped waiting has already left the queue (see #cancel).
    const w = this.#waiters.shift();
    if (w) w.resolve(c);
    else {
      this.#idle.push(c);
      c.watchIdle(this.#idleGone(c));
      const t = this.cluster.upstreamIdleTimeoutMs;
      if (t > 0) {
        c.idleSince = now ?? performance.now();
        this.#sweep ??= setTimeout(() => this.#sweepIdle(), t);
      }
    }
  }

  /**
   * `common_http_protocol_options.idle_timeout`: closes the connections idle that long, then
   * waits for the next to be (one timer per pool, not one per request).
   */
  #sweepIdle(): void {
    this.#sweep = undefined;
    const t = this.cluster.upstreamIdleTimeoutMs;
    const now = performance.now();
    let next = Infinity;
    for (const c of [...this.#idle]) {
      if (now - c.idleSince >= t) {
        this.stats.cx_idle_timeout.inc();
        this.destroy(c, true);
      } else next = Math.min(next, c.idleSince + t - now);
    }
    if (next !== Infinity) this.#sweep = setTimeout(() => this.#sweepIdle(), next);
  }

  /** `max_connection_duration`: the connection closes now if idle, else after its request. */
  #durationReached(c: Http1Connection): void {
    this.#durationTimers.delete(c);
    if (!this.#all.has(c)) return;
    this.stats.cx_max_duration_reached.inc();
    this.#expired.add(c);
    if (this.#idle.includes(c)) this.destroy(c, true);
  }

  /** Closes a connection and frees its slot; `local` tells who closed it. */
  destroy(c: Http1Connection, local: boolean): void {
    if (!this.#all.delete(c)) return;
    clearTimeout(this.#durationTimers.get(c));
    this.#durationTimers.delete(c);
    this.#countBytes(c);
    c.close();
    if (this.log.on("debug")) {
      this.log(
        "debug",
        `closing connection to ${this.host.key} (${local ? "local" : "remote"} close)`,
      );
    }
    const s = this.stats;
    s.cx_active.dec();
    this.host.stats.cx_active.dec();
    s.cx_destroy.inc();
    (local ? s.cx_destroy_local : s.cx_destroy_remote).inc();
    s.cx_length_ms.record(performance.now() - c.openedAt);
    this.cb.connections.dec();
    const i = this.#idle.indexOf(c);
    if (i >= 0) this.#idle.splice(i, 1);
    this.#serveWaiter();
  }

  /**
   * Closes a connection whose request is still in flight (a reset of that request, or its
   * connection lost): counted as `upstream_cx_destroy_with_active_rq` and by who closed it.
   */
  destroyActive(c: Http1Connection, local: boolean): void {
    if (!this.#all.has(c)) return;
    const s = this.stats;
    s.cx_destroy_with_active_rq.inc();
    (local ? s.cx_destroy_local_with_active_rq : s.cx_destroy_remote_with_active_rq).inc();
    this.destroy(c, local);
  }

  #serveWaiter() {
    if (this.#closed) return;
    while (this.#waiters.length > 0 && this.cb.connections.canCreate()) {
      const w = this.#waiters.shift()!;
      this.#connect().then(w.resolve, w.reject);
    }
  }

  /** Closes every connection and fails every waiter. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#sweep);
    for (const c of [...this.#all]) this.destroy(c, true);
    for (const w of this.#waiters.splice(0)) w.reject(new ConnectError("failure", "pool closed"));
  }
}
