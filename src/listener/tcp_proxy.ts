/**
 * The TCP proxy network filter: each accepted connection is joined to a new connection to a host
 * of `cluster`, bytes are copied both ways with back-pressure (one read buffer per direction, a
 * read waits for the previous write), and half-closes are passed on. Counts
 * `tcp.<stat_prefix>.*` and the cluster's connection statistics.
 *
 * @example Not run: it accepts connections on a socket and needs upstream clusters.
 * ```ts ignore
import { parseTcpProxy, TcpProxy } from "./tcp_proxy.ts";
 * const tp = new TcpProxy(parseTcpProxy(cfg, "f", errors, null)!, clusters, stats);
 * for await (const c of Deno.listen({ port: 0 })) tp.handle(c);
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseHeaderMatcher } from "../router/header_matcher.ts";
import type { Counter, Scope } from "../stats/types.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import { openTransport, type Transport } from "../upstream/transport.ts";
import {
  type AccessLogConfig,
  openLogSinks,
  parseAccessLogs,
} from "../access_log/access_log_config.ts";
import type { AccessLogFiles } from "../access_log/access_log_file.ts";
import type { LogRecord } from "../access_log/access_log_format.ts";
import type { LogSink } from "../access_log/request_logger.ts";
import { durationMs, type Errors, fail } from "../config/config_values.ts";
import { TCP_IDLE_TIMEOUT_DEFAULT_MS, type TcpTimeouts, TcpTimers } from "./tcp_timers.ts";

/** A parsed `tcp_proxy`. */
export interface TcpProxyConfig {
  statPrefix: string;
  cluster: string;
  /** Compiled `access_log` entries. */
  accessLogs: AccessLogConfig[];
  /** `idle_timeout` (default 1 hour) and `max_downstream_connection_duration`; 0: none. */
  timeouts: TcpTimeouts;
}

/** Parses the filter configuration. */
export function parseTcpProxy(
  c: JsonObject,
  path: string,
  errors: Errors,
  clusters: ReadonlySet<string> | null,
): TcpProxyConfig | null {
  let ok = true;
  if (typeof c.stat_prefix !== "string" || c.stat_prefix === "") {
    fail(errors, `${path}.stat_prefix`, "stat_prefix is required");
    ok = false;
  }
  if (c.weighted_clusters !== undefined) {
    fail(
      errors,
      `${path}.weighted_clusters`,
      "weighted_clusters is not supported yet; use cluster",
    );
    ok = false;
  } else if (typeof c.cluster !== "string" || c.cluster === "") {
    fail(errors, `${path}.cluster`, "cluster is required");
    ok = false;
  } else if (clusters && !clusters.has(c.cluster)) {
    fail(errors, `${path}.cluster`, `unknown cluster "${c.cluster}"`);
    ok = false;
  }
  const accessLogs = parseAccessLogs(
    c.access_log,
    `${path}.access_log`,
    errors,
    parseHeaderMatcher,
  );
  let idleTimeoutMs = TCP_IDLE_TIMEOUT_DEFAULT_MS;
  if (c.idle_timeout !== undefined) {
    const ms = durationMs(c.idle_timeout, `${path}.idle_timeout`, errors);
    if (ms === null) ok = false;
    else idleTimeoutMs = ms;
  }
  let maxDurationMs = 0;
  if (c.max_downstream_connection_duration !== undefined) {
    const at = `${path}.max_downstream_connection_duration`;
    const ms = durationMs(c.max_downstream_connection_duration, at, errors);
    if (ms === null) ok = false;
    else if (ms < 1) {
      fail(errors, at, "max_downstream_connection_duration must be at least 1ms");
      ok = false;
    } else maxDurationMs = ms;
  }
  return ok
    ? {
      statPrefix: c.stat_prefix as string,
      cluster: c.cluster as string,
      accessLogs,
      timeouts: { idleTimeoutMs, maxDurationMs },
    }
    : null;
}

const BUF = 65536;

/** Proxies connections of one listener. */
export class TcpProxy {
  readonly #conns = new Set<Transport>();
  /** Runs when the last connection closed (while {@linkcode TcpProxy.drain} waits). */
  #emptied: (() => void) | null = null;
  readonly #cxTotal: Counter;
  readonly #noRoute: Counter;
  readonly #idleTimeout: Counter;
  readonly #maxDuration: Counter;
  readonly #logs: LogSink[];

  /** Creates the proxy; `logFiles` is required when the configuration has access logs. */
  constructor(
    readonly cfg: TcpProxyConfig,
    readonly clusters: ClusterManager,
    stats: Scope,
    logFiles?: AccessLogFiles,
  ) {
    this.#logs = openLogSinks(cfg.accessLogs, logFiles, clusters.deps.runtime);
    const s = stats.scope("tcp").scope(cfg.statPrefix);
    this.#cxTotal = s.counter("downstream_cx_total");
    this.#noRoute = s.counter("downstream_cx_no_route");
    s.counter("upstream_flush_total");
    this.#idleTimeout = s.counter("idle_timeout");
    this.#maxDuration = s.counter("max_downstream_connection_duration");
  }

