/**
 * The server: builds the stats store, the logger, the runtime, the cluster manager, the listener
 * manager and (through the {@linkcode AdminPlugin} the layer above passes in) the admin listener,
 * runs the server state (PRE_INITIALIZING ->
 * INITIALIZING -> LIVE, DRAINING while health checks are failed or during shutdown), refreshes the
 * `server.*` stats on every stats flush, and shuts down cleanly on `/quitquitquit`, SIGTERM or
 * SIGINT (exit 0). SIGUSR1 reopens the logs. The PID is logged at start-up, so operators signal
 * the right process (under `npx`, the parent is Node.js); a Deno other than 2.9.1 is warned about.
 *
 * Start-up is tracked by init managers (`init_manager.ts`): `init manager Server` holds a target
 * per cluster, each listener has `init manager Listener <name>` with a target for itself; each is
 * ready once what it stands for has started, and the server is LIVE when all are. `startServer`
 * resolves once the admin listener, clusters and listeners are up, LIVE or (while a target added
 * through {@linkcode StartSettings.onInit} is still pending) INITIALIZING.
 *
 * `startServer` runs in phases, each a function below: core (store, flush timer, runtime,
 * validation), managers (clusters, listeners, init), admin (the plugin), signals, and shutdown
 * (`shutdown.ts`). What a phase acquires is undone in reverse when a later one fails.
 *
 * @example Not run: it starts a whole server (listeners, clusters, admin, signals) and exits.
 * ```ts ignore
 * import { startServer } from "./server.ts";
 * import { ADMIN } from "../admin/mod.ts";
 * const running = await startServer(options, bootstrap, { admin: ADMIN });
 * console.log(running.adminAddress);
 * await running.shutdown();
 * Deno.exit(await running.finished);
 * ```
 * @module
 */
import { needsProtobuf, PROTOBUF } from "../config/protobuf_module.ts";
import type { Feature } from "../../spec/rule.ts";
import type { Options } from "../config/options.ts";
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import { ConfigLoadError } from "../config/errors.ts";
import { applyNodeOverrides } from "../config/bootstrap.ts";
import { effectiveOptions } from "./configuration_check.ts";
import { checkConfiguration } from "./full_configuration_check.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { hotRestartVersion, versionString } from "./version.ts";
import { Store } from "../stats/store.ts";
import { startFlushTimer } from "./flush_timer.ts";
import { attachServerStats } from "./server_stats.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { createLogging, type Logging } from "./logger.ts";
import type { RuntimeView, ServerContext, ServerState } from "./context.ts";
import type { ClusterManagerView } from "../upstream/types.ts";
import type { ListenerManagerView } from "../listener/types.ts";
import { LayeredRuntime, RuntimeConfigError } from "./runtime.ts";
import { heapInUse, OverloadManager, parseOverloadManager } from "./overload_manager.ts";
import { ServerStateMachine } from "./state.ts";
import { type InitManager, InitManagers, type InitTarget } from "./init_manager.ts";
import { denoVersionWarning, Signals } from "./lifecycle.ts";
import type { Log } from "./shutdown.ts";
import { detectFeatures } from "./lifecycle_features.ts";
import { ListenerManager } from "../listener/listener_manager.ts";
import { Cleanups, Shutdown } from "./shutdown.ts";
import { collectCertificates, daysUntil, firstCertExpiry } from "./certs.ts";
import { SecretStore } from "../config/secrets.ts";
import type { WorkerPool } from "./workers.ts";
import { LazyModule } from "../platform/lazy_module.ts";
import { type Fanout, fanOutLogging, fanOutRuntime } from "./worker_fanout.ts";
import { HotRestart } from "./hot_restart.ts";
import { compactAfterStartup } from "./startup_compaction.ts";
import { serveHotRestart, takeOverFromParent } from "./hot_restart_server.ts";

/** A running server. */
export interface RunningServer {
  /** Resolves with the exit code when the server has stopped. */
  finished: Promise<number>;
  shutdown(): Promise<void>;
  /** What the admin interface sees (for embedding and tests). */
  context: ServerContext;
  /** The admin listener's `ip:port` (or pipe path); null without an admin block. */
  adminAddress: string | null;
}

