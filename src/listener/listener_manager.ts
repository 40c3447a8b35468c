/**
 * The listener manager: binds every static listener (HTTP through our HTTP/1.1 codec on each
 * accepted connection, h2c prior knowledge through the HTTP/2 server of `h2_server.ts`, counting
 * `downstream_cx_*`; TCP through `Deno.listen`), owns the access log files (`reopenAccessLogs()` for `/reopen_logs` and
 * SIGUSR1), reports the listeners to `/listeners`, and drains them for
 * `/drain_listeners` (all or `INBOUND` only, at once or after the `--drain-time-s` period during
 * which responses ask clients to close, `Connection: close` on HTTP/1 and GOAWAY on HTTP/2:
 * always with `--drain-strategy immediate`, with a growing probability with `gradual`). Once a
 * direction's listeners are stopped, LDS neither adds nor modifies listeners of that direction.
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
import { DELAYED_CLOSE_MS } from "./delayed_close.ts";
import { hostPort } from "../upstream/host.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { ConfigLoadError } from "../config/errors.ts";
import type { DrainOptions, ListenerManagerView, ListenerView, TrafficDirection } from "./types.ts";
import { pinGroup, type ReuseportPin } from "../platform/reuseport_steering.ts";
import type { Counter, Gauge, Scope } from "../stats/types.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import { localAddress, type ProxyHooks } from "./hooks.ts";
import { AccessLogFiles } from "../access_log/access_log_file.ts";
import { HttpConnectionManager } from "./http_connection_manager.ts";
import { HttpListener } from "./http_listener.ts";
import { limitCounters } from "./downstream_limits.ts";
import { acceptPause, ConnectionGate, type OverloadView } from "./overload_state.ts";
import { type ChainSpec, isSimple, type ListenerSpec } from "./listener_config.ts";
import { ChainListener, type ChainServer, ReplayConn } from "./chain_listener.ts";
import type { SecretStore } from "../config/secrets.ts";
import { TcpProxy } from "./tcp_proxy.ts";
import { parseListeners } from "./validate_listeners.ts";
import { checkAddress, checkLdsUpdate, rdsProblems, sameListener } from "./lds_update.ts";
import type { DiscoveryResponse } from "../config/subscription.ts";
import { configSourceOf } from "../config/config_source.ts";
import { TYPE_URLS } from "../config/xds_names.ts";
import type { Subscription } from "../upstream/xds_clients.ts";
import { type RdsState, subscribeRds } from "./rds_routes.ts";
import type { RouteFeed } from "./route_feed.ts";
import { parseRouteConfig } from "../router/route_config.ts";
import type { ConfigError } from "../config/errors.ts";
import { type LogFor, prefixed, SILENT } from "../platform/log_site.ts";

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
  /** The server's component loggers. */
  logFor?: LogFor;
}

/** What the listener manager needs: `hooks`, or the server's `server` hooks. */
export interface ListenerManagerDeps {
  clusters: ClusterManager;
  stats: Scope;
  hooks?: ProxyHooks;
  server?: ServerHooks;
  /** `--file-flush-interval-msec` when `server` is not given (default 10 s). */
  fileFlushIntervalMs?: number;
  /** The overload manager: connection limits and overload actions. */
  overload?: OverloadView;
  /** The bootstrap's `dynamic_resources.lds_config`: listeners from LDS as well. */
  lds?: JsonObject;
  /**
   * Where route configurations come from instead of RDS subscriptions (a data-plane worker: the
   * main thread subscribes and sends them).
   */
  routeFeed?: RouteFeed;
  /** SDS secrets TLS contexts refer to (`static_resources.secrets`). */
  secrets?: SecretStore;
  /**
   * The data-plane worker this manager runs in (`src/server/worker_main.ts`): its index names the
   * per-worker listener stats (`listener.<address>.worker_<n>.*`, worker 0 without it), and
   * `reusePort` lets every worker bind the same ports.
   */
  worker?: { index: number; reusePort: boolean };
  /**
   * Runs just before a listener from LDS binds, after its update was checked: a test takes the
   * address there to make the bind fail.
   */
  beforeDynamicBind?: (name: string, address: string, port: number) => void;
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
    // The listener manager's lines are Envoy's `config` logger's.
    log: s.logFor?.("config") ?? ((level, msg) => {
      if (level === "error" || level === "critical") console.error(`[${level}] ${msg}`);
    }),
    logFor: s.logFor,
  };
}

