/**
 * The cluster manager: the running clusters by name, what `/clusters` reads, and the check that
 * rejects cluster settings this proxy core cannot honour (rather than ignoring them). Clusters are
 * STATIC, STRICT_DNS / LOGICAL_DNS (`dns.ts`) or EDS from a file (`eds.ts`); with `deps.cds` the
 * set itself comes from a CDS file (added, changed, removed; discovered ones warm first).
 *
 * @example Not run: it needs an upstream server for each cluster (`effectiveClusters`).
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
import type { ClusterManagerView } from "./types.ts";
import type { Scope } from "../stats/types.ts";
import { Cluster } from "./cluster.ts";
import type { SharedCount } from "./circuit_breaker.ts";
import { type DynamicFieldOptions, DynamicFieldPolicy } from "../config/dynamic_fields.ts";
import { EdsUpdater, type EndpointConfig } from "./eds.ts";
import { edsSourceOf } from "./eds_source.ts";
import { checkClusterSupport, checkLocalCluster, edsXdsErrors } from "./cluster_support.ts";
import { configSourceOf } from "../config/config_source.ts";
import { TYPE_URLS } from "../config/xds_names.ts";
import { type Subscription, XdsClients } from "./xds_clients.ts";
import { startLoadReporter } from "./load_reporting.ts";
import { DnsUpdater, type Resolver } from "./dns.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { checkDynamicClusters } from "../config/dynamic_clusters.ts";
import type { DiscoveryResponse } from "../config/subscription.ts";
import type { OutlierEventRecorder } from "./outlier/outlier_events.ts";
import { OutlierEventLog } from "./outlier/outlier_event_log.ts";
import { type LogFor, prefixed } from "../platform/log_site.ts";

/** What the cluster manager needs. */
export { checkClusterSupport, checkLocalCluster, edsXdsErrors };

export interface ClusterManagerDeps {
  stats: Scope;
  log?: (level: string, msg: string) => void;
  /** The server's component loggers: `hc` for health checking, `config` for discovery. */
  logFor?: LogFor;
  /**
   * The command line; `reject_unknown_dynamic_fields` and `ignore_unknown_dynamic_fields` decide
   * how unknown fields of dynamic (EDS) resources are treated. Unset: accepted with warnings.
   */
  options?: DynamicFieldOptions;
  /** `dynamic_resources.cds_config` of the bootstrap: CDS from the file it names. */
  cds?: JsonObject;
  /** Resolver of STRICT_DNS / LOGICAL_DNS clusters (default: the system resolver). */
  dnsResolver?: Resolver;
  /** Debounce of config-file events in ms (tests shorten it; default 50). */
  fileDebounceMs?: number;
  /** The bootstrap's `cluster_manager.upstream_bind_config`, for CDS clusters without one. */
  bindConfig?: unknown;
  /** Runtime values: outlier detection and health check overrides. */
  runtime?: { get(key: string): string | undefined };
  /** `cluster_manager.local_cluster_name`: the local cluster of zone-aware routing. */
  localClusterName?: string;
  /** `node.locality` (its zone from `--service-zone`). */
  localLocality?: { region?: string; zone?: string; sub_zone?: string };
  /** The bootstrap's `node` (command-line overrides applied), sent to control planes. */
  node?: JsonObject;
  /** The bootstrap's `dynamic_resources.ads_config`. */
  ads?: unknown;
  /** First reconnection delay to a control plane in ms (tests shorten it; default 500). */
  xdsBackoffMs?: number;
  /** `cluster_manager.load_stats_config`: where load reports go (LRS). */
  loadStats?: unknown;
  /** Gathers the hosts' request counts of every worker before a load report (LRS). */
  refreshLoadStats?: () => Promise<void>;
  /**
   * A data-plane worker's copy: no discovery (EDS, DNS, CDS) and no health checking; the main
   * thread sends host sets and health (`src/server/worker_main.ts`).
   */
  replica?: boolean;
  /** Circuit breaker counts shared across workers, by cluster name. */
  sharedCounts?: (cluster: string) => SharedCount | undefined;
  /** A replica's outlier events, sent to the main thread's detectors. */
  outlierEvents?: OutlierEventRecorder;
  /** `cluster_manager.outlier_detection.event_log_path`: the outlier detection event log. */
  outlierEventLogPath?: string;
}

