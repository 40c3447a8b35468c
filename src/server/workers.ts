/**
 * Data-plane workers for `--concurrency N` (N above 1): N Deno `Worker`s, each running every
 * listener with `reusePort` (`worker_main.ts`), while the main thread keeps the admin
 * interface, discovery (EDS, DNS) and health checking. A slow admin request (a huge
 * `/config_dump`, a costly stats regex) therefore never stalls traffic.
 *
 * Workers, not processes: measured on the 2-core development machine, a Worker starts in about
 * the time of a module load and shares memory, so circuit breaker counts are one
 * `SharedArrayBuffer` word per resource (`Atomics`), host sets and stats are one `postMessage`
 * away, and `/quitquitquit` or a crash of the main thread takes every worker with it (no
 * orphans). Processes would need a socket protocol for all of it and a reaper for children.
 *
 * The pool is the {@linkcode ListenerManagerView} the admin interface sees: `/listeners` shows
 * worker 0's listeners, `/drain_listeners` drains every worker, and {@linkcode WorkerPool.sync}
 * (run before every admin request and every second) adds the workers' stats into the main
 * thread's store (`src/stats/worker_stats.ts`) and their per-host stats into the main thread's
 * hosts, so `/stats`, `/clusters` and every other output show one total.
 *
 * Outlier detection is one detector per cluster for the whole process, on the main thread (as in
 * Envoy): workers send batches of per-host events (`outlier` messages), the pool replays them
 * into the main thread's detectors, and an ejection or return reaches every worker with the host
 * set's health. Clusters that CDS (from a file or a control plane) adds, changes or removes on the
 * main thread reach every worker as `cluster` and `cluster_removed` messages, each with its own
 * shared circuit breaker counts. `/tap` sessions attached on the main thread are copied to every
 * worker (`tap_attach`, `tap_detach`); the workers' traces come back to the admin stream.
 *
 * @example Not run: it starts workers that bind the bootstrap's listeners.
 * ```ts ignore
 * const pool = new WorkerPool(2, { options, bootstrap, store, clusters, log, state });
 * await pool.start();
 * await pool.sync();
 * await pool.close();
 * ```
 * @module
 */
import { WorkerRoutes } from "./worker_routes.ts";
import { WorkerLds } from "./worker_listeners.ts";
import type { RdsState } from "../listener/rds_routes.ts";
import type { OverloadShare } from "./overload_share.ts";
import type { Options } from "../config/options.ts";
import type { Bootstrap, JsonObject } from "../config/bootstrap_types.ts";
import type { Store } from "../stats/store.ts";
import { WorkerStatsImporter } from "../stats/worker_stats.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import type { Cluster } from "../upstream/cluster.ts";
import { SHARED_COUNTS_PER_CLUSTER, type SharedCount } from "../upstream/circuit_breaker.ts";
import { replayOutlierEvents } from "../upstream/outlier/outlier_events.ts";
import { type TapSession, watchTapSessions } from "../filters/tap_filter.ts";
import { HostCounter, HostGauge } from "../upstream/host_stats.ts";
import type {
  DrainOptions,
  ListenerManagerView,
  ListenerView,
  TrafficDirection,
} from "../listener/types.ts";
import { parseListeners } from "../listener/validate_listeners.ts";
import {
  type ClusterCopy,
  type FromWorker,
  hostCopies,
  type HostStatsDelta,
  type ListenerCopy,
  type ServerFlags,
  type ToWorker,
} from "./worker_protocol.ts";
import { WorkerMailbox } from "./worker_mailbox.ts";
import { entryUrl } from "../platform/entry_url.ts";

/** How long the main thread waits for a worker's answer before going on without it. */
export const WORKER_ANSWER_MS = 5_000;

/**
 * How long start-up waits for a worker to say its listeners are ready before start-up fails
 * with every worker stopped; a warning names the worker after {@linkcode WORKER_START_WARN_MS}.
 * Without a bound, a worker that never starts would leave the server INITIALIZING for good. The
 * bound is far above a real start: loading the modules and building the worker's copy of the
 * configuration took minutes at 10,000 clusters with two workers on a busy 2-core machine.
 */
export const WORKER_START_MS = 600_000;

/** When start-up warns that a worker has not started yet. */
export const WORKER_START_WARN_MS = 10_000;