/** A bound admin listener, as the server holds it. */
export interface AdminHandle {
  /** `ip:port`, or the pipe path. */
  address: string;
  close(): Promise<void>;
}

/**
 * The admin interface, plugged in from the layer above (`src/admin/mod.ts`): the server knows
 * nothing of its internals. `start` binds the admin listener for `server` (null when the
 * bootstrap has no admin block) and registers its own shutdown work with
 * {@linkcode ServerContext.onShutdown}.
 */
export interface AdminPlugin {
  start(server: ServerContext): Promise<AdminHandle | null>;
}

/** Settings of {@linkcode startServer} beyond the command line (embedding, tests). */
export interface StartSettings {
  /** Install SIGTERM/SIGINT/SIGUSR1 listeners (default true). */
  signals?: boolean;
  /** Use this logger instead of one built from the options (the caller closes it). */
  logging?: Logging;
  /** Unknown bootstrap fields accepted by `--allow-unknown-static-fields`, by path. */
  unknownStaticFields?: readonly string[];
  /**
   * Called with `init manager Server` before start-up waits on it: add the targets the server
   * must wait for (`manager.add("name")` returns a target; call its `ready()` when done).
   */
  onInit?: (server: InitManager) => void;
  /** The long names of the options given on the command line (see `configuration_check.ts`). */
  given?: ReadonlySet<string>;
  /** The admin interface; without it no admin listener is bound. */
  admin?: AdminPlugin;
}

class Server implements ServerContext {
  #healthCheckFailed = false;
  /** Called when the health-check-failed flag changes (workers read it). */
  onStateChange: (() => void) | null = null;
  /** `/healthcheck/fail` sets it; data-plane workers see the change at once. */
  get healthCheckFailed(): boolean {
    return this.#healthCheckFailed;
  }
  set healthCheckFailed(v: boolean) {
    this.#healthCheckFailed = v;
    this.onStateChange?.();
  }
  readonly startedAt = Date.now();
  /** Set from the parent's answer when this process was hot-restarted. */
  firstEpochStartedAt = this.startedAt;
  readonly version = versionString();
  readonly hotRestartVersion: string;
  clusters!: ClusterManagerView;
  listeners!: ListenerManagerView;
  shutdown: () => Promise<void> = () => Promise.resolve();
  readonly shutdownWork: Array<() => void | Promise<void>> = [];
  /** With workers: adds their stats into this thread's store (before every admin request). */
  syncWorkers?: () => Promise<void>;

  constructor(
    readonly options: Options,
    readonly bootstrap: Bootstrap,
    readonly stats: Store,
    readonly runtime: RuntimeView,
    readonly logging: Logging,
    readonly features: ReadonlySet<Feature>,
    readonly init: InitManagers,
    readonly machine: ServerStateMachine,
  ) {
    this.hotRestartVersion = hotRestartVersion(options);
  }

  state(): ServerState {
    return this.machine.state(this.healthCheckFailed);
  }

  onShutdown(work: () => void | Promise<void>): void {
    this.shutdownWork.push(work);
  }

  async reopenLogs(): Promise<void> {
    this.listeners.reopenAccessLogs();
    await this.logging.reopen();
  }
}

function configError(e: unknown, path: string): ConfigLoadError {
  if (e instanceof ConfigLoadError) return e;
  if (e instanceof RuntimeConfigError) {
    return new ConfigLoadError([{
      path: e.path,
      rule: "",
      message: e.message.slice(e.path.length + 2),
    }]);
  }
  const message = e instanceof Error ? e.message : String(e);
  // Errors of the form `<where>: <what>` keep their own path.
  const m = /^([A-Za-z_][\w.\[\]-]*|--[a-z-]+): ([\s\S]*)$/.exec(message);
  return new ConfigLoadError([
    m ? { path: m[1], rule: "", message: m[2] } : { path, rule: "", message },
  ]);
}