/** A running cluster and its EDS updater. */
interface Entry {
  cluster: Cluster;
  eds: EdsUpdater | null;
  dns: DnsUpdater | null;
}

/** Owns every cluster: static ones, and those from CDS when `deps.cds` names a file. */
export class ClusterManager implements ClusterManagerView {
  readonly #active = new Map<string, Entry>();
  readonly #warming = new Map<string, Entry>();
  readonly #static = new Set<string>();
  /** The active clusters as a list, rebuilt on first use after a change (null: stale). */
  #list: Cluster[] | null = null;
  readonly #pending = new Set<Promise<void>>();
  readonly #cds: Subscription | null = null;
  #lrs: { close(): void } | null = null;
  /** The control-plane connections (ADS and gRPC config sources). */
  readonly xds: XdsClients;
  #cdsVersion = "";
  #closed = false;
  readonly #log: (level: string, msg: string) => void;
  readonly #cm: Scope;
  /** How unknown fields of dynamic resources are treated (one policy per process). */
  readonly policy: DynamicFieldPolicy;
  /**
   * Called when CDS makes a cluster active (added or changed) or removes one (`null`); the
   * worker pool sends the change to every worker.
   */
  onClusterChange: ((name: string, cluster: Cluster | null) => void) | null = null;
  /** The outlier detection event log, when configured. */
  readonly #outlierLog: OutlierEventLog | null;

  /** Builds every cluster; throws {@linkcode ConfigLoadError} for unsupported settings. */
  constructor(clusters: EffectiveCluster[], readonly deps: ClusterManagerDeps) {
    const errors = checkClusterSupport(clusters);
    this.#log = deps.log ?? (() => {});
    this.#outlierLog = deps.outlierEventLogPath
      ? new OutlierEventLog(deps.outlierEventLogPath)
      : null;
    this.policy = DynamicFieldPolicy.fromOptions(deps.options, deps.stats, this.#log);
    this.xds = new XdsClients({
      policy: this.policy,
      clusters,
      node: deps.node,
      ads: deps.ads,
      log: deps.logFor?.("config") ?? this.#log,
      backoffBaseMs: deps.xdsBackoffMs,
      stats: deps.stats,
    });
    const cdsAt = "dynamic_resources.cds_config";
    const cdsSource = deps.cds && !deps.replica ? configSourceOf(deps.cds, cdsAt) : null;
    if (cdsSource && !cdsSource.ok) {
      errors.push({ path: cdsSource.at, rule: "", message: cdsSource.message });
    }
    errors.push(...checkLocalCluster(deps.localClusterName, clusters));
    const cdsProblem = cdsSource?.ok ? this.xds.check(cdsSource.spec, cdsAt) : null;
    if (cdsProblem) errors.push({ ...cdsProblem, rule: "" });
    errors.push(...this.#edsSourceErrors(clusters, "static_resources.clusters"));
    const lrsAt = "cluster_manager.load_stats_config";
    const lrs = deps.loadStats !== undefined && !deps.replica
      ? this.xds.checkLoadStats(deps.loadStats, lrsAt)
      : null;
    if (lrs) errors.push({ ...lrs, rule: "" });
    if (errors.length) throw new ConfigLoadError(errors);
    for (const c of clusters) {
      this.#active.set(c.name, this.#entry(c, false));
      this.#static.add(c.name);
    }
    this.#cm = deps.stats.scope("cluster_manager");
    this.#cm.counter("cluster_added").inc(this.#active.size);
    for (const n of ["cluster_modified", "cluster_removed", "cluster_updated"]) this.#cm.counter(n);
    this.#changed();
    if (cdsSource?.ok) {
      this.#cds = this.xds.subscribe(cdsSource.spec, TYPE_URLS.cds, null, this.#cm.scope("cds"), {
        onConfigUpdate: (r) => this.#applyCds(r),
        onConfigUpdateFailed: () => {},
      }, {
        policy: this.policy,
        log: prefixed(deps.logFor?.("config") ?? this.#log, "cds: "),
        debounceMs: deps.fileDebounceMs,
      });
    }
  }

  /** Why the control-plane EDS sources of `clusters` (at `path[i]`) cannot be used. */
  #edsSourceErrors(clusters: readonly EffectiveCluster[], path: string): ConfigError[] {
    return edsXdsErrors(clusters, path, this.xds);
  }

