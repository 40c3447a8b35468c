/**
 * Starts load reporting for a cluster manager: a {@linkcode LoadReporter} on the gRPC service of
 * `cluster_manager.load_stats_config`, reporting the manager's active clusters with the node the
 * control planes see.
 *
 * @example Not run: it connects to a load reporting server.
 * ```ts ignore
 * import { startLoadReporter } from "./load_reporting.ts";
 * const lrs = startLoadReporter(cm, bootstrap.cluster_manager.load_stats_config, console.log);
 * lrs.close();
 * ```
 * @module
 */
import type { ClusterManager } from "./cluster_manager.ts";
import { LoadReporter } from "./load_reporter.ts";
import { apiSourceOf } from "../config/config_source.ts";

/** Opens the LRS stream of `cm`; `close()` ends it and its channel. */
export function startLoadReporter(
  cm: ClusterManager,
  source: unknown,
  log: (level: string, msg: string) => void,
): { close(): void } {
  const open = cm.xds.loadStatsOpener(source);
  const api = apiSourceOf(source, "cluster_manager.load_stats_config");
  const r = new LoadReporter(open, {
    node: cm.deps.node ?? {},
    nodeFirstOnly: api.ok && api.api.type !== "REST" && api.api.nodeFirstOnly,
    clusters: () =>
      cm.clusters().map((c) => {
        const eds = c.config.eds_cluster_config as { service_name?: unknown } | undefined;
        return {
          name: c.name,
          serviceName: typeof eds?.service_name === "string" ? eds.service_name : undefined,
          hosts: () => c.hosts(),
        };
      }),
    refresh: cm.deps.refreshLoadStats,
    log,
  });
  r.start();
  return {
    close: () => {
      r.close();
      open.close();
    },
  };
}
