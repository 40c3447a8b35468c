/**
 * LDS with data-plane workers (`--concurrency` above 1), as Envoy's listener manager does it: the
 * main thread holds the one subscription (`listener_manager.lds.*` counted once), validates each
 * update whole (`src/listener/lds_update.ts`) and tries each new address there, so a listener
 * that cannot bind refuses the update (the subscription NACKs with the path and "cannot bind")
 * before anything changes. Then it tells every worker to add, replace or remove the listener:
 *
 * - A new or changed listener first warms while its routes' first RDS fetch runs (the main
 *   thread subscribes, `worker_routes.ts`; `total_listeners_warming`, `/config_dump`
 *   `warming_state`), then every worker binds it beside the old version (`reusePort`). Once all
 *   have, every worker puts it in service and drains the old version (`--drain-time-s`,
 *   `--drain-strategy`) while the new one takes new connections: a listener is active only
 *   when every worker has bound it.
 * - When a worker cannot bind it (the address went away between the main thread's try and the
 *   worker's bind), the listener is removed by name on every worker, as Envoy's listener manager
 *   does: the new version closes, the version in service drains and goes too,
 *   `listener_manager.listener_create_failure` and `listener_removed` count it once, and a
 *   critical line names the listener and address.
 * - A listener missing from an update is drained and closed on every worker.
 * - Once `/drain_listeners` stopped a direction (all, or `inboundonly`), listeners of that
 *   direction are neither added nor changed (the specification's States table).
 *
 * `listener_added`, `listener_modified`, `listener_removed` and `listener_create_failure` are
 * the main thread's; `listener_create_success` is counted by each worker that puts a listener in
 * service (Envoy counts it per worker); `total_listeners_active` and `total_listeners_draining`
 * come from the workers (every worker holds the same listeners), `total_listeners_warming` from
 * here.
 *
 * @example Not run: it needs workers and a control plane.
 * ```ts ignore
 * const lds = new WorkerLds(ldsConfig, { clusters, store, log, workers, routes, live, stopped });
 * await lds.start(); // the first update applied on every worker
 * lds.versionInfo();
 * await lds.close();
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { configSourceOf } from "../config/config_source.ts";
import { ConfigLoadError } from "../config/errors.ts";
import type { DiscoveryResponse } from "../config/subscription.ts";
import { TYPE_URLS } from "../config/xds_names.ts";
import { checkAddress, checkLdsUpdate, rdsSourceOf, sameListener } from "../listener/lds_update.ts";
import type { ListenerSpec } from "../listener/listener_config.ts";
import type { ListenerManager } from "../listener/listener_manager.ts";
import type { ListenerView, TrafficDirection } from "../listener/types.ts";
import { prefixed } from "../platform/log_site.ts";
import type { Store } from "../stats/store.ts";
import type { ClusterManager } from "../upstream/cluster_manager.ts";
import { hostPort } from "../upstream/host.ts";
import type { Subscription } from "../upstream/xds_clients.ts";
import type { FromWorker, ListenerChange } from "./worker_protocol.ts";
import type { WorkerRoutes } from "./worker_routes.ts";

/** How the main thread reaches its workers. */
export interface WorkerChannel {
  /** Indexes of the workers running now. */
  running(): number[];
  send(index: number, m: ListenerChange): void;
  broadcast(m: ListenerChange): void;
}

/** What {@linkcode WorkerLds} needs of the server. */
export interface WorkerLdsDeps {
  clusters: ClusterManager;
  store: Store;
  log: (level: string, msg: string) => void;
  workers: WorkerChannel;
  /** The main thread's RDS subscriptions (LDS listeners with `rds` subscribe there). */
  routes: () => WorkerRoutes | null;
  /** The listeners in service now (static and LDS), as worker 0 reports them. */
  live: () => readonly ListenerView[];
  /** Directions `/drain_listeners` stopped. */
  stopped: () => ReadonlySet<TrafficDirection | "ALL">;
  /** Names of the static listeners. */
  staticNames: ReadonlySet<string>;
  /** How long a worker may take to bind a listener (ms). */
  answerMs: number;
}

/** One version of an LDS listener on its way to the workers, or in service. */
interface Version {
  token: number;
  spec: ListenerSpec;
  config: JsonObject;
  update: { version_info: string; last_updated: string };
  port: number;
  warming: boolean;
}

/** A worker's answers to one `listener_prepare`. */
interface Waiting {
  left: Set<number>;
  failures: string[];
  done: () => void;
}

/** The main thread's LDS on behalf of the workers. */
export class WorkerLds {
  readonly #sub: Subscription;
  readonly #active = new Map<string, Version>();
  readonly #pending = new Map<string, Version>();
  readonly #installs = new Set<Promise<void>>();
  readonly #waiting = new Map<number, Waiting>();
  #version = "";
  #tokens = 0;
  #ids = 0;
  #closed = false;

