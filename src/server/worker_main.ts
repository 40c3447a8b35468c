/**
 * The entry point of a data-plane worker (a Deno `Worker`, started by `workers.ts`). A worker
 * runs the listeners (bound with `reusePort`, so the kernel spreads connections over the
 * workers) and a copy of the cluster manager without discovery or health checking: the main
 * thread sends each cluster's host set and health whenever they change. Circuit breaker counts
 * live in shared memory, so the limits hold per cluster across workers. The worker keeps its own
 * stats store and reports the changes when the main thread asks (`sync`), before every admin
 * request and on a timer. Drains, log levels, runtime changes and log reopening arrive as
 * messages; `close` stops the listeners and the pools, reports the last stats and ends the
 * worker.
 *
 * Outlier detection runs once, on the main thread: the worker's clusters record each answer and
 * local-origin result per host and send them in batches ({@linkcode OUTLIER_BATCH_MS}, and before
 * every stats report); ejections come back with the host set's health. Clusters that CDS adds,
 * changes or removes on the main thread arrive as `cluster` and `cluster_removed` messages.
 * `/tap` sessions attached on the main thread arrive as `tap_attach` and `tap_detach`; the worker
 * registers a copy with its tap filters and sends each trace to the main thread's admin stream.
 *
 * @module
 */
import { needsProtobuf, PROTOBUF } from "../config/protobuf_module.ts";
import { Store } from "../stats/store.ts";
import { WorkerStatsExporter } from "../stats/worker_stats.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import type { Cluster } from "../upstream/cluster.ts";
import { HostCounter } from "../upstream/host_stats.ts";
import { ListenerManager } from "../listener/listener_manager.ts";
import { SecretStore } from "../config/secrets.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { checkConfiguration } from "./full_configuration_check.ts";
import { createLogging, type Logging } from "./logger.ts";
import { compactAfterStartup } from "./startup_compaction.ts";
import { LayeredRuntime } from "./runtime.ts";
import { OpenConnections } from "../listener/overload_state.ts";
import { RouteFeed } from "../listener/route_feed.ts";
import type { ListenerView } from "../listener/types.ts";
import { applyListenerChange } from "./worker_listeners.ts";
import { parseOverloadManager } from "./overload_manager.ts";
import { OverloadShare, WorkerOverload } from "./overload_share.ts";
import { OutlierEventRecorder } from "../upstream/outlier/outlier_events.ts";
import { attachTapSession, compileTapMatch } from "../filters/tap_filter.ts";
import type { SharedCount } from "../upstream/circuit_breaker.ts";
import type {
  ClusterCopy,
  FromWorker,
  HostCopy,
  HostStatsDelta,
  ListenerCopy,
  ToWorker,
  WorkerInit,
} from "./worker_protocol.ts";

/** A running worker. */
interface Running {
  store: Store;
  exporter: WorkerStatsExporter;
  clusters: ClusterManager;
  listeners: ListenerManager;
  logging: Logging;
  runtime: LayeredRuntime;
  outlier: OutlierEventRecorder;
  /** Circuit breaker counts of the clusters CDS added, by name. */
  dynamicShared: Map<string, SharedCount>;
  /** The route configurations the main thread sends (RDS). */
  routeFeed: RouteFeed;
}

/** How long a worker gathers outlier events before sending them to the main thread. */
export const OUTLIER_BATCH_MS = 20;

/** The worker's global scope, as this module uses it. */
const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(m: FromWorker): void;
  close(): void;
};
const post = (m: FromWorker) => scope.postMessage(m);

/**
 * Makes a replica cluster take the main thread's host set and health, as one update (so the
 * merge window sees one update, as on the main thread).
 */
function applyHosts(c: Cluster, hosts: HostCopy[], initialized: boolean): void {
  c.updateHosts(hosts.map((h) => h.host), (list) => {
    hosts.forEach((copy, i) => {
      const h = list[i];
      if (!h) return;
      h.setFlag("failed_active_hc", copy.health.failed_active_hc);
      h.setFlag("failed_eds_health", copy.health.failed_eds_health);
      h.setFlag("failed_outlier_check", copy.health.failed_outlier_check);
      h.setMarks({ degraded: copy.degraded, excluded: copy.excluded });
      h.setPending(copy.pending);
      if (copy.healthySince !== null) {
        h.lastHcPassTime = copy.healthySince - performance.timeOrigin;
      }
    });
  });
  for (const h of c.hosts()) c.healthChanged(h);
  if (initialized) c.initialized = true;
}