  #entry(c: EffectiveCluster, viaApi: boolean): Entry {
    const local = this.deps.localClusterName;
    const l = this.deps.localLocality ?? {};
    const cluster = new Cluster(c, this.deps.stats, viaApi, {
      runtime: this.deps.runtime,
      log: this.#log,
      hcLog: this.deps.logFor?.("hc"),
      poolLog: this.deps.logFor?.("pool"),
      zone: local
        ? {
          localHosts: () => this.get(local)?.hosts() ?? null,
          local: { region: l.region ?? "", zone: l.zone ?? "", sub_zone: l.sub_zone ?? "" },
        }
        : undefined,
      replica: this.deps.replica,
      sharedCounts: this.deps.sharedCounts?.(c.name),
      outlierEvents: this.deps.outlierEvents,
      outlierEventLog: this.#outlierLog ?? undefined,
      cluster: (name) => this.get(name),
    });
    if (this.deps.replica) return { cluster, eds: null, dns: null };
    const src = c.type === "EDS" ? edsSourceOf(c.config) : null;
    const eds = src?.ok
      ? new EdsUpdater(cluster, src, {
        policy: this.policy,
        log: this.#log,
        debounceMs: this.deps.fileDebounceMs,
        xds: this.xds,
      })
      : null;
    const dns = c.type === "STRICT_DNS" || c.type === "LOGICAL_DNS"
      ? new DnsUpdater(cluster, { resolver: this.deps.dnsResolver, log: this.#log })
      : null;
    return { cluster, eds, dns };
  }

  #changed() {
    this.#list = null;
    this.#cm.gauge("active_clusters").set(this.#active.size);
    this.#cm.gauge("warming_clusters").set(this.#warming.size);
  }