/** One bound listener. */
class Bound implements ListenerView {
  stopped = false;
  http: HttpListener | null = null;
  chains: ChainListener | null = null;
  tcp: Deno.TcpListener | null = null;
  proxy: TcpProxy | null = null;
  accepting: Promise<void> | null = null;
  /** Ends a TCP proxy listener's wait while accepting is paused (set when it closes). */
  tcpClosed: () => void = () => {};
  port: number;
  /** Set while draining: when the drain started. */
  drainStart = -1;
  /** For a listener from LDS: the version and time of the update that brought it. */
  apiUpdate?: { version_info: string; last_updated: string };
  /** The RDS subscription of its HTTP connection manager, and its first fetch. */
  rds: Subscription | null = null;
  rdsReady: Promise<void> = Promise.resolve();

  /** Serves a connection handed over to a TCP proxy listener without filter chain choice. */
  tcpAdopt: ((c: Deno.TcpConn, local: Deno.NetAddr) => void) | null = null;

  constructor(readonly spec: ListenerSpec) {
    this.port = spec.port;
  }

  /**
   * Serves a connection another listener handed over (`use_original_dst`); `local` is the
   * destination the client addressed, which this listener is bound to.
   */
  adopt(c: Deno.TcpConn, local: Deno.NetAddr): void {
    if (this.chains) this.chains.adopt(c, local);
    else if (this.http) this.http.adopt(c, local);
    else if (this.tcpAdopt) this.tcpAdopt(c, local);
    else c.close();
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

/** Owns the static listeners, and those of LDS when `deps.lds` is set. */
export class ListenerManager implements ListenerManagerView {
  #bound: Bound[];
  readonly #static = new Set<string>();
  readonly #lds: Subscription | null = null;
  #ldsVersion = "";
  #started = false;
  readonly #stopped = new Set<TrafficDirection | "ALL">();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  /** A hot restart's pins not yet applied: the drain's end or `close()`, whichever comes first. */
  #pins: readonly ReuseportPin[] = [];
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
      deps.secrets ?? null,
    );
    const ldsAt = "dynamic_resources.lds_config";
    const lds = deps.lds ? configSourceOf(deps.lds, ldsAt) : null;
    if (lds && !lds.ok) errors.push({ path: lds.at, rule: "", message: lds.message });
    const ldsProblem = lds?.ok ? deps.clusters.xds.check(lds.spec, ldsAt) : null;
    if (ldsProblem) errors.push({ ...ldsProblem, rule: "" });
    errors.push(
      ...rdsProblems(
        specs,
        "static_resources.listeners",
        (spec, at) => deps.clusters.xds.check(spec, at),
      ),
    );
    if (errors.length) throw new ConfigLoadError(errors);
    this.#bound = specs.map((s) => new Bound(s));
    for (const s of specs) this.#static.add(s.name);
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
    if (lds?.ok) {
      for (const n of ["listener_modified", "listener_removed", "listener_in_place_updated"]) {
        this.#lm.counter(n);
      }
      this.#lds = deps.clusters.xds.subscribe(
        lds.spec,
        TYPE_URLS.lds,
        null,
        this.#lm.scope("lds"),
        {
          onConfigUpdate: (r) => this.#applyLds(r),
          onConfigUpdateFailed: () => {},
        },
        { log: prefixed(this.#hooks.log, "lds: ") },
      );
    }
  }

  /**
   * Applies an LDS update: every resource must be a valid Listener this build supports, or the
   * whole update is refused (the subscription NACKs) before anything changes. New listeners are
   * bound, changed ones rebound (the old sockets close first: the same port), missing ones stop.
   */
  #applyLds(r: DiscoveryResponse) {
    const { specs, update } = checkLdsUpdate(r, {
      clusterNames: this.deps.clusters.names(),
      staticNames: this.#static,
      check: (spec, at) => this.deps.clusters.xds.check(spec, at),
    });
    // Every new address must bind before anything changes (Envoy creates the sockets first).
    const next = new Map(specs.map((s) => [s.name, s]));
    const problems: string[] = [];
    specs.forEach((s, i) => {
      const old = this.#bound.find((b) => b.name === s.name);
      if ((old && sameListener(old.config, s.config)) || this.#directionStopped(s.direction)) {
        return;
      }
      const r = checkAddress(s, this.#bound, next, this.deps.worker?.reusePort ?? false);
      if (typeof r === "string") problems.push(`resources[${i}].address: ${r}`);
    });
    if (problems.length) throw new Error(problems.join("; "));
    const names = new Set(specs.map((s) => s.name));
    const keep: Bound[] = [];
    for (const b of this.#bound) {
      if (this.#static.has(b.name) || names.has(b.name)) keep.push(b);
      else {
        this.#lm.counter("listener_removed").inc();
        this.#drainLds(b);
      }
    }
    this.#bound = keep;
    for (const [name, w] of this.#warming) {
      if (names.has(name)) continue;
      if (!keep.some((b) => b.name === name)) this.#lm.counter("listener_removed").inc();
      this.#unwarm(w);
    }
    for (const s of specs) {
      const i = this.#bound.findIndex((b) => b.name === s.name);
      const old = i >= 0 ? this.#bound[i] : null;
      const same = (b: Bound | null | undefined) => b != null && sameListener(b.config, s.config);
      const warming = this.#warming.get(s.name);
      if (same(warming)) continue;
      // A listener still warming is replaced by the newer one (or dropped when the update goes
      // back to the active listener's configuration).
      if (warming) this.#unwarm(warming);
      if (same(old)) continue;
      if (this.#directionStopped(s.direction)) {
        // The States table: once a direction's listeners were stopped by /drain_listeners,
        // listeners of that direction are neither added nor modified (as Envoy: skipped).
        this.#hooks.log(
          "warning",
          `lds: listener ${s.name} can not be ${old ? "modified" : "added"} because listeners ` +
            `in the traffic direction ${s.direction} are stopped`,
        );
        continue;
      }
      const b = new Bound(s);
      b.apiUpdate = update;
      this.#lm.counter(old ? "listener_modified" : "listener_added").inc();
      if (this.#started && this.#subscribeRoutes(b)) this.#warm(b);
      else this.#activate(b);
    }
    this.#ldsVersion = r.version_info;
  }

  /** LDS listeners waiting for their first route configuration, by name. */
  readonly #warming = new Map<string, Bound>();

  /**
   * Keeps `b` warming (`total_listeners_warming`, `/config_dump` `warming_state`) until its RDS
   * subscription's first fetch ends (routes taken, refused, or `initial_fetch_timeout`), then
   * makes it active in place of the listener of its name.
   */
  #warm(b: Bound) {
    this.#warming.set(b.name, b);
    this.#lm.gauge("total_listeners_warming").inc();
    void b.rdsReady.then(() => {
      if (this.#warming.get(b.name) !== b) return;
      this.#warming.delete(b.name);
      this.#lm.gauge("total_listeners_warming").dec();
      this.#activate(b);
    });
  }

  /** Ends the warming of `b`, which a later update replaced or removed. */
  #unwarm(b: Bound) {
    if (this.#warming.get(b.name) !== b) return;
    this.#warming.delete(b.name);
    this.#lm.gauge("total_listeners_warming").dec();
    b.stopped = true;
    void b.rds?.close();
  }

  /**
   * Makes `b` the listener of its name: a listener of that name stops accepting, then `b` binds
   * the same address while the old one's connections drain.
   */
  #activate(b: Bound) {
    const i = this.#bound.findIndex((x) => x.name === b.name);
    if (i >= 0) {
      const old = this.#bound[i];
      this.#bound[i] = b;
      this.#drainLds(old, () => this.#bindDynamic(b));
    } else {
      this.#bound.push(b);
      this.#bindDynamic(b);
    }
  }

  /** LDS listeners warming (`/config_dump` `warming_state`). */
  warmingListeners(): readonly ListenerView[] {
    return [...this.#warming.values()];
  }

  /** LDS listeners removed or replaced, still draining their connections. */
  readonly #draining = new Set<Bound>();

  /**
   * Retires a listener LDS removed or replaced: it stops accepting (then `then` runs: the address
   * is free for its successor), its connections drain for `--drain-time-s` (responses ask
   * clients to close, more and more as the time passes; requests in flight finish), and it is
   * counted in `total_listeners_draining` meanwhile.
   */
  #drainLds(b: Bound, then?: () => void) {
    if (b.stopped) return then?.();
    b.stopped = true;
    b.drainStart = performance.now();
    this.#lm.gauge("total_listeners_active").dec();
    const draining = this.#lm.gauge("total_listeners_draining");
    draining.inc();
    this.#draining.add(b);
    const ms = this.#hooks.drainTimeS * 1000;
    const tcpDone = b.tcp ? b.accepting : undefined;
    if (b.tcp) {
      try {
        b.tcp.close();
      } catch { /* closed */ }
    }
    const closing = b.http
      ? b.http.close(ms, then)
      : b.chains
      ? b.chains.close(then, ms)
      : (tcpDone ?? Promise.resolve()).then(() => then?.()).then(() => b.proxy?.drain(ms));
    void closing.then(() => b.rds?.close()).finally(() => {
      draining.dec();
      this.#draining.delete(b);
    });
  }

  /** LDS listeners draining (`/config_dump` `draining_state`). */
  drainingListeners(): readonly ListenerView[] {
    return [...this.#draining];
  }

  /** Accepted RDS route configurations by name (`/config_dump` `dynamic_route_configs`). */
  readonly routeConfigs = new Map<string, RdsState>();

  #bindDynamic(b: Bound) {
    if (!this.#started || b.stopped) return;
    try {
      this.deps.beforeDynamicBind?.(b.name, b.address, b.port);
      this.#bind(b);
      this.#lm.counter("listener_create_success").inc();
      this.#lm.gauge("total_listeners_active").inc();
    } catch (e) {
      // As Envoy's listener manager: counted, logged, and the listener is removed by name.
      this.#lm.counter("listener_create_failure").inc();
      b.stopped = true;
      void closeSockets(b);
      void b.rds?.close();
      const i = this.#bound.indexOf(b);
      if (i >= 0) this.#bound.splice(i, 1);
      this.#lm.counter("listener_removed").inc();
      this.#hooks.log("critical", `lds: ${bindError(b.name, b.address, b.port, e).message}`);
    }
  }

  /** Listeners the main thread's LDS bound on this worker, not yet in service, by token. */
  readonly #prepared = new Map<number, Bound>();

  /**
   * A data-plane worker's part of an LDS change (the main thread holds LDS and validated
   * `config`): binds the listener now, beside a listener of the same name (both share the port
   * through `reusePort`) on `port` (the one the main thread chose when the configuration says
   * 0), and returns the bound port. It joins {@linkcode listeners} with
   * {@linkcode commitDynamic}, once every worker has bound it. Throws "cannot bind" errors.
   */
  prepareDynamic(
    token: number,
    config: JsonObject,
    update: { version_info: string; last_updated: string },
    port: number,
  ): number {
    const { specs, errors } = parseListeners(
      [config],
      "resources",
      null,
      this.deps.secrets ?? null,
    );
    const spec = specs[0];
    if (!spec || errors.length) {
      throw new Error(errors.map((e) => `${e.path}: ${e.message}`).join("; "));
    }
    spec.port = port;
    const b = new Bound(spec);
    b.apiUpdate = update;
    try {
      this.#bind(b);
    } catch (e) {
      b.stopped = true;
      void closeSockets(b);
      throw bindError(spec.name, spec.address, port, e);
    }
    this.#prepared.set(token, b);
    return b.port;
  }

  /**
   * Puts the listener of `token` in service: a listener of its name leaves {@linkcode listeners}
   * and drains (`--drain-time-s`, `--drain-strategy`) while the new one takes new connections.
   */
  commitDynamic(token: number): void {
    const b = this.#prepared.get(token);
    if (!b) return;
    if (this.#directionStopped(b.direction)) {
      // /drain_listeners stopped its direction while the other workers were binding it.
      void this.abortDynamic(token);
      return;
    }
    this.#prepared.delete(token);
    this.#lm.counter("listener_create_success").inc();
    this.#lm.gauge("total_listeners_active").inc();
    const i = this.#bound.findIndex((x) => x.name === b.name);
    if (i < 0) {
      this.#bound.push(b);
      return;
    }
    const old = this.#bound[i];
    this.#bound[i] = b;
    this.#drainLds(old);
  }

  /** Closes the listener of `token`, bound but not in service (another worker could not bind). */
  async abortDynamic(token: number): Promise<void> {
    const b = this.#prepared.get(token);
    if (!b) return;
    this.#prepared.delete(token);
    b.stopped = true;
    b.proxy?.closeAll();
    await b.rds?.close();
    await closeSockets(b);
  }

  /** Takes the LDS listener `name` out of service; it drains as {@linkcode commitDynamic} says. */
  removeDynamic(name: string): void {
    const i = this.#bound.findIndex((x) => x.name === name && !this.#static.has(x.name));
    if (i < 0) return;
    const [old] = this.#bound.splice(i, 1);
    this.#drainLds(old);
  }

  /** The `version_info` of the last LDS update (`""` before one); `null` without LDS. */
  versionInfo(): string | null {
    return this.#lds ? this.#ldsVersion : null;
  }

  /** Binds every listener; rejects (after closing what was bound) when one cannot bind. */
  async start(): Promise<void> {
    try {
      for (const b of this.#bound) {
        // Every worker binds the static listeners; the first one counts them as added.
        if ((this.deps.worker?.index ?? 0) === 0) this.#lm.counter("listener_added").inc();
        try {
          this.#bind(b);
        } catch (e) {
          throw bindError(b.spec.name, b.address, b.port, e);
        }
        this.#lm.counter("listener_create_success").inc();
      }
    } catch (e) {
      this.#lm.counter("listener_create_failure").inc();
      await this.close();
      throw e;
    }
    this.#lm.gauge("total_listeners_active").set(this.#bound.length);
    this.#started = true;
    // A listener with RDS waits for its routes' first fetch (or its initial_fetch_timeout).
    await Promise.all(this.#bound.map((b) => b.rdsReady));
    // Listeners of the first LDS update are bound as it is applied.
    await this.#lds?.start();
    // ...and so do the listeners of the first LDS update.
    await Promise.all([...this.#warming.values()].map((b) => b.rdsReady));
    this.#lm.counter("workers_started").inc();
  }

  #listenerScope(b: Bound): Scope {
    return this.deps.stats.scope("listener").scope(`${b.address}_${b.port}`);
  }

  /** A listener with filter chain matching, TLS or listener filters. */
  #bindChains(b: Bound) {
    const servers = (c: ChainSpec): ChainServer => {
      const f = c.filter;
      if (f.kind === "tcp") {
        return {
          kind: "tcp",
          proxy: new TcpProxy(f.tcp, this.deps.clusters, this.deps.stats, this.#logs),
        };
      }
      const hs = this.deps.stats.scope("http").scope(f.hcm.statPrefix);
      const hcm = new HttpConnectionManager(f.hcm, {
        clusters: this.deps.clusters,
        stats: this.deps.stats,
        listenerStats: this.#listenerScope(b),
        hooks: this.#hooks,
        localAddress: this.#local,
        drainShare: () => this.#drainShare(b),
        accessLogFiles: this.#logs,
      });
      return {
        kind: "http",
        handler: (req, conn) => hcm.handle(req, conn),
        totals: [hs.counter("downstream_cx_total")],
        actives: [hs.gauge("downstream_cx_active")],
        trailers: f.hcm.options?.trailers === true,
        http2: f.hcm.options?.http2,
        limits: {
          limits: { ...f.hcm.limits, bufferLimitBytes: Math.max(16384, b.spec.bufferLimitBytes) },
          counters: limitCounters(hs, this.deps.stats),
          drainTimeoutMs: f.hcm.options?.drainTimeoutMs,
          delayedCloseMs: f.hcm.options?.delayedCloseMs ?? DELAYED_CLOSE_MS,
        },
      };
    };
    // The listener's scope is named by the bound port.
    b.chains = new ChainListener(
      b.spec,
      servers,
      (port) => {
        b.port = port;
        return this.#listenerScope(b);
      },
      this.deps.stats,
      this.deps.worker,
    );
    if (this.deps.overload) {
      b.chains.gate = new ConnectionGate(this.deps.overload, b.name, this.#listenerScope(b));
    }
    if (b.spec.useOriginalDst) b.chains.handoff = (to) => this.#handoffTarget(to, b);
  }

  /**
   * The listener a connection redirected to `from` goes to, as Envoy hands it over: the one
   * bound to its original destination `to`, else one bound to every address on that port; null
   * (`from` serves it) when there is none.
   */
  #handoffTarget(to: Deno.NetAddr, from: Bound): Bound | null {
    const live = this.#bound.filter((b) => b !== from && !b.stopped && b.port === to.port);
    return live.find((b) => b.address === to.hostname) ??
      live.find((b) => b.address === "0.0.0.0" || b.address === "::") ?? null;
  }

  #bind(b: Bound) {
    const f = b.spec.filter;
    if (!isSimple(b.spec)) this.#bindChains(b);
    else if (f.kind === "http") {
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
        f.hcm.options,
        this.deps.worker?.reusePort,
      );
      b.port = b.http.port;
      b.http.limits = {
        // A request body is read ahead in pieces of at least 16 KiB, as upstream.
        limits: { ...f.hcm.limits, bufferLimitBytes: Math.max(16384, b.spec.bufferLimitBytes) },
        counters: limitCounters(hs, this.deps.stats),
        drainTimeoutMs: f.hcm.options?.drainTimeoutMs,
        delayedCloseMs: f.hcm.options?.delayedCloseMs ?? DELAYED_CLOSE_MS,
      };
      const ls = this.#listenerScope(b);
      if (this.deps.overload) b.http.gate = new ConnectionGate(this.deps.overload, b.name, ls);
      b.http.log = this.#hooks.logFor?.("connection") ?? SILENT;
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
        overload: this.deps.overload,
      });
      this.#subscribeRoutes(b);
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
      const gate = this.deps.overload ? new ConnectionGate(this.deps.overload, b.name, ls) : null;
      let open = 0;
      let closed = false;
      const take = (c: Deno.Conn) => {
        open++;
        total.inc();
        active.inc();
        wTotal.inc();
        wActive.inc();
        proxy.handle(c).finally(() => {
          open--;
          gate?.closed();
          active.dec();
          wActive.dec();
        });
      };
      const closedSignal = new Promise<void>((r) =>
        b.tcpClosed = () => {
          closed = true;
          r();
        }
      );
      b.accepting = (async () => {
        try {
          while (!closed) {
            // While stop_accepting_connections is engaged, connections wait in the kernel's queue.
            if (await acceptPause(gate, closedSignal)) continue;
            const c = await listener.accept();
            if (gate !== null && !gate.admit(open)) {
              c.close();
              continue;
            }
            take(c);
          }
        } catch { /* listener closed */ }
      })();
      b.tcpAdopt = (c, local) => {
        if (closed || (gate !== null && !gate.admit(open))) return c.close();
        take(new ReplayConn(c, new Uint8Array(0), local) as unknown as Deno.Conn);
      };
    }
  }