/** What the pool needs of the server. */
export interface WorkerPoolDeps {
  options: Options;
  bootstrap: Bootstrap;
  /** The main thread's store: worker stats are added into it. */
  store: Store;
  /** The main thread's cluster manager (discovery, health checking). */
  clusters: ClusterManager;
  log: (level: string, msg: string) => void;
  /** The server's health-check-failed and draining flags. */
  state: () => ServerFlags;
  /** Interval of background stats syncs in ms (default 1000). */
  syncIntervalMs?: number;
  /** The overload manager's state the workers read and feed (`overload_share.ts`). */
  overload?: OverloadShare;
  /** The workers' module (default: the proxy's `worker_main.ts`; tests give others). */
  workerModule?: URL;
  /** Bounds of the wait for each worker's start (defaults {@linkcode WORKER_START_MS}, ...). */
  startMs?: { warn: number; fail: number };
}

interface Waiting {
  left: Set<number>;
  resolve: () => void;
}

/** The data-plane workers. */
export class WorkerPool implements ListenerManagerView {
  readonly #workers: (Worker | null)[] = [];
  /** Each worker's messages, held until it says its handler is set (see `worker_mailbox.ts`). */
  readonly #mailboxes = new Map<Worker, WorkerMailbox<ToWorker>>();
  #views: ListenerView[];
  #stopped = new Set<TrafficDirection | "ALL">();
  readonly #importer: WorkerStatsImporter;
  readonly #hostGauges = new Map<string, number[]>();
  readonly #waiting = new Map<number, Waiting>();
  #nextId = 1;
  #timer: ReturnType<typeof setInterval> | null = null;
  #routes: WorkerRoutes | null = null;
  /** LDS, held here for every worker (`worker_listeners.ts`); null without `lds_config`. */
  readonly #lds: WorkerLds | null = null;
  /** Each worker's LDS listeners that still drain. */
  readonly #draining = new Map<number, ListenerView[]>();
  #closed = false;
  #started = false;
  readonly #shared: Int32Array;
  readonly #sharedIndex: Record<string, number> = {};
  readonly #dirty = new Set<Cluster>();
  /** The `/tap` sessions copied to the workers, by number. */
  readonly #taps = new Map<number, TapSession>();
  readonly #tapIds = new Map<TapSession, number>();
  /** Circuit breaker counts of clusters CDS made active after the pool was built. */
  readonly #dynamicShared = new WeakMap<Cluster, SharedCount>();
  /** `[healthCheckFailed, draining]` shared with every worker. */
  readonly #flags = new Int32Array(new SharedArrayBuffer(12));