  #track(p: Promise<void>) {
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
  }

  #retire(e: Entry) {
    this.#track((async () => {
      await e.eds?.close();
      await e.dns?.close();
      e.cluster.close();
    })());
  }

  /** Applies a CDS update; throws (rejecting the whole update) before changing anything. */
  #applyCds(r: DiscoveryResponse) {
    if (this.#closed) return;
    const clusters = checkDynamicClusters(r.resources, this.policy, this.deps.bindConfig);
    const problems = [
      ...checkClusterSupport(clusters, "resources"),
      ...this.#edsSourceErrors(clusters, "resources"),
    ].map((e) => `${e.path}: ${e.message}`);
    clusters.forEach((c, i) => {
      if (this.#static.has(c.name)) {
        problems.push(`resources[${i}].name: cluster "${c.name}" is static; CDS cannot change it`);
      }
    });
    if (problems.length) throw new Error(problems.join("; "));
    const names = new Set(clusters.map((c) => c.name));
    for (const map of [this.#active, this.#warming]) {
      for (const [name, e] of map) {
        if (this.#static.has(name) || names.has(name)) continue;
        map.delete(name);
        this.#retire(e);
        if (map === this.#active) {
          this.#cm.counter("cluster_removed").inc();
          this.onClusterChange?.(name, null);
        }
      }
    }
    for (const c of clusters) {
      const old = this.#warming.get(c.name) ?? this.#active.get(c.name);
      if (old && JSON.stringify(old.cluster.config) === JSON.stringify(c.config)) continue;
      this.#cm.counter(old ? "cluster_modified" : "cluster_added").inc();
      const w = this.#warming.get(c.name);
      if (w) this.#retire(w);
      const e = this.#entry(c, true);
      e.cluster.apiUpdate = {
        version_info: r.version_info,
        last_updated: new Date().toISOString(),
      };
      const discovery = e.eds?.start() ?? e.dns?.start();
      // Warming also waits for the first round of active health checks.
      const warm = discovery || e.cluster.healthChecker
        ? Promise.resolve(discovery).then(() => e.cluster.initialHealthChecks())
        : undefined;
      if (!warm) {
        this.#warming.delete(c.name);
        this.#promote(c.name, e);
        continue;
      }
      // A discovered cluster warms until its first update; the previous version serves meanwhile.
      this.#warming.set(c.name, e);
      this.#track(
        warm.then(() => {
          if (this.#warming.get(c.name) !== e) return;
          this.#warming.delete(c.name);
          this.#promote(c.name, e);
        }),
      );
    }
    this.#cdsVersion = r.version_info;
    this.#changed();
    this.#log("info", `cds: update ${r.version_info}: ${clusters.length} clusters`);
  }

  /** CDS clusters warming: waiting for their first discovery update or health-check round. */
  warmingClusters(): readonly Cluster[] {
    return [...this.#warming.values()].map((e) => e.cluster);
  }

  #promote(name: string, e: Entry) {
    const old = this.#active.get(name);
    if (old) this.#retire(old);
    this.#active.set(name, e);
    this.#changed();
    this.onClusterChange?.(name, e.cluster);
  }

  /**
   * A replica takes a cluster the main thread's CDS made active (added, or changed: the old
   * copy is retired); see `src/server/worker_main.ts`.
   */
  setReplicaCluster(
    c: EffectiveCluster,
    apiUpdate: { version_info: string; last_updated: string } | null,
  ): Cluster {
    const e = this.#entry(c, true);
    e.cluster.apiUpdate = apiUpdate;
    this.#promote(c.name, e);
    return e.cluster;
  }

  /** A replica drops a cluster the main thread's CDS removed. */
  removeReplicaCluster(name: string): void {
    const e = this.#active.get(name);
    if (!e || this.#static.has(name)) return;
    this.#active.delete(name);
    this.#retire(e);
    this.#changed();
  }

  /**
   * Starts EDS subscriptions, then CDS; resolves when every EDS cluster has had its first update
   * (or its first read failed: start-up goes on, the cluster has no hosts until a good update)
   * and the clusters of the first CDS update have warmed.
   */
  async start(): Promise<void> {
    await Promise.all([...this.#active.values()].map((e) => e.eds?.start() ?? e.dns?.start()));
    await this.#cds?.start();
    await Promise.all([...this.#pending]);
    if (this.deps.loadStats !== undefined && !this.deps.replica && !this.#closed) {
      this.#lrs = startLoadReporter(this, this.deps.loadStats, this.#log);
    }
  }

  /** Stops subscriptions and closes every pooled connection. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#lrs?.close();
    await this.#cds?.close();
    await this.xds.close();
    for (const map of [this.#active, this.#warming]) {
      for (const e of map.values()) this.#retire(e);
      map.clear();
    }
    while (this.#pending.size) await Promise.all([...this.#pending]);
    this.#outlierLog?.close();
  }

  /** The EDS updater of a cluster (active, else warming), when it is an EDS cluster. */
  eds(name: string): EdsUpdater | undefined {
    return (this.#active.get(name)?.eds ?? this.#warming.get(name)?.eds) || undefined;
  }

  /** Re-reads the CDS file now (no-op without CDS). */
  refreshCds(): Promise<void> {
    return this.#cds?.refresh() ?? Promise.resolve();
  }

  /** Accepted EDS assignments (`/config_dump?include_eds` `dynamic_endpoint_configs`). */
  dynamicEndpointConfigs(): EndpointConfig[] {
    const out: EndpointConfig[] = [];
    for (const e of this.#active.values()) {
      const c = e.eds?.endpointConfig();
      if (c) out.push(c);
    }
    return out;
  }

  /** The active cluster named `name` (warming clusters are not served yet). */
  get(name: string): Cluster | undefined {
    return this.#active.get(name)?.cluster;
  }

  /** Names of the active clusters. */
  names(): ReadonlySet<string> {
    return new Set(this.#active.keys());
  }

  /** The `version_info` of the last CDS update (`""` before one); `null` without CDS. */
  versionInfo(): string | null {
    return this.#cds ? this.#cdsVersion : null;
  }

  /** The active clusters: static ones in configuration order, then CDS ones. */
  clusters(): readonly Cluster[] {
    return this.#list ??= [...this.#active.values()].map((e) => e.cluster);
  }
}
