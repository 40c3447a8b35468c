/**
 * The listener manager: binds every static listener (HTTP through our HTTP/1.1 codec on each
 * accepted connection, h2c prior knowledge bridged to Deno's HTTP server, counting
 * `downstream_cx_*`; TCP through `Deno.listen`), owns the access log files (`reopenAccessLogs()` for `/reopen_logs` and
 * SIGUSR1), reports the listeners to `/listeners`, and drains them for
 * `/drain_listeners` (all or `INBOUND` only, at once or after the `--drain-time-s` period during
 * which responses ask clients to close: always with `--drain-strategy immediate`, with a growing
 * probability with `gradual`).
 *
 * @example Not run: it starts the listeners of a bootstrap, with its clusters, on sockets.
 * ```ts ignore
 * import { ListenerManager } from "./listener_manager.ts";
 * const lm = new ListenerManager(bootstrap.static_resources.listeners, { clusters, stats, hooks });
 * await lm.start();
 * console.log(lm.listeners()[0].port);
 * await lm.close();
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { ConfigLoadError } from "../config/errors.ts";
import type { ListenerManagerView, ListenerView, TrafficDirection } from "./types.ts";
import type { Counter, Gauge, Scope } from "../stats/types.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import { localAddress, type ProxyHooks } from "./hooks.ts";
import { AccessLogFiles } from "../access_log/access_log_file.ts";
import { HttpConnectionManager } from "./http_connection_manager.ts";
import { HttpListener } from "./http_listener.ts";
import type { ListenerSpec } from "./listener_config.ts";
import { TcpProxy } from "./tcp_proxy.ts";
import { parseListeners } from "./validate_listeners.ts";

export type { ProxyHooks } from "./hooks.ts";
export { validateListeners } from "./validate_listeners.ts";

/** The server-side hooks shape `src/server/server.ts` passes (adapted to {@linkcode ProxyHooks}). */
export interface ServerHooks {
  healthCheckFailed(): boolean;
  draining(): boolean;
  options: {
    local_address_ip_version: "v4" | "v6";
    drain_time_s: number;
    drain_strategy: "gradual" | "immediate";
    /** Access log buffers are written out at this interval (default 10 s). */
    file_flush_interval_msec?: number;
  };
}

/** What the listener manager needs: `hooks`, or the server's `server` hooks. */
export interface ListenerManagerDeps {
  clusters: ClusterManager;
  stats: Scope;
  hooks?: ProxyHooks;
  server?: ServerHooks;
  /** `--file-flush-interval-msec` when `server` is not given (default 10 s). */
  fileFlushIntervalMs?: number;
  /**
   * The data-plane worker this manager runs in (`src/server/worker_main.ts`): its index names the
   * per-worker listener stats (`listener.<address>.worker_<n>.*`, worker 0 without it), and
   * `reusePort` lets every worker bind the same ports.
   */
  worker?: { index: number; reusePort: boolean };
}

function hooksOf(d: ListenerManagerDeps): ProxyHooks {
  if (d.hooks) return d.hooks;
  const s = d.server;
  if (!s) throw new Error("ListenerManager needs hooks or server");
  return {
    healthCheckFailed: () => s.healthCheckFailed(),
    draining: () => s.draining(),
    localAddressIpVersion: s.options.local_address_ip_version,
    drainTimeS: s.options.drain_time_s,
    drainStrategy: s.options.drain_strategy,
    log: (level, msg) => {
      if (level === "error" || level === "critical") console.error(`[${level}] ${msg}`);
    },
  };
}

/** One bound listener. */
class Bound implements ListenerView {
  stopped = false;
  http: HttpListener | null = null;
  tcp: Deno.TcpListener | null = null;
  proxy: TcpProxy | null = null;
  accepting: Promise<void> | null = null;
  port: number;
  /** Set while draining: when the drain started. */
  drainStart = -1;

