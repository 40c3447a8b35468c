/**
 * What a running server does with {@linkcode HotRestart}: as a parent, it answers its child
 * (its facts, a graceful drain of every listener, its stats, shutting down); as a child, once it
 * is LIVE it steers new connections to its own listening sockets (`hot_restart_steering.ts`),
 * asks its parent to drain (pinning the steering just before the parent's sockets close), adds the parent's stats to its own every second (counters
 * continue; histograms take the parent's values, its whole history first; the parent's gauges
 * count while it runs, except those this process sets itself), and after
 * `--parent-shutdown-time-s` tells the parent to shut down and adds the last stats the parent
 * answers with (what it counted until its listeners and workers stopped).
 *
 * A histogram is handed over as the difference between its cumulative view now and the one
 * handed over before (`src/stats/snapshot_delta.ts`), so the parent's own stats flushes (every
 * `stats_flush_interval`) between two answers lose nothing.
 *
 * @example Not run: it needs a running server and a parent process.
 * ```ts ignore
 * const stop = serveHotRestart(hr, server, log);
 * await takeOverFromParent(hr, server, log);
 * stop();
 * ```
 * @module
 */
import {
  type WorkerStatsDelta,
  WorkerStatsExporter,
  WorkerStatsImporter,
} from "../stats/worker_stats.ts";
import { listeningDescriptors } from "../platform/reuseport_steering.ts";
import { hostPort } from "../upstream/host.ts";
import { ChildSteering } from "./hot_restart_steering.ts";
import type { LogLinearSnapshot } from "../stats/log_linear.ts";
import { snapshotDelta } from "../stats/snapshot_delta.ts";
import type { ServerContext } from "./context.ts";
import { type HotRestart, hotRestartProtocolVersion, type ParentStats } from "./hot_restart.ts";

/** Stats a process never hands to its child: its own `server.*` figures. */
const NOT_HANDED_OVER = ["server."];

/** Makes `server` answer the messages of its child. */
export function serveHotRestart(
  hr: HotRestart,
  server: ServerContext,
  log: (l: string, m: string) => void,
): void {
  const exporter = new WorkerStatsExporter(server.stats, NOT_HANDED_OVER);
  /** The cumulative view of each histogram as last handed to the child. */
  const handed = new Map<string, LogLinearSnapshot>();
  hr.serve({
    info: () => ({
      version: hotRestartProtocolVersion(),
      pid: Deno.pid,
      firstEpochStartedAt: server.firstEpochStartedAt,
    }),
    drain: async (asked) => {
      log("info", "hot restart: the child is LIVE; draining listeners");
      // The child counted this process's sockets as the group's first ones: check it did.
      const pins = asked.filter((p) => {
        const own = listeningDescriptors(p.address, p.port).length;
        if (own === p.index) return true;
        log(
          "warning",
          `hot restart: not pinning ${hostPort(p.address, p.port)}: the child counted ${p.index} ` +
            `sockets of this process there, it has ${own}`,
        );
        return false;
      });
      await server.listeners.drain({ inboundOnly: false, graceful: true, pins });
    },
    stats: (): ParentStats => {
      // Collecting flushes the store: each histogram's cumulative view then holds everything.
      const d = exporter.collect();
      const histograms: ParentStats["histograms"] = [];
      for (const h of server.stats.sortedHistograms()) {
        if (NOT_HANDED_OVER.some((p) => h.name.startsWith(p))) continue;
        const before = handed.get(h.name) ?? null;
        if (h.cumulative.count === (before?.count ?? 0)) continue;
        const now = h.cumulative.snapshot();
        handed.set(h.name, now);
        histograms.push([h.name, h.unit, snapshotDelta(now, before)]);
      }
      return { counters: d.counters, gauges: d.gauges, histograms };
    },
    terminate: () => {
      log("info", "hot restart: the child asked this process to shut down");
      void server.shutdown();
    },
  });
}

/**
 * The child's part, started once the server is LIVE; resolves when the parent was told to shut
 * down (or could not be reached any more). `stopped()` ends it early (this process shuts down).
 */
export async function takeOverFromParent(
  hr: HotRestart,
  server: ServerContext,
  log: (l: string, m: string) => void,
  stopped: () => boolean,
): Promise<void> {
  const importer = new WorkerStatsImporter(server.stats, 1);
  const take = (s: ParentStats) => {
    const d: WorkerStatsDelta = {
      counters: s.counters,
      gauges: s.gauges,
      histograms: s.histograms ?? [],
    };
    importer.apply(0, d);
  };
  const pull = async () => take(await hr.parentStats());
  const steering = ChildSteering.start(server.listeners.listeners(), log);
  try {
    await hr.drainParent(steering.pins);
    await pull();
    const end = Date.now() + server.options.parent_shutdown_time_s * 1000;
    while (!stopped() && Date.now() < end) {
      await new Promise((r) => setTimeout(r, Math.min(1000, Math.max(0, end - Date.now()))));
      steering.release();
      await pull();
    }
    if (stopped()) return;
    log("info", "hot restart: telling the parent to shut down");
    const last = await hr.terminateParent();
    if (last) take(last);
    log("info", "hot restart: the parent shut down and handed over its last stats");
  } catch (e) {
    log("warning", `hot restart: ${e instanceof Error ? e.message : e}`);
  } finally {
    steering.release(true);
    importer.forget(0);
  }
}
