/**
 * The cluster manager: the running clusters by name, what `/clusters` reads, and the check that
 * rejects cluster settings this proxy core cannot honour (rather than ignoring them).
 *
 * @example
 * ```ts ignore
 * import { Store } from "../stats/store.ts";
 * import { ClusterManager } from "./cluster_manager.ts";
 * const cm = new ClusterManager(effectiveClusters, { stats: new Store() });
 * await cm.start();
 * const res = await cm.get("demo")!.forward(request);
 * await cm.close();
 * ```
 * @module
 */
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { type ConfigError, ConfigLoadError } from "../config/errors.ts";
import type { ClusterManagerView } from "../server/context.ts";
import type { Scope } from "../stats/types.ts";
import { Cluster } from "./cluster.ts";
import { LB_FACTORIES } from "./lb/load_balancer.ts";

/** What the cluster manager needs. */
export interface ClusterManagerDeps {
  stats: Scope;
  log?: (level: string, msg: string) => void;
}

/**
 * Settings of valid clusters that this core cannot honour yet, as errors with paths.
 * `path` is the clusters array (`static_resources.clusters`).
 */
export function checkClusterSupport(
  clusters: readonly EffectiveCluster[],
  path = "static_resources.clusters",
): ConfigError[] {
  const errors: ConfigError[] = [];
  clusters.forEach((c, i) => {
    const at = `${path}[${i}]`;
    if (!LB_FACTORIES[c.lbPolicy]) {
      errors.push({
        path: `${at}.lb_policy`,
        rule: "",
        message: `lb_policy ${c.lbPolicy} is not implemented yet`,
      });
    }
    if (c.upstreamBind && (c.upstreamBind.address !== "" || c.upstreamBind.port !== 0)) {
      errors.push({
        path: `${at}.upstream_bind_config`,
        rule: "",
        message:
          "upstream_bind_config is not supported: Deno.connect cannot bind a local source address",
      });
    }
    if (c.type !== "STATIC") {
      errors.push({
        path: `${at}.type`,
        rule: "",
        message: `cluster type ${c.type} is not implemented yet (only STATIC)`,
      });
    }
    c.hosts.forEach((h, j) => {
      if (!(h.port > 0 && h.port < 65536)) {
        errors.push({
          path: `${at}.load_assignment.endpoints[${j}]`,
          rule: "",
          message: `host ${h.address} has no valid port`,
        });
      }
    });
  });
  return errors;
}

/** Owns every cluster. */
export class ClusterManager implements ClusterManagerView {
  readonly #clusters = new Map<string, Cluster>();
  readonly #list: Cluster[] = [];

  /** Builds every cluster; throws {@linkcode ConfigLoadError} for unsupported settings. */
  constructor(clusters: EffectiveCluster[], readonly deps: ClusterManagerDeps) {
    const errors = checkClusterSupport(clusters);
    if (errors.length) throw new ConfigLoadError(errors);
    for (const c of clusters) {
      const cl = new Cluster(c, deps.stats);
      this.#clusters.set(c.name, cl);
      this.#list.push(cl);
    }
    const cm = deps.stats.scope("cluster_manager");
    cm.gauge("active_clusters").set(this.#list.length);
    cm.gauge("warming_clusters").set(0);
    cm.counter("cluster_added").inc(this.#list.length);
    for (const n of ["cluster_modified", "cluster_removed", "cluster_updated"]) cm.counter(n);
  }

  /** Starts background work (none for static clusters yet). */
  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Closes every pooled connection. */
  close(): Promise<void> {
    for (const c of this.#list) c.close();
    return Promise.resolve();
  }

  /** The cluster named `name`. */
  get(name: string): Cluster | undefined {
    return this.#clusters.get(name);
  }

  /** Cluster names. */
  names(): ReadonlySet<string> {
    return new Set(this.#clusters.keys());
  }

  /** `null`: CDS is not set up (`version_info::static`). */
  versionInfo(): string | null {
    return null;
  }

  /** The clusters in configuration order. */
  clusters(): readonly Cluster[] {
    return this.#list;
  }
}