/** The bootstrap's listeners bound to the ports worker 0 got. */
function withPorts(listeners: JsonObject[], ports: number[] | null): JsonObject[] {
  if (!ports) return listeners;
  return listeners.map((l, i) => {
    const copy = structuredClone(l);
    const sa = (copy.address as JsonObject | undefined)?.socket_address as JsonObject | undefined;
    if (sa && ports[i] !== undefined) sa.port_value = ports[i];
    return copy;
  });
}

function listenerCopies(listeners: readonly ListenerView[]): ListenerCopy[] {
  return listeners.map((l) => ({
    name: l.name,
    address: l.address,
    port: l.port,
    direction: l.direction,
    config: l.config,
    stopped: l.stopped,
    ...(l.apiUpdate ? { apiUpdate: l.apiUpdate } : {}),
  }));
}

async function start(init: WorkerInit): Promise<Running> {
  const { options, bootstrap } = init;
  if (needsProtobuf(bootstrap, options.config_path)) await PROTOBUF.load();
  const logging = createLogging(options);
  const store = new Store();
  const runtime = LayeredRuntime.fromBootstrap(
    bootstrap,
    options.service_cluster,
    store.scope("runtime"),
  );
  const { errors, clusters: effective } = checkConfiguration(options, bootstrap, {});
  if (errors.length) throw new Error(errors.map((e) => `${e.path}: ${e.message}`).join("; "));
  const dynamicShared = new Map<string, SharedCount>();
  let outlierTimer: ReturnType<typeof setTimeout> | undefined;
  const outlier = new OutlierEventRecorder(() => {
    outlierTimer = setTimeout(() => sendOutlierEvents(outlier), OUTLIER_BATCH_MS);
  });
  stopOutlierTimer = () => clearTimeout(outlierTimer);
  const clusters = new ClusterManager(effective, {
    stats: store,
    log: logging.forComponent("upstream"),
    logFor: (c) => logging.forComponent(c),
    options,
    runtime,
    replica: true,
    bindConfig: bootstrap.cluster_manager?.upstream_bind_config,
    localClusterName: bootstrap.cluster_manager?.local_cluster_name as string | undefined,
    localLocality: bootstrap.node?.locality,
    outlierEvents: outlier,
    sharedCounts: (name) => {
      const dynamic = dynamicShared.get(name);
      if (dynamic) return dynamic;
      const index = init.sharedIndex[name];
      return index === undefined ? undefined : { array: init.shared, index };
    },
  });
  for (const c of clusters.clusters()) {
    const h = init.hosts[c.name];
    if (h) applyHosts(c, h.hosts, h.initialized);
  }
  for (const copy of init.dynamic) setCluster(clusters, dynamicShared, copy);
  const flags = init.flags;
  const routeFeed = new RouteFeed(init.routes);
  const open = new OpenConnections(flags, 2);
  const overloadConfig =
    parseOverloadManager((bootstrap as JsonObject).overload_manager, "overload_manager").config;
  const overload = init.overload && overloadConfig
    ? new WorkerOverload(
      new OverloadShare(init.overload),
      init.index,
      overloadConfig,
      (key) => runtime.get(key),
      open,
      store,
    )
    : {
      value: () => 0,
      runtime: (key: string) => runtime.get(key),
      open,
      acceptResumed: () => null,
    };
  if (overload instanceof WorkerOverload) {
    overload.start();
    stopOverload = () => overload.stop();
  }
  const listeners = new ListenerManager(
    withPorts((bootstrap.static_resources?.listeners ?? []) as JsonObject[], init.ports),
    {
      clusters,
      stats: store,
      secrets: new SecretStore(bootstrap.static_resources?.secrets),
      server: {
        healthCheckFailed: () => Atomics.load(flags, 0) === 1,
        draining: () => Atomics.load(flags, 1) === 1,
        options,
        logFor: (c) => logging.forComponent(c),
      },
      worker: { index: init.index, reusePort: true },
      routeFeed,
      // The connection limits (runtime keys) hold across workers through the shared count; the
      // overload manager's actions come from the main thread through the share.
      overload,
    },
  );
  await listeners.start();
  return {
    store,
    exporter: new WorkerStatsExporter(store),
    clusters,
    listeners,
    logging,
    runtime,
    outlier,
    dynamicShared,
    routeFeed,
  };
}

let stopOutlierTimer = () => {};
let stopOverload = () => {};

/** Sends the outlier events gathered so far (nothing when there are none). */
function sendOutlierEvents(r: OutlierEventRecorder): void {
  stopOutlierTimer();
  const events = r.take();
  if (events) post({ type: "outlier", events });
}