/** What the core phase builds. */
interface Core {
  store: Store;
  runtime: LayeredRuntime;
  clusters: EffectiveCluster[];
}

/**
 * Core phase: the stats store and its flush timer, the layered runtime, and the static clusters
 * validated (unknown fields accepted by `--allow-unknown-static-fields` are counted and logged).
 */
function startCore(
  options: Options,
  bootstrap: Bootstrap,
  settings: StartSettings,
  log: Log,
  cleanups: Cleanups,
): Core {
  const store = new Store();
  const flush = (() => {
    try {
      return startFlushTimer(store, bootstrap);
    } catch (e) {
      throw configError(e, "stats_flush_interval");
    }
  })();
  cleanups.push(() => flush.stop());

  let runtime: LayeredRuntime;
  try {
    runtime = LayeredRuntime.fromBootstrap(
      bootstrap,
      options.service_cluster,
      store.scope("runtime"),
    );
  } catch (e) {
    throw configError(e, "layered_runtime");
  }

  const unknown = store.scope("server").counter("static_unknown_fields");
  const acceptUnknown = (path: string) => {
    unknown.inc();
    log("warning", `unknown field ${path} (accepted because of --allow-unknown-static-fields)`);
  };
  const { errors, clusters } = checkConfiguration(options, bootstrap, {
    onUnknown: acceptUnknown,
    given: settings.given,
  });
  if (errors.length) throw new ConfigLoadError(errors);
  for (const p of settings.unknownStaticFields ?? []) acceptUnknown(p);
  return { store, runtime, clusters };
}

/** What the managers phase builds: the managers and the init targets start-up waits on. */
interface Managers {
  clusters: ClusterManager;
  /** The listener manager, or with `--concurrency` above 1 the workers that run the listeners. */
  listeners: ListenerManager | WorkerPool;
  clusterTargets: InitTarget[];
  listenerTargets: InitTarget[];
  /** `CDS` and `LDS`: the first updates of the dynamic resources (with their warming). */
  xdsTargets: { cds?: InitTarget; lds?: InitTarget };
}

/**
 * What only `--concurrency` above 1 runs: the worker pool and the overload state it shares with
 * the workers. Loaded before the managers are built when there are workers, so a one-worker
 * proxy never holds their modules (about 0.3 MiB of module text and source maps).
 */
const WORKER_MODULES = new LazyModule(
  "src/server/workers.ts",
  async () => {
    const [workers, share] = await Promise.all([
      import("./workers.ts"),
      import("./overload_share.ts"),
    ]);
    return { WorkerPool: workers.WorkerPool, OverloadShare: share.OverloadShare };
  },
);

/** With workers, `init manager Server` also waits for them to start (listeners or none). */
const WORKERS_TARGET = "workers";

/**
 * Stats index items settled per event-loop turn after start-up: about 5-10 ms of work, so
 * `/ready` and proxied requests keep answering while 10,000 clusters' stats are indexed.
 */
const SETTLE_SLICE = 2_000;

/**
 * Managers phase, first half: the cluster manager (one target of `init manager Server` per
 * cluster) and the listener manager (one `init manager Listener <name>` per listener); then
 * {@linkcode StartSettings.onInit} adds its own targets.
 */