  /** A pool of `count` workers (not started). */
  constructor(readonly count: number, readonly deps: WorkerPoolDeps) {
    this.#importer = new WorkerStatsImporter(deps.store, count);
    const { specs } = parseListeners(
      (deps.bootstrap.static_resources?.listeners ?? []) as JsonObject[],
      "static_resources.listeners",
      null,
    );
    this.#views = specs.map((s) => ({
      name: s.name,
      address: s.address,
      port: s.port,
      direction: s.direction,
      config: s.config,
      stopped: false,
    }));
    const names = deps.clusters.clusters().map((c) => c.name);
    this.#shared = new Int32Array(
      new SharedArrayBuffer(4 * SHARED_COUNTS_PER_CLUSTER * Math.max(1, names.length)),
    );
    names.forEach((n, i) => this.#sharedIndex[n] = i * SHARED_COUNTS_PER_CLUSTER);
    const lds = (deps.bootstrap.dynamic_resources as JsonObject | undefined)?.lds_config;
    if (lds !== undefined) {
      this.#lds = new WorkerLds(lds as JsonObject, {
        clusters: deps.clusters,
        store: deps.store,
        log: deps.log,
        workers: {
          running: () => this.#workers.flatMap((w, i) => w ? [i] : []),
          send: (i, m) => {
            const w = this.#workers[i];
            if (w) this.#post(w, m);
          },
          broadcast: (m) => this.broadcast(m),
        },
        routes: () => this.#routes,
        live: () => this.#views,
        stopped: () => this.#stopped,
        staticNames: new Set(specs.map((s) => s.name)),
        answerMs: WORKER_ANSWER_MS,
      });
    }
    // The workers load their modules while the main thread starts its clusters.
    const workerModule = deps.workerModule ?? entryUrl("workerMain");
    for (let i = 0; i < count; i++) {
      const w = new Worker(workerModule, { type: "module" });
      this.#mailboxes.set(w, new WorkerMailbox<ToWorker>(w));
      // Replaced by the start's handler, which opens the mailbox too if this has not yet.
      w.onmessage = (e: MessageEvent<FromWorker>) => {
        if (e.data.type === "loaded") this.#mailboxes.get(w)?.open();
      };
      this.#workers.push(w);
    }
  }

  /**
   * Starts the workers: worker 0 first (it picks the ports of listeners configured with port 0),
   * then the others on the same ports. Rejects, with every worker stopped, when one fails.
   */
  async start(): Promise<void> {
    for (const c of this.deps.clusters.clusters()) {
      c.onMembership = () => this.#hostsChanged(c);
    }
    this.deps.clusters.onClusterChange = (name, c) => this.#clusterChanged(name, c);
    this.#started = true;
    // RDS of the static listeners: subscribed here, first fetches ended before workers start.
    this.#routes = new WorkerRoutes(
      this.deps.bootstrap,
      this.deps.clusters,
      this.deps.store,
      this.deps.log,
      (name, routeConfig) => this.broadcast({ type: "routes", name, routeConfig }),
    );
    await this.#routes.start();
    try {
      const first = await this.#spawn(0, null);
      this.#views = first.map((l) => ({ ...l }));
      const ports = first.map((l) => l.port);
      await Promise.all(
        Array.from({ length: this.count - 1 }, (_, i) => this.#spawn(i + 1, ports)),
      );
    } catch (e) {
      this.#terminate();
      throw e;
    }
    if (this.#lds) {
      // The first LDS update is in service on every worker before start-up ends.
      await this.#lds.start();
      await this.sync();
    }
    watchTapSessions({
      attached: (s) => this.#tapAttached(s),
      detached: (s) => this.#tapDetached(s),
    });
    const timer = setInterval(() => void this.sync(), this.deps.syncIntervalMs ?? 1000);
    Deno.unrefTimer(timer);
    this.#timer = timer;
    this.deps.log("info", `started ${this.count} workers`);
  }

  #spawn(index: number, ports: number[] | null): Promise<ListenerCopy[]> {
    const w = this.#workers[index];
    if (!w) return Promise.reject(new Error(`worker ${index} is not running`));
    const hosts: Record<string, { hosts: ReturnType<typeof hostCopies>; initialized: boolean }> =
      {};
    const dynamic: ClusterCopy[] = [];
    for (const c of this.deps.clusters.clusters()) {
      if (c.addedViaApi) dynamic.push(this.#clusterCopy(c));
      else hosts[c.name] = { hosts: hostCopies(c.hosts()), initialized: c.initialized };
    }
    const bounds = this.deps.startMs ?? { warn: WORKER_START_WARN_MS, fail: WORKER_START_MS };
    let warn: ReturnType<typeof setTimeout> | undefined;
    let fail: ReturnType<typeof setTimeout> | undefined;
    return new Promise<ListenerCopy[]>((resolve, reject) => {
      warn = setTimeout(() => {
        this.deps.log(
          "warning",
          `worker ${index} has not started after ${bounds.warn} ms; waiting up to ${bounds.fail} ms`,
        );
      }, bounds.warn);
      fail = setTimeout(() => {
        reject(new Error(`worker ${index} did not start within ${bounds.fail} ms`));
      }, bounds.fail);
      w.onerror = (e) => {
        e.preventDefault();
        this.#died(index, e.message);
        reject(new Error(`worker ${index} failed: ${e.message}`));
      };
      w.onmessage = (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        if (m.type === "loaded") this.#mailboxes.get(w)?.open();
        else if (m.type === "ready") resolve(m.listeners);
        else if (m.type === "failed") reject(new Error(m.message));
        else this.#answer(index, m);
      };
      this.#post(w, {
        type: "init",
        index,
        options: this.deps.options,
        bootstrap: this.deps.bootstrap,
        shared: this.#shared,
        sharedIndex: this.#sharedIndex,
        ports,
        hosts,
        dynamic,
        flags: this.#flags,
        overload: this.deps.overload?.cells,
        routes: this.#routes?.current() ?? {},
      });
    }).finally(() => {
      clearTimeout(warn);
      clearTimeout(fail);
    });
  }

  /** Circuit breaker counts of `c` shared by the workers: its words, or its own buffer (CDS). */
  #sharedOf(c: Cluster): SharedCount {
    let own = this.#dynamicShared.get(c);
    if (own) return own;
    const index = this.#sharedIndex[c.name];
    if (!c.addedViaApi && index !== undefined) return { array: this.#shared, index };
    own = {
      array: new Int32Array(new SharedArrayBuffer(4 * SHARED_COUNTS_PER_CLUSTER)),
      index: 0,
    };
    this.#dynamicShared.set(c, own);
    return own;
  }

  #clusterCopy(c: Cluster): ClusterCopy {
    return {
      cluster: c.effective,
      apiUpdate: c.apiUpdate,
      shared: this.#sharedOf(c),
      hosts: hostCopies(c.hosts()),
      initialized: c.initialized,
    };
  }

  /** CDS made `c` active under `name` (added or changed), or removed it (`null`). */
  #clusterChanged(name: string, c: Cluster | null): void {
    if (!c) {
      this.deps.log("debug", `cds: cluster ${name} removed from ${this.count} workers`);
      this.broadcast({ type: "cluster_removed", name });
      return;
    }
    c.onMembership = () => this.#hostsChanged(c);
    this.broadcast({ type: "cluster", ...this.#clusterCopy(c) });
  }

  #tapAttached(s: TapSession): void {
    if (s.matchConfig === undefined) {
      this.deps.log(
        "warning",
        `tap ${s.configId}: a session without its match config taps no worker`,
      );
      return;
    }
    const id = this.#nextId++;
    this.#taps.set(id, s);
    this.#tapIds.set(s, id);
    this.broadcast({
      type: "tap_attach",
      id,
      configId: s.configId,
      matchConfig: s.matchConfig,
      maxRx: s.maxRx,
      maxTx: s.maxTx,
      asString: s.asString,
    });
  }

  #tapDetached(s: TapSession): void {
    const id = this.#tapIds.get(s);
    if (id === undefined) return;
    this.#tapIds.delete(s);
    this.#taps.delete(id);
    this.broadcast({ type: "tap_detach", id });
  }

  #post(w: Worker, m: ToWorker): void {
    const box = this.#mailboxes.get(w);
    if (box) box.post(m);
    else w.postMessage(m);
  }

  /** Sends `m` to every running worker. */
  broadcast(m: ToWorker): void {
    for (const w of this.#workers) if (w) this.#post(w, m);
  }

  #died(index: number, why: string): void {
    if (!this.#workers[index]) return;
    this.#workers[index] = null;
    this.deps.log("critical", `worker ${index} stopped: ${why}`);
    this.#importer.forget(index);
    this.#lds?.forget(index);
    this.#draining.delete(index);
    for (const [id, wait] of this.#waiting) this.#settle(id, wait, index);
  }

  #settle(id: number, wait: Waiting, index: number): void {
    wait.left.delete(index);
    if (wait.left.size === 0) {
      this.#waiting.delete(id);
      wait.resolve();
    }
  }

  #answer(index: number, m: FromWorker): void {
    if (this.#lds?.answered(index, m)) return;
    if (m.type === "tap") {
      this.#taps.get(m.id)?.send(m.trace);
      return;
    }
    if (m.type === "outlier") {
      replayOutlierEvents(m.events, (name) => {
        const c = this.deps.clusters.get(name);
        const o = c?.outlier;
        if (!c || !o) return undefined;
        const hosts = new Map(c.hosts().map((h) => [h.key, h]));
        return { sink: o, host: (key) => hosts.get(key) };
      });
      return;
    }
    if (m.type === "stats") {
      this.#importer.apply(index, m.stats);
      this.#applyHostStats(index, m.hosts);
      this.#draining.set(index, m.draining);
      if (index === 0) {
        this.#views = m.listeners.map((l) => ({ ...l }));
        this.#stopped = new Set(m.stopped);
      }
    }
    if (m.type === "stats" || m.type === "done") {
      const wait = this.#waiting.get(m.id);
      if (wait) this.#settle(m.id, wait, index);
    }
  }

  #applyHostStats(index: number, delta: HostStatsDelta): void {
    const byCluster = new Map<string, Map<string, ReturnType<Cluster["hosts"]>[number]>>();
    for (const [cluster, key, counters, gauges] of delta) {
      let hosts = byCluster.get(cluster);
      if (!hosts) {
        const c = this.deps.clusters.get(cluster);
        hosts = new Map((c?.hosts() ?? []).map((h) => [h.key, h]));
        byCluster.set(cluster, hosts);
      }
      const h = hosts.get(key);
      if (!h) continue;
      const stats = h.stats as unknown as Record<string, HostCounter | HostGauge>;
      for (const [name, n] of counters) {
        const s = stats[name];
        if (s instanceof HostCounter && n > 0) s.inc(n);
      }
      for (const [name, v] of gauges) {
        const s = stats[name];
        if (!(s instanceof HostGauge)) continue;
        const k = `${cluster}\n${key}\n${name}`;
        let per = this.#hostGauges.get(k);
        if (!per) this.#hostGauges.set(k, per = new Array<number>(this.count).fill(0));
        per[index] = v;
        s.set(per.reduce((a, b) => a + b, 0));
      }
    }
  }

  /** Sends `make(id)` to every running worker and resolves when all answered (or time ran out). */
  #ask(make: (id: number) => ToWorker, timeoutMs = WORKER_ANSWER_MS): Promise<void> {
    const id = this.#nextId++;
    const left = new Set<number>();
    this.#workers.forEach((w, i) => w && left.add(i));
    if (left.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (this.#waiting.delete(id)) {
          this.deps.log("warning", `workers ${[...left].join(", ")} did not answer in time`);
          resolve();
        }
      }, timeoutMs);
      this.#waiting.set(id, {
        left,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      this.broadcast(make(id));
    });
  }

  /** Adds every worker's stats since the last sync into the main thread's store and hosts. */
  sync(): Promise<void> {
    this.pushState();
    return this.#ask((id) => ({ type: "sync", id }));
  }

  /** Writes the server's flags where every worker reads them (call it when they change). */
  pushState(): void {
    const state = this.deps.state();
    Atomics.store(this.#flags, 0, state.healthCheckFailed ? 1 : 0);
    Atomics.store(this.#flags, 1, state.draining ? 1 : 0);
  }

  #hostsChanged(c: Cluster): void {
    if (this.#dirty.size === 0) {
      queueMicrotask(() => {
        for (const d of this.#dirty) {
          // A cluster CDS replaced or removed no longer speaks for its name.
          if (this.deps.clusters.get(d.name) !== d) continue;
          this.broadcast({
            type: "hosts",
            cluster: d.name,
            hosts: hostCopies(d.hosts()),
            initialized: d.initialized,
          });
        }
        this.#dirty.clear();
      });
    }
    this.#dirty.add(c);
  }

  /** Worker 0's listeners (every worker binds the same ones). */
  listeners(): readonly ListenerView[] {
    return this.#views;
  }

  /** Directions stopped by a drain. */
  stoppedDirections(): ReadonlySet<TrafficDirection | "ALL"> {
    return this.#stopped;
  }

  /** Drains the listeners of every worker; see `ListenerManager.drain`. */
  async drain(opts: DrainOptions): Promise<void> {
    this.pushState();
    await this.#ask((id) => ({ type: "drain", id, ...opts }));
    await this.sync();
  }

  /** The `version_info` of the last LDS update (`""` before one); `null` without LDS. */
  versionInfo(): string | null {
    return this.#lds?.versionInfo() ?? null;
  }

  /** LDS listeners waiting for their routes' first fetch. */
  warmingListeners(): readonly ListenerView[] {
    return this.#lds?.warmingListeners() ?? [];
  }

  /** LDS listeners removed or replaced that still drain on some worker (each version once). */
  drainingListeners(): readonly ListenerView[] {
    const out = new Map<string, ListenerView>();
    for (const list of this.#draining.values()) {
      for (const l of list) out.set(`${l.name}\n${l.apiUpdate?.version_info}`, l);
    }
    return [...out.values()];
  }

  /** Route configurations from RDS, by name (the main thread's subscriptions). */
  get routeConfigs(): ReadonlyMap<string, RdsState> {
    return this.#routes?.routeConfigs ?? new Map();
  }

  /** Reopens every worker's access logs. */
  reopenAccessLogs(): void {
    this.broadcast({ type: "reopen" });
  }

  /** Stops every worker (listeners and pools closed, last stats taken) and ends them. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== null) clearInterval(this.#timer);
    for (const c of this.deps.clusters.clusters()) c.onMembership = null;
    this.deps.clusters.onClusterChange = null;
    watchTapSessions(null);
    await this.#lds?.close();
    await this.#routes?.close();
    if (this.#started) {
      this.pushState();
      await this.#ask((id) => ({ type: "close", id }));
    }
    this.#terminate();
  }

  #terminate(): void {
    this.#workers.forEach((w, i) => {
      w?.terminate();
      this.#workers[i] = null;
    });
  }
}
