/**
 * The messages between the main thread and its data-plane workers (`workers.ts`,
 * `worker_main.ts`), and the copy of a cluster's host set (addresses and health) the main thread
 * sends whenever discovery or health checking changes it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Host } from "../upstream/host.ts";
 * import { hostCopies } from "./worker_protocol.ts";
 * const h = new Host({
 *   address: "127.0.0.1", port: 80, hostname: "", weight: 1, priority: 0,
 *   region: "", zone: "", sub_zone: "", metadata: {},
 * });
 * h.setFlag("failed_active_hc", true);
 * assert.equal(hostCopies([h])[0].health.failed_active_hc, true);
 * ```
 * @module
 */
import type { Options } from "../config/options.ts";
import type { Bootstrap, Json, JsonObject } from "../config/bootstrap_types.ts";
import type { EffectiveHost } from "../config/effective_cluster.ts";
import type { HealthFlags } from "../upstream/types.ts";
import type { Host } from "../upstream/host.ts";
import type { DrainOptions, ListenerView, TrafficDirection } from "../listener/types.ts";
import type { WorkerStatsDelta } from "../stats/worker_stats.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { SharedCount } from "../upstream/circuit_breaker.ts";
import type { OutlierEventBatch } from "../upstream/outlier/outlier_events.ts";

/** One host as the main thread sees it: configuration and health. */
export interface HostCopy {
  host: EffectiveHost;
  health: HealthFlags;
  degraded: boolean;
  excluded: boolean;
  pending: boolean;
  /**
   * When the host last became healthy (slow start), as wall-clock ms (`performance.timeOrigin`
   * plus the main thread's `lastHcPassTime`: each thread's `performance.now` has its own origin).
   */
  healthySince: number | null;
}

/** The copies of `hosts`, in order. */
export function hostCopies(hosts: readonly Host[]): HostCopy[] {
  return hosts.map((h) => ({
    host: {
      address: h.address,
      port: h.port,
      hostname: h.hostname,
      weight: h.weight,
      priority: h.priority,
      region: h.region,
      zone: h.zone,
      sub_zone: h.sub_zone,
      metadata: h.metadata,
    },
    health: { ...h.health },
    degraded: h.degradedActiveHc,
    excluded: h.excludedViaImmediateHcFail,
    pending: h.pendingActiveHc,
    healthySince: h.lastHcPassTime === null ? null : performance.timeOrigin + h.lastHcPassTime,
  }));
}

/** Per-host statistics of one worker: cluster, host key, counter increments, gauge values. */
export type HostStatsDelta = Array<
  [string, string, Array<[string, number]>, Array<[string, number]>]
>;

/** A cluster CDS made active on the main thread, as a worker takes it. */
export interface ClusterCopy {
  cluster: EffectiveCluster;
  apiUpdate: { version_info: string; last_updated: string } | null;
  /** Its circuit breaker counts, shared by every worker. */
  shared: SharedCount;
  hosts: HostCopy[];
  initialized: boolean;
}

/** A `/tap` session attached on the main thread, as a worker runs it. */
export interface TapSessionCopy {
  /** The pool's number of the session (the worker's traces name it). */
  id: number;
  configId: string;
  /** The `MatchPredicate`, compiled by the worker. */
  matchConfig: Json;
  maxRx: number;
  maxTx: number;
  asString: boolean;
}

/** What a worker needs to start. */
export interface WorkerInit {
  type: "init";
  /** This worker's number, 0-based (`worker_<n>` stats). */
  index: number;
  options: Options;
  bootstrap: Bootstrap;
  /** Circuit breaker counts shared by every worker, and each cluster's first word. */
  shared: Int32Array;
  sharedIndex: Record<string, number>;
  /** Bound ports by listener position (port 0 in the bootstrap binds what worker 0 got). */
  ports: number[] | null;
  /** Every cluster's host set at start. */
  hosts: Record<string, { hosts: HostCopy[]; initialized: boolean }>;
  /** The clusters CDS had made active before the worker started. */
  dynamic: ClusterCopy[];
  /**
   * The server's flags in shared memory (`[healthCheckFailed, draining]`, 0 or 1), so the data
   * plane sees `/healthcheck/fail` and the start of a shutdown at once; the third word counts
   * the downstream connections open on every worker (the global connection limit).
   */
  flags: Int32Array;
  /** The overload manager's actions and each worker's memory (`overload_share.ts`), when configured. */
  overload?: Int32Array;
  /** The route configurations of the static listeners' RDS, by name (`worker_routes.ts`). */
  routes: Record<string, JsonObject>;
}

/** What the data plane asks of the server's state. */
export interface ServerFlags {
  healthCheckFailed: boolean;
  draining: boolean;
}

/** Messages from the main thread to a worker. */
export type ToWorker =
  | WorkerInit
  | { type: "hosts"; cluster: string; hosts: HostCopy[]; initialized: boolean }
  | ({ type: "cluster" } & ClusterCopy)
  | { type: "cluster_removed"; name: string }
  | ({ type: "tap_attach" } & TapSessionCopy)
  | { type: "tap_detach"; id: number }
  | { type: "sync"; id: number }
  | ({ type: "drain"; id: number } & DrainOptions)
  | { type: "runtime"; pairs: Array<[string, string]> }
  | { type: "log"; name: string | null; level: string }
  | { type: "reopen" }
  | { type: "routes"; name: string; routeConfig: JsonObject }
  | ListenerChange
  | { type: "close"; id: number };

/**
 * LDS changes the main thread sends (`worker_listeners.ts`): bind a listener beside the one of
 * its name (`listener_prepare`, answered by `listener_prepared`), put it in service once every
 * worker bound it (`listener_commit`) or close it when one could not (`listener_abort`), and take
 * a listener out of service (`listener_remove`). A token names one version of a listener.
 */
export type ListenerChange =
  | {
    type: "listener_prepare";
    id: number;
    token: number;
    /** The Listener resource without its `@type`, as the control plane sent it. */
    config: JsonObject;
    /** The port to bind (the main thread chose it when the configuration says 0). */
    port: number;
    update: { version_info: string; last_updated: string };
  }
  | { type: "listener_commit"; token: number }
  | { type: "listener_abort"; token: number }
  | { type: "listener_remove"; name: string };

/** A listener as a worker reports it. */
export type ListenerCopy = Omit<ListenerView, "stopped"> & { stopped: boolean };

/** Messages from a worker to the main thread. */
export type FromWorker =
  /** The worker's message handler is set: messages sent before could have been lost. */
  | { type: "loaded" }
  | { type: "ready"; listeners: ListenerCopy[] }
  | { type: "failed"; message: string }
  | {
    type: "stats";
    id: number;
    stats: WorkerStatsDelta;
    hosts: HostStatsDelta;
    listeners: ListenerCopy[];
    /** LDS listeners removed or replaced that still drain their connections. */
    draining: ListenerCopy[];
    stopped: Array<TrafficDirection | "ALL">;
  }
  /** The answer to `listener_prepare`: the bound port, or why the listener could not bind. */
  | { type: "listener_prepared"; id: number; port: number | null; error: string | null }
  | { type: "done"; id: number }
  /** Outlier detection events since the last batch, for the main thread's detectors. */
  | { type: "outlier"; events: OutlierEventBatch }
  /** A trace of a `/tap` session, for the main thread's admin stream. */
  | { type: "tap"; id: number; trace: unknown };
