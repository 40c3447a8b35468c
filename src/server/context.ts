/**
 * The contract between the running server and the admin interface: what an admin handler may
 * read and change. `src/server/server.ts` builds the real one; tests build small fakes.
 *
 * @module
 */
import type { Options } from "../config/options.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import type { Store } from "../stats/store.ts";
import type { ClusterManagerView } from "../upstream/types.ts";
import type { ListenerManagerView } from "../listener/types.ts";
import type { Feature } from "../../spec/rule.ts";

/** Server states (`envoy.admin.v3.ServerInfo.State` numbers: LIVE 0, DRAINING 1, PRE_INITIALIZING 2, INITIALIZING 3). */
export type ServerState = "LIVE" | "DRAINING" | "PRE_INITIALIZING" | "INITIALIZING";

/** Runtime layers (`/runtime`, `/runtime_modify`). */
export interface RuntimeView {
  layerNames(): readonly string[];
  /** Every key with one value per layer (`""` = none) and the final value. */
  entries(): Map<string, { layer_values: string[]; final_value: string }>;
  get(key: string): string | undefined;
  /** Sets keys in the admin layer; an empty value deletes an admin override. */
  modify(pairs: ReadonlyArray<[string, string]>): void;
  hasAdminLayer(): boolean;
}

/** Loggers (`/logging`). */
export interface LoggingView {
  /** Logger name -> level, in registry order. */
  loggers(): ReadonlyArray<[string, string]>;
  /** Writes one line from `component` at `level` (dropped below the component's level). */
  log(component: string, level: string, message: string): void;
  /** True when a line of `component` at `level` would be written (test before building one). */
  enabled?(component: string, level: string): boolean;
  setAll(level: string): void;
  set(name: string, level: string): void;
  isLevel(level: string): boolean;
  reopen(): Promise<void>;
}

/** The init managers, as `/init_dump` sees them (`src/server/init_manager.ts` builds them). */
export interface InitView {
  /**
   * One `{name, target_names}` per init manager of `component` (every manager without one),
   * listing its unready targets; empty once start-up has finished.
   */
  dump(component?: string): ReadonlyArray<{ name: string; target_names: readonly string[] }>;
}

/** Everything an admin handler can reach. */
export interface ServerContext {
  options: Options;
  bootstrap: Bootstrap;
  /** The stats store (root scope). */
  stats: Store;
  state(): ServerState;
  /** `/healthcheck/fail` sets it; the HTTP health check filter fails every check while set. */
  healthCheckFailed: boolean;
  /** Optional features present in this process. */
  features: ReadonlySet<Feature>;
  startedAt: number;
  /** Start of the first epoch (hot restart); equals `startedAt` in epoch 0. */
  firstEpochStartedAt: number;
  clusters: ClusterManagerView;
  listeners: ListenerManagerView;
  runtime: RuntimeView;
  logging: LoggingView;
  /** The version string of `--version` and `/server_info`. */
  version: string;
  hotRestartVersion: string;
  /** Reopens the server log and every access log (`/reopen_logs`, SIGUSR1). */
  reopenLogs(): Promise<void>;
  /**
   * Adds work to run when the server shuts down, before its listeners close (last added, first
   * run): the admin interface stops its streams and profilers this way.
   */
  onShutdown(work: () => void | Promise<void>): void;
  /** Begins a clean shutdown; resolves when every listener is closed. */
  shutdown(): Promise<void>;
  /** The init managers (`/init_dump`); absent: nothing is waited for. */
  init?: InitView;
  /**
   * With data-plane workers: adds their stats (and per-host stats) into {@linkcode stats} and
   * the clusters' hosts; the admin router runs it before every request.
   */
  syncWorkers?(): Promise<void>;
}