function createManagers(
  server: Server,
  clusters: EffectiveCluster[],
  settings: StartSettings,
  cleanups: Cleanups,
  fanout: Fanout,
): Managers {
  const { bootstrap, options, stats: store, init } = server;
  const serverInit = init.create("server", "Server");
  let workers: WorkerPool | undefined;
  const cm: ClusterManager = new ClusterManager(clusters, {
    stats: store,
    log: server.logging.forComponent("upstream"),
    logFor: (c) => server.logging.forComponent(c),
    options,
    cds: (bootstrap.dynamic_resources as JsonObject | undefined)?.cds_config as
      | JsonObject
      | undefined,
    bindConfig: bootstrap.cluster_manager?.upstream_bind_config,
    runtime: server.runtime,
    localClusterName: bootstrap.cluster_manager?.local_cluster_name as string | undefined,
    loadStats: bootstrap.cluster_manager?.load_stats_config,
    // With workers, load reports gather every worker's request counts first.
    refreshLoadStats: (): Promise<void> => workers?.sync() ?? Promise.resolve(),
    localLocality: bootstrap.node?.locality,
    outlierEventLogPath: ((bootstrap.cluster_manager as JsonObject | undefined)
      ?.outlier_detection as JsonObject | undefined)?.event_log_path as string | undefined,
    node: applyNodeOverrides(bootstrap as JsonObject, options).node as JsonObject | undefined,
    ads: (bootstrap.dynamic_resources as JsonObject | undefined)?.ads_config,
  });
  server.clusters = cm;
  cleanups.push(() => cm.close());
  const overloadConfig =
    parseOverloadManager((bootstrap as JsonObject).overload_manager, "overload_manager").config;
  // With workers, the fixed-heap monitor counts every worker's memory too, and the actions'
  // values reach the workers' listeners through shared memory.
  const share = options.concurrency > 1 && overloadConfig !== null
    ? WORKER_MODULES.get().OverloadShare.create(options.concurrency)
    : undefined;
  const overload = new OverloadManager(
    overloadConfig,
    store,
    (key) => server.runtime.get(key),
    share ? () => heapInUse() + share.workersMemory() : undefined,
  );
  if (share) overload.onRefresh = (v) => share.publish(v);
  overload.start();
  cleanups.push(() => overload.stop());
  const clusterTargets = cm.clusters().map((c) => serverInit.add(`cluster ${c.name}`));
  const lm = options.concurrency > 1
    ? workers = new (WORKER_MODULES.get().WorkerPool)(options.concurrency, {
      options,
      bootstrap,
      store,
      clusters: cm,
      overload: share,
      log: server.logging.forComponent("main"),
      state: () => ({
        healthCheckFailed: server.healthCheckFailed,
        draining: server.state() === "DRAINING",
      }),
    })
    : new ListenerManager(
      (bootstrap.static_resources?.listeners ?? []) as JsonObject[],
      {
        clusters: cm,
        stats: store,
        overload,
        lds: (bootstrap.dynamic_resources as JsonObject | undefined)?.lds_config as
          | JsonObject
          | undefined,
        secrets: new SecretStore(bootstrap.static_resources?.secrets),
        server: {
          healthCheckFailed: () => server.healthCheckFailed,
          draining: () => server.state() === "DRAINING",
          options,
          logFor: (c) => server.logging.forComponent(c),
        },
        // Bound with reusePort so that a hot-restarted process can bind the same ports.
        worker: { index: 0, reusePort: !options.disable_hot_restart },
      },
    );
  if (workers) {
    const pool = workers;
    fanout.pool = pool;
    server.syncWorkers = () => pool.sync();
    server.onStateChange = () => pool.pushState();
  }
  server.listeners = lm;
  cleanups.push(() => lm.close());
  const listenerTargets = lm.listeners().map((l) =>
    init.create("listener", `Listener ${l.name}`).add(`listener ${l.name}`)
  );
  if (workers) listenerTargets.push(serverInit.add(WORKERS_TARGET));
  settings.onInit?.(serverInit);
  watchWarming(init, cm, lm);
  const dyn = bootstrap.dynamic_resources as JsonObject | undefined;
  const xdsTargets = {
    cds: dyn?.cds_config ? serverInit.add("CDS") : undefined,
    lds: dyn?.lds_config ? serverInit.add("LDS") : undefined,
  };
  return { clusters: cm, listeners: lm, clusterTargets, listenerTargets, xdsTargets };
}

/**
 * `/init_dump` lists what warms after start-up: a CDS cluster waiting for its endpoints (or first
 * health checks) as `init manager Cluster <name>`, an LDS listener waiting for its routes as
 * `init manager Listener <name>` with a target per RDS route configuration.
 */