  /** Joins one downstream connection to an upstream one; resolves when both are closed. */
  async handle(down: Deno.Conn): Promise<void> {
    if (this.#logs.length === 0) return await this.#handle(down, null);
    const rec: LogRecord = {
      startMs: Date.now(),
      protocol: null,
      req: null,
      resp: null,
      status: 0,
      flags: [],
      bytesReceived: 0,
      bytesSent: 0,
      durationMs: 0,
      upstreamHost: null,
      upstreamCluster: null,
      downstreamRemote: down.remoteAddr as Deno.NetAddr,
      downstreamLocal: down.localAddr as Deno.NetAddr,
    };
    const t0 = performance.now();
    try {
      await this.#handle(down, rec);
    } finally {
      rec.durationMs = performance.now() - t0;
      for (const l of this.#logs) l.file.write(l.format(rec));
    }
  }

  async #handle(down: Deno.Conn, rec: LogRecord | null): Promise<void> {
    this.#cxTotal.inc();
    const routed = this.clusters.get(this.cfg.cluster);
    // An aggregate cluster's chosen member serves with its own settings.
    const cluster = routed?.serving() ?? undefined;
    const host = cluster?.lb.choose({ downstreamLocal: down.localAddr as Deno.NetAddr });
    const flags = rec?.flags as string[] | undefined;
    if (rec && cluster) rec.upstreamCluster = cluster.name;
    if (!cluster || !host) {
      this.#noRoute.inc();
      if (routed) routed.stats.cx_none_healthy.inc();
      flags?.push(routed ? "UH" : "NR");
      close(down);
      return;
    }
    const cb = cluster.breakers[0];
    const cs = cluster.stats;
    if (!cb.connections.canCreate()) {
      cs.cx_overflow.inc();
      flags?.push("UO");
      close(down);
      return;
    }
    if (rec) rec.upstreamHost = host.key;
    cb.connections.inc();
    cs.cx_total.inc();
    cs.cx_active.inc();
    host.stats.cx_total.inc();
    host.stats.cx_active.inc();
    const t0 = performance.now();
    let up: Transport | null = null;
    let timedOut = false;
    const timers = new TcpTimers(this.cfg.timeouts, (kind) => {
      timedOut = true;
      if (kind === "idle") this.#idleTimeout.inc();
      else {
        this.#maxDuration.inc();
        flags?.push("DT");
      }
      close(down);
      if (up) close(up);
    });
    timers.start();
    this.#conns.add(down);
    try {
      up = await openTransport({
        address: host.address,
        port: host.port,
        tls: cluster.effective.tls,
        timeoutMs: cluster.effective.connectTimeoutMs,
        keepalive: cluster.effective.tcpKeepalive,
        bind: cluster.effective.upstreamBind,
      });
      cs.cx_connect_ms.record(performance.now() - t0);
      this.#conns.add(up);
      host.tcpConnections.add(up);
      const u = up;
      if (timedOut) close(u);
      timers.upstreamConnected();
      await Promise.all([
        copy(down, u, (n) => {
          timers.activity();
          cs.cx_tx_bytes_total.inc(n);
          if (rec) rec.bytesReceived += n;
        }, () => halfClose(u)),
        copy(u, down, (n) => {
          timers.activity();
          cs.cx_rx_bytes_total.inc(n);
          if (rec) rec.bytesSent += n;
        }, () => halfClose(down)),
      ]);
    } catch {
      if (!up) {
        cs.cx_connect_fail.inc();
        host.stats.cx_connect_fail.inc();
        flags?.push("UF");
      }
    } finally {
      timers.stop();
      this.#conns.delete(down);
      close(down);
      if (up) {
        this.#conns.delete(up);
        host.tcpConnections.delete(up);
        close(up);
        cs.cx_length_ms.record(performance.now() - t0);
      }
      cb.connections.dec();
      cs.cx_active.dec();
      host.stats.cx_active.dec();
      if (this.#conns.size === 0) this.#emptied?.();
    }
  }

  /**
   * Lets the open connections run for up to `ms` (a drain), then closes those left.
   */
  async drain(ms: number): Promise<void> {
    if (this.#conns.size > 0 && ms > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        new Promise<void>((r) => this.#emptied = r),
        new Promise<void>((r) => timer = setTimeout(r, ms)),
      ]);
      clearTimeout(timer);
      this.#emptied = null;
    }
    this.closeAll();
  }

  /** Closes every open connection. */
  closeAll(): void {
    for (const c of this.#conns) close(c);
    this.#conns.clear();
  }
}

async function copy(
  from: Transport,
  to: Transport,
  count: (n: number) => void,
  onEnd: () => void,
): Promise<void> {
  const buf = new Uint8Array(BUF);
  try {
    for (;;) {
      const n = await from.read(buf);
      if (n === null) break;
      let off = 0;
      while (off < n) off += await to.write(buf.subarray(off, n));
      count(n);
    }
    onEnd();
  } catch {
    close(from);
    close(to);
  }
}

function halfClose(t: Transport) {
  try {
    const c = t as Partial<Deno.TcpConn>;
    if (typeof c.closeWrite === "function") c.closeWrite();
    else t.close();
  } catch { /* already closed */ }
}

function close(t: Transport) {
  try {
    t.close();
  } catch { /* already closed */ }
}