  /**
   * Starts the RDS subscription of `b`'s HTTP connection manager, once; returns whether `b` has
   * one.
   */
  #subscribeRoutes(b: Bound): boolean {
    if (b.rds) return true;
    const f = b.spec.filter;
    if (!isSimple(b.spec) || f.kind !== "http" || !f.hcm.rds) return false;
    const src = configSourceOf(f.hcm.rds.source, "rds.config_source");
    if (!src.ok) return false;
    const feed = this.deps.routeFeed;
    if (feed) {
      const hcm = f.hcm;
      b.rds = feed.follow(hcm.rds!.name, (rc) => {
        const errors: ConfigError[] = [];
        const routes = parseRouteConfig(rc, "route_config", errors, null);
        // The main thread accepted it; a worker that cannot compile it keeps its routes.
        if (routes && errors.length === 0) hcm.routes = routes;
        else this.#hooks.log("warning", `rds ${hcm.rds!.name}: ${errors[0]?.message}`);
      });
      b.rdsReady = b.rds.start();
      return true;
    }
    b.rds = subscribeRds(f.hcm, src.spec, {
      clusters: this.deps.clusters,
      stats: this.deps.stats,
      log: this.#hooks.log,
      onAccepted: (st) => this.routeConfigs.set(f.hcm.rds!.name, st),
    });
    b.rdsReady = b.rds.start();
    return true;
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