function watchWarming(init: InitManagers, cm: ClusterManager, lm: ListenerManagerView): void {
  init.watch("cluster", () =>
    cm.warmingClusters().map((c) => ({
      name: `init manager Cluster ${c.name}`,
      target_names: [`target cluster ${c.name}`],
    })));
  init.watch("listener", () =>
    (lm.warmingListeners?.() ?? []).map((l) => ({
      name: `init manager Listener ${l.name}`,
      target_names: rdsNames(l.config).map((r) => `target RDS ${r}`),
    })));
}

/** The `rds.route_config_name`s of a listener's HTTP connection managers. */
function rdsNames(config: JsonObject): string[] {
  const chains = [
    ...((config.filter_chains ?? []) as JsonObject[]),
    ...(config.default_filter_chain ? [config.default_filter_chain as JsonObject] : []),
  ];
  return chains.flatMap((c) => (c.filters ?? []) as JsonObject[]).flatMap((f) => {
    const rds = (f.typed_config as JsonObject | undefined)?.rds as JsonObject | undefined;
    return typeof rds?.route_config_name === "string" ? [rds.route_config_name] : [];
  });
}

/**
 * Managers phase, second half: runs start-up. Clusters start, then listeners, each marking its
 * targets ready; once all are ready the server is LIVE (unless it is already stopping), records
 * `server.initialization_time_ms`, flushes the log and settles the stats index in the background.
 */
async function initialize(
  server: Server,
  managers: Managers,
  log: Log,
  stopping: () => boolean,
): Promise<void> {
  const { init, stats: store } = server;
  const began = performance.now();
  init.initialize(() => {
    if (stopping()) return;
    store.scope("server").histogram("initialization_time_ms", "milliseconds")
      .record(Math.round(performance.now() - began));
    log("info", "all init targets are ready: server is LIVE");
    // Start-up lines (the PID among them) reach a --log-path file now, not at the next flush.
    server.logging.flush();
    // Sort names and build the Prometheus index now, in slices, so the first /stats or scrape
    // does not pay for it.
    void store.settleInBackground(true, SETTLE_SLICE);
    // Hand back the pages start-up garbage holds (startup_compaction.ts).
    compactAfterStartup();
  });
  await managers.clusters.start();
  managers.xdsTargets.cds?.ready();
  // A cluster with active health checks is ready after their first round (Envoy's init).
  const clusterList = managers.clusters.clusters();
  await Promise.all(
    managers.clusterTargets.map((t, i) => {
      const c = clusterList[i];
      return (c ? c.initialHealthChecks() : Promise.resolve()).then(() => t.ready());
    }),
  );
  await managers.listeners.start();
  for (const t of managers.listenerTargets) t.ready();
  managers.xdsTargets.lds?.ready();
  if (server.machine.state(false) !== "LIVE") {
    log("info", `waiting for init targets: ${JSON.stringify(init.dump())}`);
  }
}

/** Admin phase: the plugin binds the admin listener (none without a plugin or an admin block). */
async function startAdmin(
  server: Server,
  plugin: AdminPlugin | undefined,
  log: Log,
  cleanups: Cleanups,
): Promise<AdminHandle | null> {
  let admin: AdminHandle | null = null;
  try {
    admin = await plugin?.start(server) ?? null;
  } catch (e) {
    throw configError(e, "admin.address");
  }
  if (admin) {
    const handle = admin;
    cleanups.push(() => handle.close());
    log("info", `admin address: ${admin.address}`);
  }
  return admin;
}