/** Takes a cluster that CDS made active on the main thread (added, or replacing its copy). */
function setCluster(
  cm: ClusterManager,
  shared: Map<string, SharedCount>,
  copy: ClusterCopy,
): void {
  shared.set(copy.cluster.name, copy.shared);
  const c = cm.setReplicaCluster(copy.cluster, copy.apiUpdate);
  applyHosts(c, copy.hosts, copy.initialized);
}

const sentHost = new Map<string, number>();

/** Per-host counter increments and gauge values since the last report. */
function hostStats(cm: ClusterManager): HostStatsDelta {
  const out: HostStatsDelta = [];
  for (const c of cm.clusters()) {
    for (const h of c.hosts()) {
      const counters: Array<[string, number]> = [];
      const gauges: Array<[string, number]> = [];
      for (const [name, s] of Object.entries(h.stats)) {
        const v = s.value();
        if (s instanceof HostCounter) {
          const k = `${c.name}\n${h.key}\n${name}`;
          const before = sentHost.get(k) ?? 0;
          if (v === before) continue;
          sentHost.set(k, v);
          counters.push([name, v - before]);
        } else gauges.push([name, v]);
      }
      out.push([c.name, h.key, counters, gauges]);
    }
  }
  return out;
}

function report(r: Running, id: number): void {
  sendOutlierEvents(r.outlier);
  post({
    type: "stats",
    id,
    stats: r.exporter.collect(),
    hosts: hostStats(r.clusters),
    listeners: listenerCopies(r.listeners.listeners()),
    draining: listenerCopies(r.listeners.drainingListeners()),
    stopped: [...r.listeners.stoppedDirections()],
  });
}

let running: Running | null = null;
/** Detach functions of the `/tap` session copies, by the pool's number. */
const taps = new Map<number, () => void>();

/** Messages that arrived while the worker was starting, handled in order once it runs. */
let starting: ToWorker[] | null = null;

async function handle(m: ToWorker): Promise<void> {
  if (m.type === "init") {
    starting = [];
    try {
      running = await start(m);
      post({ type: "ready", listeners: listenerCopies(running.listeners.listeners()) });
      compactAfterStartup();
    } catch (e) {
      post({ type: "failed", message: e instanceof Error ? e.message : String(e) });
    }
    const queued = starting;
    starting = null;
    for (const q of queued) await handle(q);
    return;
  }
  if (starting) {
    starting.push(m);
    return;
  }
  const r = running;
  if (!r) return;
  switch (m.type) {
    case "hosts": {
      const c = r.clusters.get(m.cluster);
      if (c) applyHosts(c, m.hosts, m.initialized);
      return;
    }
    case "cluster": {
      setCluster(r.clusters, r.dynamicShared, m);
      return;
    }
    case "cluster_removed":
      r.clusters.removeReplicaCluster(m.name);
      r.dynamicShared.delete(m.name);
      return;
    case "tap_attach": {
      const match = compileTapMatch(m.matchConfig, "TapRequest.tap_config.match", []);
      if (!match) return;
      const id = m.id;
      taps.get(id)?.();
      taps.set(
        id,
        attachTapSession({
          configId: m.configId,
          match,
          maxRx: m.maxRx,
          maxTx: m.maxTx,
          asString: m.asString,
          send: (trace) => {
            post({ type: "tap", id, trace });
            return true;
          },
        }),
      );
      return;
    }
    case "tap_detach":
      taps.get(m.id)?.();
      taps.delete(m.id);
      return;
    case "sync":
      report(r, m.id);
      return;
    case "drain":
      await r.listeners.drain({ inboundOnly: m.inboundOnly, graceful: m.graceful, pins: m.pins });
      post({ type: "done", id: m.id });
      return;
    case "runtime":
      r.runtime.modify(m.pairs);
      return;
    case "log":
      if (m.name === null) r.logging.setAll(m.level);
      else r.logging.set(m.name, m.level);
      return;
    case "routes":
      r.routeFeed.update(m.name, m.routeConfig);
      return;
    case "listener_prepare":
    case "listener_commit":
    case "listener_abort":
    case "listener_remove":
      await applyListenerChange(r.listeners, m, post);
      return;
    case "reopen":
      r.listeners.reopenAccessLogs();
      await r.logging.reopen();
      return;
    case "close":
      stopOverload();
      await r.listeners.close();
      await r.clusters.close();
      report(r, m.id);
      r.logging.close();
      scope.close();
      return;
  }
}

scope.onmessage = (e: MessageEvent<ToWorker>) => {
  void handle(e.data).catch((err) => {
    console.error(`worker: ${err instanceof Error ? err.message : err}`);
  });
};
// The main thread holds its messages until now (a message that arrives while this module graph
// is still being evaluated finds no handler and is lost: see `worker_mailbox.ts`).
post({ type: "loaded" });
