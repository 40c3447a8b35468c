/**
 * The server: builds the stats store, the logger, the runtime, the cluster manager, the listener
 * manager and (through the {@linkcode AdminPlugin} the layer above passes in) the admin listener,
 * runs the server state (PRE_INITIALIZING →
 * INITIALIZING → LIVE, DRAINING while health checks are failed or during shutdown), refreshes the
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
 * @example
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
import type { Feature } from "../../spec/rule.ts";
import type { Options } from "../config/options.ts";
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import { type ConfigError, ConfigLoadError } from "../config/errors.ts";
import { validateClusters } from "../config/validate_cluster.ts";
import { hotRestartVersion, versionString } from "./version.ts";
import { allowsUnknownStaticFields } from "../config/args.ts";
import { Store } from "../stats/store.ts";
import { startFlushTimer } from "./flush_timer.ts";
import { attachServerStats } from "./server_stats.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { createLogging, type Logging } from "./logger.ts";
import type { RuntimeView, ServerContext, ServerState } from "./context.ts";
import type { ClusterManagerView } from "../upstream/types.ts";
import type { ListenerManagerView } from "../listener/types.ts";
import { LayeredRuntime, RuntimeConfigError } from "./runtime.ts";
import { ServerStateMachine } from "./state.ts";
import { type InitManager, InitManagers } from "./init_manager.ts";
import { denoVersionWarning, Signals } from "./lifecycle.ts";
import { detectFeatures } from "./lifecycle_features.ts";
import { ListenerManager } from "../listener/listener_manager.ts";
import { collectCertificates, daysUntil, firstCertExpiry } from "./certs.ts";

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
  /** The admin interface; without it no admin listener is bound. */
  admin?: AdminPlugin;
}

class Server implements ServerContext {
  healthCheckFailed = false;
  readonly startedAt = Date.now();
  readonly firstEpochStartedAt = this.startedAt;
  readonly version = versionString();
  readonly hotRestartVersion: string;
  clusters!: ClusterManagerView;
  listeners!: ListenerManagerView;
  shutdown: () => Promise<void> = () => Promise.resolve();
  readonly shutdownWork: Array<() => void | Promise<void>> = [];

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

/** Starts serving; rejects with a {@linkcode ConfigLoadError} naming where the bootstrap is wrong. */
export async function startServer(
  options: Options,
  bootstrap: Bootstrap,
  settings: StartSettings = {},
): Promise<RunningServer> {
  const logging = settings.logging ?? createLogging(options);
  const log = (level: string, msg: string) => logging.log("main", level, msg);
  log("info", `starting proxyspec ${versionString()} (pid ${Deno.pid}; send signals to this pid)`);
  const warning = denoVersionWarning();
  if (warning) log("warning", warning);

  const store = new Store();
  const cleanups: Array<() => void | Promise<void>> = [];
  const undo = async () => {
    for (const c of cleanups.reverse()) await c();
  };
  try {
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
    const { errors, clusters } = validateClusters(bootstrap.static_resources?.clusters ?? [], {
      path: "static_resources.clusters",
      allowUnknown: allowsUnknownStaticFields(options),
      onUnknown: acceptUnknown,
      bindConfig: bootstrap.cluster_manager?.upstream_bind_config,
    });
    if (errors.length) throw new ConfigLoadError(errors as ConfigError[]);
    for (const p of settings.unknownStaticFields ?? []) acceptUnknown(p);

    const init = new InitManagers();
    const serverInit = init.create("server", "Server");
    const machine = new ServerStateMachine(init);
    const server = new Server(
      options,
      bootstrap,
      store,
      runtime,
      logging,
      detectFeatures(options, bootstrap),
      init,
      machine,
    );

    const cm = new ClusterManager(clusters, {
      stats: store,
      log: (level, msg) => logging.log("upstream", level, msg),
      options,
      cds: (bootstrap.dynamic_resources as JsonObject | undefined)?.cds_config as
        | JsonObject
        | undefined,
      bindConfig: bootstrap.cluster_manager?.upstream_bind_config,
      runtime,
    });
    server.clusters = cm;
    cleanups.push(() => cm.close());
    const clusterTargets = cm.clusters().map((c) => serverInit.add(`cluster ${c.name}`));
    const lm = new ListenerManager(
      (bootstrap.static_resources?.listeners ?? []) as JsonObject[],
      {
        clusters: cm,
        stats: store,
        server: {
          healthCheckFailed: () => server.healthCheckFailed,
          draining: () => server.state() === "DRAINING",
          options,
        },
      },
    );
    server.listeners = lm;
    cleanups.push(() => lm.close());
    const listenerTargets = lm.listeners().map((l) =>
      init.create("listener", `Listener ${l.name}`).add(`listener ${l.name}`)
    );
    settings.onInit?.(serverInit);

    let admin: AdminHandle | null = null;
    try {
      admin = await settings.admin?.start(server) ?? null;
    } catch (e) {
      throw configError(e, "admin.address");
    }
    if (admin) {
      cleanups.push(() => admin!.close());
      log("info", `admin address: ${admin.address}`);
    }

    let stopping: Promise<void> | null = null;
    const began = performance.now();
    init.initialize(() => {
      if (stopping) return;
      store.scope("server").histogram("initialization_time_ms", "milliseconds")
        .record(Math.round(performance.now() - began));
      log("info", "all init targets are ready: server is LIVE");
      // Start-up lines (the PID among them) reach a --log-path file now, not at the next flush.
      logging.flush();
      // Sort names and build the Prometheus index now, in slices, so the first /stats or scrape
      // does not pay for it.
      void store.settleInBackground(true);
    });
    await cm.start();
    // A cluster with active health checks is ready after their first round (Envoy's init).
    const clusterList = cm.clusters();
    await Promise.all(
      clusterTargets.map((t, i) => {
        const c = clusterList[i];
        return (c ? c.initialHealthChecks() : Promise.resolve()).then(() => t.ready());
      }),
    );
    await lm.start();
    for (const t of listenerTargets) t.ready();
    if (machine.state(false) !== "LIVE") {
      log("info", `waiting for init targets: ${JSON.stringify(init.dump())}`);
    }

    // Static certificates do not change while the server runs: read and parse them once here,
    // not (synchronously, for every cluster and listener) on each stats flush.
    const certExpiry = firstCertExpiry(collectCertificates(server, Date.now()));
    const detachStats = attachServerStats(store, () => ({
      state: server.state(),
      uptimeSeconds: (Date.now() - server.startedAt) / 1000,
      concurrency: options.concurrency,
      hotRestartEpoch: options.restart_epoch,
      daysUntilFirstCertExpiring: certExpiry === undefined
        ? undefined
        : daysUntil(certExpiry, Date.now()),
      version: server.version,
    }));

    let resolveFinished!: (code: number) => void;
    const finished = new Promise<number>((r) => resolveFinished = r);
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

    const shutdown = (): Promise<void> => {
      stopping ??= (async () => {
        machine.startDraining();
        signals.stop();
        detachStats();
        for (const work of server.shutdownWork.reverse()) await work();
        await undo();
        log("info", "shutdown complete");
        if (!settings.logging) logging.close();
        resolveFinished(0);
      })();
      return stopping;
    };
    server.shutdown = shutdown;
    return { finished, shutdown, context: server, adminAddress: admin?.address ?? null };
  } catch (e) {
    await undo();
    if (!settings.logging) logging.close();
    throw e;
  }
}