  constructor(readonly spec: ListenerSpec) {
    this.port = spec.port;
  }
  get name() {
    return this.spec.name;
  }
  get address() {
    return this.spec.address;
  }
  get direction(): TrafficDirection {
    return this.spec.direction;
  }
  get config() {
    return this.spec.config;
  }
}

/** Owns the static listeners. */
export class ListenerManager implements ListenerManagerView {
  readonly #bound: Bound[];
  readonly #stopped = new Set<TrafficDirection | "ALL">();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #local: string;
  readonly #lm: Scope;
  readonly #hooks: ProxyHooks;
  readonly #logs: AccessLogFiles;

  /** Parses `listeners`; throws {@linkcode ConfigLoadError} with every error found. */
  constructor(listeners: JsonObject[], readonly deps: ListenerManagerDeps) {
    const { specs, errors } = parseListeners(
      listeners,
      "static_resources.listeners",
      deps.clusters.names(),
    );
    if (errors.length) throw new ConfigLoadError(errors);
    this.#bound = specs.map((s) => new Bound(s));
    this.#hooks = hooksOf(deps);
    this.#local = localAddress(this.#hooks.localAddressIpVersion);
    this.#lm = deps.stats.scope("listener_manager");
    const hooks = this.#hooks;
    this.#logs = new AccessLogFiles(
      deps.server?.options.file_flush_interval_msec ?? deps.fileFlushIntervalMs ?? 10_000,
      (msg) => hooks.log("error", msg),
    );
    for (
      const n of [
        "listener_added",
        "listener_create_success",
        "listener_create_failure",
        "listener_stopped",
      ]
    ) this.#lm.counter(n);
    for (
      const n of ["total_listeners_active", "total_listeners_draining", "total_listeners_warming"]
    ) {
      this.#lm.gauge(n).set(0);
    }
  }

  /** Binds every listener; rejects (after closing what was bound) when one cannot bind. */
  async start(): Promise<void> {
    try {
      for (const b of this.#bound) {
        this.#lm.counter("listener_added").inc();
        this.#bind(b);
        this.#lm.counter("listener_create_success").inc();
      }
    } catch (e) {
      this.#lm.counter("listener_create_failure").inc();
      await this.close();
      throw e;
    }
    this.#lm.gauge("total_listeners_active").set(this.#bound.length);
    this.#lm.counter("workers_started").inc();
  }

  #listenerScope(b: Bound): Scope {
    return this.deps.stats.scope("listener").scope(`${b.address}_${b.port}`);
  }

  #bind(b: Bound) {
    const f = b.spec.filter;
    if (f.kind === "http") {
      let hcm: HttpConnectionManager | null = null;
      const hs = this.deps.stats.scope("http").scope(f.hcm.statPrefix);
      // The counters are filled in once the port is known (no connection is accepted before).
      const totals: Counter[] = [];
      const actives: Gauge[] = [];
      b.http = new HttpListener(
        b.address,
        b.port,
        (req, conn) => hcm!.handle(req, conn),
        totals,
        actives,
        undefined,
        this.deps.worker?.reusePort,
      );
      b.port = b.http.port;
      const ls = this.#listenerScope(b);
      const ws = ls.scope(`worker_${this.deps.worker?.index ?? 0}`);
      totals.push(
        ls.counter("downstream_cx_total"),
        hs.counter("downstream_cx_total"),
        ws.counter("downstream_cx_total"),
      );
      actives.push(
        ls.gauge("downstream_cx_active"),
        hs.gauge("downstream_cx_active"),
        ws.gauge("downstream_cx_active"),
      );
      hcm = new HttpConnectionManager(f.hcm, {
        clusters: this.deps.clusters,
        stats: this.deps.stats,
        listenerStats: this.#listenerScope(b),
        hooks: this.#hooks,
        localAddress: this.#local,
        drainShare: () => this.#drainShare(b),
        accessLogFiles: this.#logs,
      });
    } else {
      b.tcp = Deno.listen({
        hostname: b.address,
        port: b.port,
        reusePort: this.deps.worker?.reusePort ?? false,
      });
      b.port = (b.tcp.addr as Deno.NetAddr).port;
      const proxy = b.proxy = new TcpProxy(
        f.tcp,
        this.deps.clusters,
        this.deps.stats,
        this.#logs,
      );
      const ls = this.#listenerScope(b);
      const total = ls.counter("downstream_cx_total");
      const active = ls.gauge("downstream_cx_active");
      const ws = ls.scope(`worker_${this.deps.worker?.index ?? 0}`);
      const wTotal = ws.counter("downstream_cx_total");
      const wActive = ws.gauge("downstream_cx_active");
      const listener = b.tcp;
      b.accepting = (async () => {
        try {
          for await (const c of listener) {
            total.inc();
            active.inc();
            wTotal.inc();
            wActive.inc();
            proxy.handle(c).finally(() => {
              active.dec();
              wActive.dec();
            });
          }
        } catch { /* listener closed */ }
      })();
    }
  }

  #drainShare(b: Bound): number {
    const h = this.#hooks;
    if (h.draining?.() || h.healthCheckFailed()) return 1;
    if (b.drainStart < 0) return 0;
    if (h.drainStrategy === "immediate" || h.drainTimeS <= 0) return 1;
    return Math.min(1, (performance.now() - b.drainStart) / (h.drainTimeS * 1000));
  }

  /** What `/listeners` shows. */
  listeners(): readonly ListenerView[] {
    return this.#bound;
  }

  /** Directions whose listeners were stopped. */
  stoppedDirections(): ReadonlySet<TrafficDirection | "ALL"> {
    return this.#stopped;
  }

  async #stop(b: Bound) {
    if (b.stopped) return;
    b.stopped = true;
    this.#lm.counter("listener_stopped").inc();
    this.#lm.gauge("total_listeners_active").dec();
    if (b.drainStart >= 0) this.#lm.gauge("total_listeners_draining").dec();
    await closeSockets(b);
  }

  /** Flushes and reopens every access log file (`/reopen_logs`, SIGUSR1). */
  reopenAccessLogs(): void {
    this.#logs.reopen();
  }

  /** Writes every buffered access log line out now. */
  flushAccessLogs(): void {
    this.#logs.flush();
  }

  /**
   * Stops listeners (all, or `INBOUND` only). Without `graceful` it resolves once they are
   * stopped; with `graceful` it resolves at once and the listeners stop after `--drain-time-s`
   * (Envoy's admin answers immediately too).
   */
  async drain(opts: { inboundOnly: boolean; graceful: boolean }): Promise<void> {
    const chosen = this.#bound.filter((b) =>
      !b.stopped && (!opts.inboundOnly || b.direction === "INBOUND")
    );
    const mark = () => this.#stopped.add(opts.inboundOnly ? "INBOUND" : "ALL");
    if (!opts.graceful) {
      await Promise.all(chosen.map((b) => this.#stop(b)));
      mark();
      return;
    }
    const fresh = chosen.filter((b) => b.drainStart < 0);
    if (fresh.length === 0) return;
    for (const b of fresh) {
      b.drainStart = performance.now();
      this.#lm.gauge("total_listeners_draining").inc();
    }
    const t = setTimeout(() => {
      this.#timers.delete(t);
      Promise.all(fresh.map((b) => this.#stop(b))).then(mark, () => {});
    }, this.#hooks.drainTimeS * 1000);
    this.#timers.add(t);
  }

  /** Stops every listener and closes every proxied TCP connection. */
  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await Promise.all(this.#bound.map(async (b) => {
      b.proxy?.closeAll();
      if (!b.stopped && (b.tcp || b.http)) {
        b.stopped = true;
        await closeSockets(b);
      }
    }));
    this.#logs.close();
  }
}

/** Closes a listener's listening sockets and waits for its accept loop to end. */
async function closeSockets(b: Bound): Promise<void> {
  if (b.http) await b.http.close();
  if (b.tcp) {
    try {
      b.tcp.close();
    } catch { /* closed */ }
    await b.accepting;
  }
}