  /** Subscribes (not started) to `ldsConfig`; throws {@linkcode ConfigLoadError} when unusable. */
  constructor(ldsConfig: JsonObject, readonly deps: WorkerLdsDeps) {
    const at = "dynamic_resources.lds_config";
    const src = configSourceOf(ldsConfig, at);
    if (!src.ok) throw new ConfigLoadError([{ path: src.at, rule: "", message: src.message }]);
    const problem = deps.clusters.xds.check(src.spec, at);
    if (problem) throw new ConfigLoadError([{ ...problem, rule: "" }]);
    const lm = deps.store.scope("listener_manager");
    for (const n of ["listener_added", "listener_modified", "listener_removed"]) lm.counter(n);
    lm.counter("listener_create_failure");
    lm.gauge("total_listeners_warming").set(0);
    this.#sub = deps.clusters.xds.subscribe(src.spec, TYPE_URLS.lds, null, lm.scope("lds"), {
      onConfigUpdate: (r) => this.#apply(r),
      onConfigUpdateFailed: () => {},
    }, { log: prefixed(deps.log, "lds: ") });
  }

  /** Starts the subscription; resolves when its first update is in service on every worker. */
  async start(): Promise<void> {
    await this.#sub.start();
    while (this.#installs.size) await Promise.all(this.#installs);
  }

  /** The `version_info` of the last accepted update (`""` before one). */
  versionInfo(): string {
    return this.#version;
  }

  /** LDS listeners waiting for their routes' first fetch (`/config_dump` `warming_state`). */
  warmingListeners(): ListenerView[] {
    return [...this.#pending.values()].filter((v) => v.warming).map((v) => ({
      name: v.spec.name,
      address: v.spec.address,
      port: v.port,
      direction: v.spec.direction,
      config: v.config,
      stopped: false,
      apiUpdate: v.update,
    }));
  }

  /** Takes a worker's answer; returns false for a message that is not one. */
  answered(index: number, m: FromWorker): boolean {
    if (m.type !== "listener_prepared") return false;
    const w = this.#waiting.get(m.id);
    if (!w) return true;
    if (m.error !== null) w.failures.push(`worker ${index}: ${m.error}`);
    w.left.delete(index);
    if (w.left.size === 0) w.done();
    return true;
  }

  /** A worker stopped: it answers nothing more. */
  forget(index: number): void {
    for (const w of this.#waiting.values()) {
      if (!w.left.delete(index)) continue;
      w.failures.push(`worker ${index} stopped`);
      if (w.left.size === 0) w.done();
    }
  }

  /** Ends the subscription; listeners on the way are not put in service. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#sub.close();
    for (const w of this.#waiting.values()) w.done();
  }

  #apply(r: DiscoveryResponse): void {
    const { specs, update } = checkLdsUpdate(r, {
      clusterNames: this.deps.clusters.names(),
      staticNames: this.deps.staticNames,
      check: (spec, at) => this.deps.clusters.xds.check(spec, at),
    });
    const next = new Map(specs.map((s) => [s.name, s]));
    const names = new Set(next.keys());
    const changes: Array<{ spec: ListenerSpec; index: number }> = [];
    specs.forEach((s, index) => {
      const pending = this.#pending.get(s.name);
      if (pending && sameListener(pending.config, s.config)) return;
      const active = this.#active.get(s.name);
      if (!pending && active && sameListener(active.config, s.config)) return;
      if (pending && active && sameListener(active.config, s.config)) {
        // Back to the version in service: the newer one on its way is dropped.
        this.#pending.delete(s.name);
        return;
      }
      changes.push({ spec: s, index });
    });
    // Every new address must bind before anything changes (Envoy creates the sockets here too).
    const ports = new Map<string, number>();
    const problems: string[] = [];
    for (const { spec, index } of changes) {
      if (this.#directionStopped(spec.direction)) continue;
      const r = checkAddress(spec, this.#live(), next, true);
      if (typeof r === "string") problems.push(`resources[${index}].address: ${r}`);
      else ports.set(spec.name, r);
    }
    if (problems.length) throw new Error(problems.join("; "));
    const lm = this.deps.store.scope("listener_manager");
    for (const name of new Set([...this.#active.keys(), ...this.#pending.keys()])) {
      if (names.has(name)) continue;
      const wasActive = this.#active.delete(name);
      this.#pending.delete(name);
      lm.counter("listener_removed").inc();
      if (wasActive) this.deps.workers.broadcast({ type: "listener_remove", name });
    }
    for (const { spec } of changes) {
      const known = this.#active.has(spec.name) || this.#pending.has(spec.name);
      if (this.#directionStopped(spec.direction)) {
        this.#pending.delete(spec.name);
        this.deps.log(
          "warning",
          `lds: listener ${spec.name} can not be ${known ? "modified" : "added"} because ` +
            `listeners in the traffic direction ${spec.direction} are stopped`,
        );
        continue;
      }
      lm.counter(known ? "listener_modified" : "listener_added").inc();
      const v: Version = {
        token: ++this.#tokens,
        spec,
        config: spec.config,
        update,
        port: ports.get(spec.name) ?? spec.port,
        warming: false,
      };
      this.#pending.set(spec.name, v);
      const run = this.#install(v).finally(() => this.#installs.delete(run));
      this.#installs.add(run);
    }
    this.#releaseRoutes();
    this.#version = r.version_info;
  }

  /**
   * The listeners in service: the static ones as worker 0 reports them, and the LDS ones this
   * manager put in service (worker 0's report may not show the latest yet).
   */
  #live(): ListenerView[] {
    const reported = this.deps.live();
    const stopped = new Set(reported.filter((l) => l.stopped).map((l) => l.name));
    return [
      ...reported.filter((l) => !l.apiUpdate),
      ...[...this.#active.values()].map((v) => ({
        name: v.spec.name,
        address: v.spec.address,
        port: v.port,
        direction: v.spec.direction,
        config: v.config,
        stopped: stopped.has(v.spec.name),
        apiUpdate: v.update,
      })),
    ];
  }

  #directionStopped(d: TrafficDirection): boolean {
    const s = this.deps.stopped();
    return s.has("ALL") || (d === "INBOUND" && s.has("INBOUND"));
  }

  /** Warms `v`, binds it on every worker, and puts it in service there (or closes it). */
  async #install(v: Version): Promise<void> {
    const current = () => !this.#closed && this.#pending.get(v.spec.name) === v;
    const src = rdsSourceOf(v.spec);
    const routes = this.deps.routes();
    if (src && routes && v.spec.filter.kind === "http") {
      const warming = this.deps.store.scope("listener_manager").gauge("total_listeners_warming");
      v.warming = true;
      warming.inc();
      try {
        await routes.follow(v.spec.filter.hcm, src);
      } finally {
        v.warming = false;
        warming.dec();
      }
      if (!current()) return;
    }
    const failures = await this.#prepare(v);
    if (!current()) {
      this.deps.workers.broadcast({ type: "listener_abort", token: v.token });
      return;
    }
    this.#pending.delete(v.spec.name);
    if (failures.length) {
      this.#failed(v, failures);
      return;
    }
    this.deps.workers.broadcast({ type: "listener_commit", token: v.token });
    this.#active.set(v.spec.name, v);
  }

  /**
   * A worker could not bind `v`: as Envoy's listener manager does when a worker fails to add a
   * listener, the failure is logged (critical) and counted once, and the listener is removed by
   * name on every worker: the new version closes, and the version in service (if any) drains and
   * goes too (`listener_removed`), so no worker keeps a listener the others do not serve. A later
   * update that names it adds it again.
   */
  #failed(v: Version, failures: readonly string[]): void {
    const lm = this.deps.store.scope("listener_manager");
    this.deps.workers.broadcast({ type: "listener_abort", token: v.token });
    lm.counter("listener_create_failure").inc();
    this.deps.log(
      "critical",
      `listener '${v.spec.name}' failed to listen on address ` +
        `'${hostPort(v.spec.address, v.port)}' on worker: ${failures.join("; ")}`,
    );
    if (this.#active.delete(v.spec.name)) {
      this.deps.workers.broadcast({ type: "listener_remove", name: v.spec.name });
    }
    lm.counter("listener_removed").inc();
    this.#releaseRoutes();
  }

  /** Asks every worker to bind `v`; resolves with the failures (none: all bound it). */
  #prepare(v: Version): Promise<string[]> {
    const left = new Set(this.deps.workers.running());
    if (left.size === 0) return Promise.resolve(["no worker is running"]);
    const id = ++this.#ids;
    return new Promise((resolve) => {
      const w: Waiting = {
        left,
        failures: [],
        done: () => {
          clearTimeout(timer);
          this.#waiting.delete(id);
          resolve(w.failures);
        },
      };
      const timer = setTimeout(() => {
        w.failures.push(`workers ${[...w.left].join(", ")} did not answer in time`);
        w.done();
      }, this.deps.answerMs);
      this.#waiting.set(id, w);
      for (const i of left) {
        this.deps.workers.send(i, {
          type: "listener_prepare",
          id,
          token: v.token,
          config: v.config,
          port: v.port,
          update: v.update,
        });
      }
    });
  }

  /** Ends RDS subscriptions no LDS listener uses any more. */
  #releaseRoutes(): void {
    const inUse = new Set<string>();
    for (const v of [...this.#active.values(), ...this.#pending.values()]) {
      const f = v.spec.filter;
      if (f.kind === "http" && f.hcm.rds) inUse.add(f.hcm.rds.name);
    }
    this.deps.routes()?.release(inUse);
  }
}

/** A worker's side of a {@linkcode ListenerChange}: applies it to its listener manager. */
export async function applyListenerChange(
  lm: ListenerManager,
  m: ListenerChange,
  post: (m: FromWorker) => void,
): Promise<void> {
  switch (m.type) {
    case "listener_prepare":
      try {
        const port = lm.prepareDynamic(m.token, m.config, m.update, m.port);
        post({ type: "listener_prepared", id: m.id, port, error: null });
      } catch (e) {
        post({
          type: "listener_prepared",
          id: m.id,
          port: null,
          error: e instanceof Error ? e.message : String(e),
        });
      }
      return;
    case "listener_commit":
      lm.commitDynamic(m.token);
      return;
    case "listener_abort":
      await lm.abortDynamic(m.token);
      return;
    case "listener_remove":
      lm.removeDynamic(m.name);
      return;
  }
}