/** `stats_server_version_override` (a UInt64Value, plain or wrapped), when set. */
function versionOverride(bootstrap: Bootstrap): number | undefined {
  let v: unknown = (bootstrap as JsonObject).stats_server_version_override;
  if (v && typeof v === "object" && "value" in v) v = (v as { value: unknown }).value;
  const n = typeof v === "string" ? Number(v) : v;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** Refreshes the `server.*` stats on every flush; returns the detach function. */
function watchServerStats(server: Server): () => void {
  // Static certificates do not change while the server runs: read and parse them once here,
  // not (synchronously, for every cluster and listener) on each stats flush.
  const certExpiry = firstCertExpiry(collectCertificates(server, Date.now()));
  return attachServerStats(server.stats, () => ({
    state: server.state(),
    uptimeSeconds: (Date.now() - server.startedAt) / 1000,
    concurrency: server.options.concurrency,
    hotRestartEpoch: server.options.restart_epoch,
    daysUntilFirstCertExpiring: certExpiry === undefined
      ? undefined
      : daysUntil(certExpiry, Date.now()),
    version: versionOverride(server.bootstrap) ?? server.version,
  }));
}

/** Signals phase: SIGTERM and SIGINT shut down, SIGUSR1 reopens the logs. */
function installSignals(
  server: Server,
  settings: StartSettings,
  log: Log,
  shutdown: () => Promise<void>,
): Signals {
  const signals = new Signals({
    onTerminate: (sig) => {
      log("info", `caught ${sig}: shutting down`);
      void shutdown();
    },
    onReopen: () => {
      log("info", "caught SIGUSR1: reopening logs");
      server.reopenLogs().catch((e) => log("error", `reopening logs failed: ${e}`));
    },
  });
  if (settings.signals !== false) signals.start();
  return signals;
}

/** Starts serving; rejects with a {@linkcode ConfigLoadError} naming where the bootstrap is wrong. */
export async function startServer(
  commandLine: Options,
  bootstrap: Bootstrap,
  settings: StartSettings = {},
): Promise<RunningServer> {
  const logging = settings.logging ?? createLogging(commandLine);
  const log: Log = logging.forComponent("main");
  log("info", `starting proxyspec ${versionString()} (pid ${Deno.pid}; send signals to this pid)`);
  const { options, why } = effectiveOptions(commandLine, settings.given);
  if (why) log("info", why);
  const warning = denoVersionWarning();
  if (warning) log("warning", warning);

  // The protobuf runtime only when this configuration may speak protobuf (protobuf_module.ts).
  if (needsProtobuf(bootstrap, commandLine.config_path)) await PROTOBUF.load();
  if (options.concurrency > 1) await WORKER_MODULES.load();
  const cleanups = new Cleanups();
  const fanout: Fanout = { pool: null };
  try {
    // An embedded server (no command line) takes part in hot restart only when it has a parent.
    const hr = settings.given || options.restart_epoch > 0
      ? await HotRestart.start(
        options,
        log,
        (settings.given?.has("--base-id") ?? false) || options.restart_epoch > 0 ||
          options.use_dynamic_base_id,
      )
      : null;
    if (hr) cleanups.push(() => hr.close());
    // Cleanups run latest first: this one once listeners and workers have stopped.
    if (hr) cleanups.push(() => hr.handOver());
    const core = startCore(options, bootstrap, settings, log, cleanups);
    const init = new InitManagers();
    const server = new Server(
      options,
      bootstrap,
      core.store,
      fanOutRuntime(core.runtime, fanout),
      fanOutLogging(logging, fanout),
      detectFeatures(options, bootstrap),
      init,
      new ServerStateMachine(init),
    );
    if (hr?.parent) server.firstEpochStartedAt = hr.parent.firstEpochStartedAt;
    const managers = createManagers(server, core.clusters, settings, cleanups, fanout);
    const admin = await startAdmin(server, settings.admin, log, cleanups);
    const stop = new Shutdown(server, cleanups, log, !settings.logging);
    await initialize(server, managers, log, () => stop.started);
    stop.detachStats = watchServerStats(server);
    const shutdown = () => stop.run();
    stop.signals = installSignals(server, settings, log, shutdown);
    server.shutdown = shutdown;
    if (hr) {
      serveHotRestart(hr, server, log);
      if (hr.parent) void takeOverFromParent(hr, server, log, () => stop.started);
    }
    return {
      finished: stop.finished,
      shutdown,
      context: server,
      adminAddress: admin?.address ?? null,
    };
  } catch (e) {
    await cleanups.run();
    if (!settings.logging) logging.close();
    throw e;
  }
}