  /** True once `/drain_listeners` stopped the listeners of `direction` (all, or INBOUND only). */
  #directionStopped(direction: TrafficDirection): boolean {
    return this.#stopped.has("ALL") || (direction === "INBOUND" && this.#stopped.has("INBOUND"));
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
    await b.rds?.close();
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
  async drain(opts: DrainOptions): Promise<void> {
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
    if (opts.pins?.length) this.#pins = opts.pins;
    for (const b of fresh) {
      b.drainStart = performance.now();
      this.#lm.gauge("total_listeners_draining").inc();
    }
    const t = setTimeout(() => {
      this.#timers.delete(t);
      this.#pinBeforeClosing();
      Promise.all(fresh.map((b) => this.#stop(b))).then(() => {
        mark();
        // When the sockets really close (a hot restart's parent resets what waits in them).
        const where = this.deps.worker ? ` on worker ${this.deps.worker.index}` : "";
        const names = fresh.map((b) => `${b.name} (${hostPort(b.address, b.port)})`);
        this.#hooks.log("info", `drain time over: stopped listening${where}: ${names.join(", ")}`);
      }, () => {});
    }, this.#hooks.drainTimeS * 1000);
    this.#timers.add(t);
  }

  /** Applies a hot restart's pins once, before the first listening socket closes. */
  #pinBeforeClosing(): void {
    const pins = this.#pins;
    this.#pins = [];
    pinBeforeClosing(pins, this.#hooks.log);
  }

  /**
   * Stops every listener and closes every proxied TCP connection. A hot restart's parent told to
   * shut down before its drain ended (`--parent-shutdown-time-s` shorter than `--drain-time-s`)
   * pins its reuseport groups first, as the drain's end would have.
   */
  async close(): Promise<void> {
    this.#pinBeforeClosing();
    await this.#lds?.close();
    for (const b of [...this.#warming.values()]) this.#unwarm(b);
    await Promise.all([...this.#prepared.keys()].map((t) => this.abortDynamic(t)));
    for (const b of this.#draining) b.proxy?.closeAll();
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await Promise.all(this.#bound.map(async (b) => {
      await b.rds?.close();
      b.proxy?.closeAll();
      if (!b.stopped && (b.tcp || b.http || b.chains)) {
        b.stopped = true;
        await closeSockets(b);
      }
    }));
    this.#logs.close();
  }
}

/**
 * Pins each reuseport group of `pins` to the index its child's sockets hold (a hot restart's
 * parent, just before its listening sockets close): no new connection waits in a socket about
 * to close. Every worker of the parent pins the same index; the first one to close matters.
 */
function pinBeforeClosing(pins: readonly ReuseportPin[], log: (l: string, m: string) => void) {
  for (const p of pins) {
    const r = pinGroup(p);
    if (r.ok) {
      log(
        "info",
        `hot restart: ${hostPort(p.address, p.port)} pinned to the new process's sockets ` +
          `(from index ${p.index}) before closing`,
      );
    } else {
      log(
        "warning",
        `hot restart: unable to pin ${hostPort(p.address, p.port)} to the ` +
          `new process's sockets before closing (${r.reason}); connections waiting in this ` +
          "process's accept queues may be reset",
      );
    }
  }
}

/** Closes a listener's listening sockets and waits for its accept loop to end. */
async function closeSockets(b: Bound): Promise<void> {
  if (b.http) await b.http.close();
  if (b.chains) await b.chains.close();
  if (b.tcp) {
    b.tcpClosed();
    try {
      b.tcp.close();
    } catch { /* closed */ }
    await b.accepting;
  }
}

/**
 * The error of a listener that could not start, naming it and, for a socket error, the address
 * it could not bind (Envoy's words: "cannot bind '<address>': <reason>").
 */
function bindError(name: string, address: string, port: number, e: unknown): Error {
  const msg = e instanceof Error ? e.message : String(e);
  const socket = e instanceof Deno.errors.AddrInUse || e instanceof Deno.errors.AddrNotAvailable ||
    e instanceof Deno.errors.PermissionDenied;
  return new Error(
    socket
      ? `listener '${name}': cannot bind '${hostPort(address, port)}': ${msg}`
      : `listener '${name}': ${msg}`,
  );
}
