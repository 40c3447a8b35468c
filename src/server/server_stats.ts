/**
 * The `server.*` stats (real Envoy's `ALL_SERVER_STATS`) and the function that refreshes them on
 * every flush. The server calls {@linkcode registerServerStats} once and
 * {@linkcode attachServerStats} with a function that describes its current state.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { attachServerStats } from "./server_stats.ts";
 * const store = new Store();
 * const detach = attachServerStats(store, () => ({ state: "LIVE", uptimeSeconds: 3 }));
 * store.flush();
 * assert.equal(store.gauge("server.live").value(), 1);
 * detach();
 * ```
 * @module
 */
import type { Counter, Gauge, Histogram } from "../stats/types.ts";
import type { Store } from "../stats/store.ts";
import type { ServerState } from "./context.ts";

/** The server stats. */
export interface ServerStats {
  live: Gauge;
  state: Gauge;
  uptime: Gauge;
  concurrency: Gauge;
  memory_allocated: Gauge;
  memory_heap_size: Gauge;
  stats_recent_lookups: Gauge;
  static_unknown_fields: Counter;
  dynamic_unknown_fields: Counter;
  version: Gauge;
  hot_restart_epoch: Gauge;
  days_until_first_cert_expiring: Gauge;
  total_connections: Gauge;
  parent_connections: Gauge;
  debug_assertion_failures: Counter;
  initialization_time_ms: Histogram;
}

/** What the server tells the stats on each flush; absent fields keep their last value. */
export interface ServerStatsSource {
  state: ServerState;
  uptimeSeconds: number;
  concurrency?: number;
  hotRestartEpoch?: number;
  totalConnections?: number;
  parentConnections?: number;
  /** Days until the first certificate expires; absent when there are none (shows 2³²-1). */
  daysUntilFirstCertExpiring?: number;
  /** The `--version` string (`<sha>/<release>/...`) or `stats_server_version_override`. */
  version?: string | number;
}

/** `ServerInfo.State` numbers, as `server.state` shows them. */
export const SERVER_STATE_NUMBERS: Readonly<Record<ServerState, number>> = {
  LIVE: 0,
  DRAINING: 1,
  PRE_INITIALIZING: 2,
  INITIALIZING: 3,
};

/** `server.days_until_first_cert_expiring` when no certificate is loaded. */
export const NO_CERT_DAYS = 4294967295;

/**
 * Creates (or finds) every server stat.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { registerServerStats } from "./server_stats.ts";
 * assert.equal(registerServerStats(new Store()).live.value(), 0);
 * ```
 */
export function registerServerStats(store: Store): ServerStats {
  const s = store.scope("server");
  return {
    live: s.gauge("live"),
    state: s.gauge("state"),
    uptime: s.gauge("uptime"),
    concurrency: s.gauge("concurrency"),
    memory_allocated: s.gauge("memory_allocated"),
    memory_heap_size: s.gauge("memory_heap_size"),
    stats_recent_lookups: s.gauge("stats_recent_lookups"),
    static_unknown_fields: s.counter("static_unknown_fields"),
    dynamic_unknown_fields: s.counter("dynamic_unknown_fields"),
    version: s.gauge("version"),
    hot_restart_epoch: s.gauge("hot_restart_epoch"),
    days_until_first_cert_expiring: s.gauge("days_until_first_cert_expiring"),
    total_connections: s.gauge("total_connections"),
    parent_connections: s.gauge("parent_connections"),
    debug_assertion_failures: s.counter("debug_assertion_failures"),
    initialization_time_ms: s.histogram("initialization_time_ms", "milliseconds"),
  };
}

/**
 * The `server.version` value: a number as given, or the first 6 hex digits of the source
 * revision read as a base-16 integer (0 when the string does not start with hex digits).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { versionNumber } from "./server_stats.ts";
 * assert.equal(versionNumber("68ba4f/1.14.1/Clean/RELEASE/BoringSSL"), 6863439);
 * ```
 */
export function versionNumber(version: string | number): number {
  if (typeof version === "number") return Number.isFinite(version) ? version : 0;
  const m = /^[0-9a-fA-F]{1,6}/.exec(version);
  return m ? parseInt(m[0], 16) : 0;
}

/**
 * Writes the current values into the server stats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { registerServerStats, updateServerStats } from "./server_stats.ts";
 * const store = new Store();
 * const stats = registerServerStats(store);
 * updateServerStats(stats, store, { state: "DRAINING", uptimeSeconds: 1 });
 * assert.equal(stats.state.value(), 1);
 * ```
 */
export function updateServerStats(stats: ServerStats, store: Store, src: ServerStatsSource): void {
  stats.live.set(src.state === "LIVE" ? 1 : 0);
  stats.state.set(SERVER_STATE_NUMBERS[src.state] ?? 0);
  stats.uptime.set(Math.max(0, Math.floor(src.uptimeSeconds)));
  const mem = Deno.memoryUsage();
  stats.memory_allocated.set(mem.heapUsed + mem.external);
  stats.memory_heap_size.set(mem.heapTotal);
  stats.stats_recent_lookups.set(store.recentLookups.total);
  if (src.concurrency !== undefined) stats.concurrency.set(src.concurrency);
  if (src.hotRestartEpoch !== undefined) stats.hot_restart_epoch.set(src.hotRestartEpoch);
  if (src.totalConnections !== undefined) stats.total_connections.set(src.totalConnections);
  if (src.parentConnections !== undefined) stats.parent_connections.set(src.parentConnections);
  stats.days_until_first_cert_expiring.set(src.daysUntilFirstCertExpiring ?? NO_CERT_DAYS);
  if (src.version !== undefined) stats.version.set(versionNumber(src.version));
}

/**
 * Registers the server stats and refreshes them from `source()` at the start of every flush
 * (and once now). Returns a function that stops the refreshing.
 */
export function attachServerStats(store: Store, source: () => ServerStatsSource): () => void {
  const stats = registerServerStats(store);
  updateServerStats(stats, store, source());
  return store.onFlush(() => updateServerStats(stats, store, source()));
}
