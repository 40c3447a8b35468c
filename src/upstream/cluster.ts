/**
 * One upstream cluster at run time: hosts, load balancer, circuit breakers, connection pools and
 * statistics, and {@linkcode Cluster.forward}, which sends one request to a chosen host and
 * turns failures into Envoy's local replies.
 *
 * @example Not run: it needs a running cluster (`cluster`) with an upstream server.
 * ```ts ignore
 * const res = await cluster.forward(upstreamRequest);
 * ```
 * @module
 */
import type { EffectiveCluster, EffectiveHost } from "../config/effective_cluster.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { ClusterView, OutlierFigures } from "./types.ts";
import type { Thresholds } from "../config/effective_cluster.ts";
import type { Scope } from "../stats/types.ts";
import { CircuitBreaker, type SharedCount } from "./circuit_breaker.ts";
import { ClusterStats } from "./cluster_stats.ts";
import { Host, hostPort } from "./host.ts";
import { Http1Pool } from "./http1_pool.ts";
import { Http2Pool } from "./http2_pool.ts";
import { defaultLbOptions, type LoadBalancer } from "./lb/load_balancer.ts";
import { localReply, NO_HEALTHY_UPSTREAM, resetBody } from "../http/local_reply.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import { forwardHttp1 } from "./forward_http1.ts";
import { forwardHttp2 } from "./forward_http2.ts";
import { AlpnProtocols, AUTO_ALPN } from "./alpn_protocols.ts";
import { openTransport } from "./transport.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { DeadlineQueue } from "./deadline_queue.ts";
import { healthEpoch, ignoreNewHosts, onPanic } from "./priority_load.ts";
import { UpdateMergeWindow } from "./merge_window.ts";
import { sameHosts } from "./lb/host_list.ts";
import { HealthChecker } from "./health_check/health_checker.ts";
import { healthCheckConfig } from "./health_check/health_check_config.ts";
import { OutlierDetector } from "./outlier/outlier_detector.ts";
import type { OutlierEventRecorder, OutlierSink } from "./outlier/outlier_events.ts";
import type { OutlierEventLog } from "./outlier/outlier_event_log.ts";
import { OutlierConfig, type RuntimeLookup } from "./outlier/outlier_config.ts";
import { OriginalDstHosts } from "./original_dst.ts";
import { type SubsetConfig, subsetConfig, SubsetStats } from "./lb/subset.ts";
import { buildLoadBalancer } from "./lb/compose.ts";
import { policyOptions } from "./lb/policy_options.ts";
import { AggregateBalancer } from "./lb/aggregate.ts";
import { aggregateTargets } from "../config/aggregate_cluster.ts";
import { isLocalityWeighted, zoneAwareOptions, type ZoneContext } from "./lb/lb_support.ts";
import type { ZoneAwareOptions } from "./lb/zone_aware.ts";
import { asComponentLog, type ComponentLog, type LogFn } from "../platform/log_site.ts";

/** What a cluster may use of the server. */
export interface ClusterDeps {
  /** Runtime values (outlier detection and health check overrides). */
  runtime?: RuntimeLookup;
  log?: (level: string, msg: string) => void;
  /** The `hc` logger of active health checking (default: `log`). */
  hcLog?: LogFn;
  /** The `pool` logger of the connection pools (default: silent). */
  poolLog?: ComponentLog;
  /** The local cluster and locality, for zone-aware routing (`local_cluster_name`). */
  zone?: ZoneContext;
  /**
   * A data-plane worker's copy of a cluster: no active health checking (the main thread checks
   * and sends each host's health); see `src/server/worker_main.ts`.
   */
  replica?: boolean;
  /** Circuit breaker counts shared with other workers (the cluster's first word). */
  sharedCounts?: SharedCount;
  /**
   * A replica's outlier events go here, to the main thread's detector (no detector of its own);
   * see `outlier/outlier_events.ts`.
   */
  outlierEvents?: OutlierEventRecorder;
  /** The outlier detection event log (`cluster_manager.outlier_detection.event_log_path`). */
  outlierEventLog?: OutlierEventLog;
  /** The active cluster of a name (an aggregate cluster's members). */
  cluster?: (name: string) => Cluster | undefined;
}

/** Per-host pools, one per priority. */
export interface HostPools {
  h1: [Http1Pool | null, Http1Pool | null];
  h2: [Http2Pool | null, Http2Pool | null];
}

function closePools(p: HostPools): void {
  for (const x of p.h1) x?.close();
  for (const x of p.h2) x?.close();
}

/** A running cluster. */
export class Cluster implements ClusterView {
  readonly name: string;
  readonly statName: string;
  /** True for clusters from CDS. */
  readonly addedViaApi: boolean;
  /** The CDS update that added or last changed this cluster; null when static. */
  apiUpdate: { version_info: string; last_updated: string } | null = null;
  readonly config: JsonObject;
  readonly thresholds: readonly Thresholds[];
  readonly stats: ClusterStats;
  readonly breakers: [CircuitBreaker, CircuitBreaker];
  /** Rebuilt whenever the host set changes. */
  lb: LoadBalancer;
  /** False until the first discovery update (EDS, DNS) was applied or failed; static: true. */
  initialized: boolean;
  /** Route timeouts of this cluster's requests. */
  readonly deadlines = new DeadlineQueue();
  /** Active health checking (`health_checks`), when configured. */
  readonly healthChecker: HealthChecker | null = null;
  /** Outlier detection (`outlier_detection`), when configured. */
  readonly outlier: OutlierDetector | null = null;
  /** Where answers and local-origin results go: the detector, or a replica's recorder. */
  readonly #outlierSink: OutlierSink<Host> | null = null;
  /** The on-demand hosts of an ORIGINAL_DST cluster. */
  readonly originalDst: OriginalDstHosts | null = null;
  /** Called whenever the hosts or their health change (workers copy the host set). */
  onMembership: (() => void) | null = null;
  #hosts: Host[];
  /** `lb_subset_config` and the `lb_subsets_*` statistics, when subsets are configured. */
  readonly #subsets: { config: SubsetConfig; stats: SubsetStats } | null = null;
  /** `update_merge_window`: when health and weight updates reach the balancers. */
  readonly #merge: UpdateMergeWindow;
  /** The health epoch last delivered to the balancers. */
  #delivered = healthEpoch();
  /** True while a discovery update is being applied (its own flag changes are part of it). */
  #applying = false;
  /** Hosts gone from discovery but kept while they pass active checks. */
  readonly #pendingRemoval = new Set<Host>();
  /** Hosts seen unhealthy, for `close_connections_on_host_health_failure`. */
  readonly #failed = new WeakSet<Host>();
  /** Zone-aware routing, when the bootstrap names a local cluster. */
  readonly #zoneAware: ZoneAwareOptions | null = null;
  readonly #runtime: RuntimeLookup | undefined;
  /** The aggregate cluster's choice among its member clusters; null for other clusters. */
  readonly aggregate: AggregateBalancer<Cluster> | null = null;
  readonly #pools = new Map<Host, HostPools>();
  /** `cluster.<stat_name>`. */
  readonly #scope: Scope;
  /** Pools of removed hosts that still had requests in flight. */
  readonly #retired = new Map<Host, HostPools>();
  /** The `upstream` logger. */
  readonly #log: ComponentLog;
  readonly #poolLog: ComponentLog | undefined;

  /** Builds the cluster under the root scope (`cluster.<stat_name>`). */
  constructor(
    readonly effective: EffectiveCluster,
    root: Scope,
    addedViaApi = false,
    deps: ClusterDeps = {},
  ) {
    this.addedViaApi = addedViaApi;
    this.#log = asComponentLog(deps.log);
    this.#poolLog = deps.poolLog;
    this.name = effective.name;
    this.statName = effective.statName;
    this.config = effective.config;
    this.thresholds = effective.thresholds;
    const scope = root.scope("cluster").scope(effective.statName);
    this.#scope = scope;
    this.stats = new ClusterStats(scope);
    this.breakers = [
      new CircuitBreaker(effective.thresholds[0], scope, deps.sharedCounts),
      new CircuitBreaker(effective.thresholds[1], scope, deps.sharedCounts),
    ];
    // Discovered clusters (EDS, DNS) have no hosts until their first update.
    this.#runtime = deps.runtime;
    this.initialized = effective.type === "STATIC" || effective.type === "ORIGINAL_DST";
    this.#hosts = effective.type === "STATIC" ? effective.hosts.map((h) => new Host(h)) : [];
    const cm = root.scope("cluster_manager");
    this.#merge = new UpdateMergeWindow(effective.updateMergeWindowMs, {
      cancelled: cm.counter("update_merge_cancelled"),
      outOfWindow: cm.counter("update_out_of_merge_window"),
      viaMerge: cm.counter("cluster_updated_via_merge"),
    });
    for (const h of this.#hosts) this.#watch(h);
    if (effective.outlierDetection && deps.replica && deps.outlierEvents) {
      this.#outlierSink = deps.outlierEvents.sink(this.name);
    } else if (effective.outlierDetection) {
      const od = new OutlierConfig(effective.outlierDetection, deps.runtime ?? null);
      const log = deps.outlierEventLog;
      this.outlier = new OutlierDetector(od, scope, this, {
        eventLog: log ? { log, cluster: this.name } : null,
      });
      this.#outlierSink = this.outlier;
    }
    if (effective.healthChecks.length > 0 && !deps.replica) {
      const hc = new HealthChecker(this, healthCheckConfig(effective.healthChecks[0]), scope, {
        log: deps.hcLog ?? deps.log,
        runtime: deps.runtime,
      });
      this.healthChecker = hc;
      hc.onCheckComplete((h, healthy) => {
        const o = this.outlier;
        if (healthy && o?.config.successfulActiveHealthCheckUnejectHost) o.uneject(h);
      });
      hc.addHosts(this.#hosts);
    }
    if (deps.zone) this.#zoneAware = zoneAwareOptions(this.config, deps.zone, scope, deps.runtime);
    const sc = subsetConfig(effective.config.lb_subset_config);
    if (sc) {
      const sub = scope.scope("lb_subsets");
      this.#subsets = {
        config: sc,
        stats: new SubsetStats({
          active: sub.gauge("active"),
          created: sub.counter("created"),
          removed: sub.counter("removed"),
          selected: sub.counter("selected"),
          fallback: sub.counter("fallback"),
          fallbackPanic: sub.counter("fallback_panic"),
        }),
      };
    }
    if (effective.type === "ORIGINAL_DST") {
      this.originalDst = new OriginalDstHosts(this, {
        useHttpHeader: effective.useHttpHeader,
        cleanupIntervalMs: effective.cleanupIntervalMs,
        invalid: scope.counter("original_dst_host_invalid"),
      });
      if (effective.useHttpHeader) {
        deps.log?.(
          "warning",
          `cluster ${this.name}: original_dst_lb_config.use_http_header is on; the ` +
            "x-proxy-original-dst-host header is not sanitized: any client can pick the destination",
        );
      }
    }
    const targets = aggregateTargets(this.config);
    if (targets !== null) {
      const lookup = deps.cluster ?? (() => undefined);
      this.aggregate = new AggregateBalancer(targets, lookup, effective.healthyPanicThreshold);
    }
    this.lb = this.#newLb();
    this.#setMembership();
  }

  #newLb(): LoadBalancer {
    const agg = this.aggregate;
    if (agg) return { choose: (ctx) => agg.chooseCluster()?.lb.choose(ctx) ?? null };
    onPanic(this.#hosts, () => this.stats.lb_healthy_panic.inc());
    if (this.effective.ignoreNewHostsUntilFirstHc && this.healthChecker) {
      ignoreNewHosts(this.#hosts);
    }
    const o = defaultLbOptions({
      epoch: () => this.#delivered,
      choiceCount: this.effective.leastRequest.choiceCount,
      panicThreshold: this.effective.healthyPanicThreshold,
      ringHash: this.effective.ringHash,
      originalDst: this.originalDst ?? undefined,
      ...policyOptions(this.config, this.#runtime),
      gauge: (name, value) => {
        const dot = name.indexOf(".");
        this.#scope.scope(name.slice(0, dot)).gauge(name.slice(dot + 1)).set(value);
      },
    });
    return buildLoadBalancer(this.#hosts, this.effective.lbPolicy, o, {
      localityWeighted: isLocalityWeighted(this.config),
      subset: this.#subsets,
      zoneAware: this.#zoneAware,
    });
  }

  #setMembership() {
    let healthy = 0;
    let degraded = 0;
    let excluded = 0;
    for (const h of this.#hosts) {
      if (h.excluded()) excluded++;
      else if (h.healthy()) {
        if (h.degraded()) degraded++;
        else healthy++;
      }
    }
    this.stats.membership_total.set(this.#hosts.length);
    this.stats.membership_healthy.set(healthy);
    this.stats.membership_degraded.set(degraded);
    this.stats.membership_excluded.set(excluded);
    this.onMembership?.();
  }

  /** Outlier detection figures of the last interval; null when detection is off. */
  outlierFigures(): OutlierFigures | null {
    const o = this.outlier;
    if (!o) return null;
    return {
      successRateAverage: o.external.average,
      successRateEjectionThreshold: o.external.threshold,
      localOriginSuccessRateAverage: o.local.average,
      localOriginSuccessRateEjectionThreshold: o.local.threshold,
    };
  }

  /** A host's health changed (checks, outlier detection): membership gauges follow. */
  healthChanged(host: Host): void {
    this.#setMembership();
    // A host kept after discovery removed it goes once it fails its active checks.
    if (this.#pendingRemoval.has(host) && host.health.failed_active_hc) {
      this.#pendingRemoval.delete(host);
      this.#removeKept(host);
    }
  }

  /** Follows `h`'s health changes: the merge window, and closing connections on failure. */
  #watch(h: Host) {
    h.onChange = () => {
      const failed = h.health.failed_active_hc || h.health.failed_outlier_check;
      if (failed && !this.#failed.has(h)) {
        this.#failed.add(h);
        if (this.effective.closeConnectionsOnHostHealthFailure) {
          for (const c of [...h.tcpConnections]) c.close();
        }
      } else if (!failed) this.#failed.delete(h);
      if (this.#applying) return;
      this.#merge.update("health", true, () => this.#delivered = healthEpoch());
    };
  }

  #removeKept(host: Host) {
    const next = this.#hosts.filter((h) => h !== host).map(effectiveOf);
    this.updateHosts(next);
  }

  /** True once the cluster has opened a connection for traffic (health checks slow down before). */
  hadTraffic(): boolean {
    return this.stats.cx_total.value() > 0;
  }

  /** Resolves when the first round of active health checks is done (at once without checks). */
  initialHealthChecks(): Promise<void> {
    return this.healthChecker?.firstRound() ?? Promise.resolve();
  }

  /** Reports an answer from `host` to outlier detection and health checking. */
  hostAnswered(host: Host, code: number, headers: readonly (readonly [string, string])[]): void {
    const o = this.#outlierSink;
    if (o) {
      o.putResult(host, "LOCAL_ORIGIN_CONNECT_SUCCESS");
      o.putHttpResponseCode(host, code);
    }
    const hc = this.healthChecker;
    if (hc) {
      for (const [n] of headers) {
        if (
          n === "x-envoy-immediate-health-check-fail" || n === "x-proxy-immediate-health-check-fail"
        ) {
          hc.passiveFailure(host);
          break;
        }
      }
    }
  }

  /**
   * Reports a request to `host` that got no answer: the connection failed, the route timed out,
   * or the connection was reset after it was made (counted as a 503 answer).
   */
  hostFailed(host: Host, kind: "connect" | "timeout" | "reset"): void {
    const o = this.#outlierSink;
    if (!o) return;
    if (kind === "connect") o.putResult(host, "LOCAL_ORIGIN_CONNECT_FAILED");
    else if (kind === "timeout") o.putResult(host, "LOCAL_ORIGIN_TIMEOUT");
    else o.putHttpResponseCode(host, 503);
  }

  /**
   * Replaces the host set with `next` (a discovery update). A host whose address and port stay
   * keeps its {@linkcode Host} object, statistics and connections and takes the new weight,
   * priority, locality, metadata and health status; removed hosts' idle connections close (busy
   * ones when their last request ends, checked at each update and at close). Returns how many
   * hosts were added and removed. `health`, when given, sets the new hosts' health flags as part
   * of the same update (a worker's copy takes the main thread's health this way).
   */
  updateHosts(
    next: readonly EffectiveHost[],
    health?: (hosts: readonly Host[]) => void,
  ): { added: number; removed: number } {
    const have = new Map<string, number>();
    for (const h of this.#hosts) have.set(h.key, (have.get(h.key) ?? 0) + 1);
    let added = 0;
    for (const e of next) {
      const k = hostPort(e.address, e.port);
      const n = have.get(k) ?? 0;
      if (n > 0) have.set(k, n - 1);
      else added++;
    }
    let removed = 0;
    for (const n of have.values()) removed += n;
    // The hosts take the update at once (`/clusters` shows it); the balancers see health and
    // weight changes when the merge window delivers them, membership changes at once.
    this.#applying = true;
    try {
      this.#replaceHosts(this.#keepRemoved(next));
      health?.(this.#hosts);
    } finally {
      this.#applying = false;
    }
    const membership = added > 0 || removed > 0;
    if (this.#log.on("debug")) {
      this.#log(
        "debug",
        `membership update for cluster ${this.name}: ${next.length} hosts, ${added} added, ` +
          `${removed} removed`,
      );
    }
    this.#merge.update("hosts", !membership, () => {
      this.#delivered = healthEpoch();
      // Rings and tables are rebuilt with the new weights.
      if (!membership) this.lb = this.#newLb();
    });
    return { added, removed };
  }

  /**
   * Without `drain_connections_on_host_removal`, hosts of an EDS or STRICT_DNS cluster that
   * discovery removed but that still pass active health checks stay (Envoy's
   * `PENDING_DYNAMIC_REMOVAL`) until they fail them.
   */
  #keepRemoved(discovered: readonly EffectiveHost[]): readonly EffectiveHost[] {
    const t = this.effective.type;
    if (
      !this.healthChecker || this.effective.drainConnectionsOnHostRemoval ||
      (t !== "EDS" && t !== "STRICT_DNS")
    ) {
      this.#pendingRemoval.clear();
      return discovered;
    }
    const named = new Set(discovered.map((e) => hostPort(e.address, e.port)));
    const kept: EffectiveHost[] = [];
    for (const h of this.#hosts) {
      if (named.has(h.key)) {
        this.#pendingRemoval.delete(h);
      } else if (!h.health.failed_active_hc) {
        this.#pendingRemoval.add(h);
        kept.push(effectiveOf(h));
      } else this.#pendingRemoval.delete(h);
    }
    return kept.length ? [...discovered, ...kept] : discovered;
  }

  /** True when `h` stays only until it fails its active checks. */
  pendingDynamicRemoval(h: Host): boolean {
    return this.#pendingRemoval.has(h);
  }

  #replaceHosts(next: readonly EffectiveHost[]): void {
    const old = new Map<string, Host[]>();
    for (const h of this.#hosts) {
      const list = old.get(h.key) ?? [];
      list.push(h);
      old.set(h.key, list);
    }
    const fresh: Host[] = [];
    const hosts = next.map((e) => {
      const kept = old.get(hostPort(e.address, e.port))?.shift();
      if (kept) {
        kept.update(e);
        return kept;
      }
      const h = new Host(e);
      if (this.initialized) h.lastHcPassTime = performance.now();
      this.#watch(h);
      fresh.push(h);
      return h;
    });
    if (sameHosts(this.#hosts, hosts)) {
      // No membership change: the balancers keep their host list (and its delivered plan).
      this.#setMembership();
      return;
    }
    const gone: Host[] = [];
    for (const list of old.values()) {
      for (const h of list) {
        h.onChange = null;
        gone.push(h);
        this.outlier?.removeHost(h);
        const p = this.#pools.get(h);
        this.#pools.delete(h);
        if (p) this.#retired.set(h, p);
      }
    }
    this.#hosts = hosts;
    this.healthChecker?.removeHosts(gone);
    for (const h of gone) this.#alpn?.forget(h);
    for (const h of fresh) this.outlier?.addHost(h);
    this.healthChecker?.addHosts(fresh);
    this.lb = this.#newLb();
    this.#setMembership();
    this.#sweepRetired(false);
  }

  #sweepRetired(all: boolean) {
    for (const [h, p] of this.#retired) {
      if (!all && h.stats.rq_active.value() > 0) continue;
      closePools(p);
      this.#retired.delete(h);
    }
  }

  /** The hosts, in configuration order. */
  hosts(): readonly Host[] {
    return this.#hosts;
  }

  /** True when requests go upstream over HTTP/2. */
  usesHttp2(r: UpstreamRequest): boolean {
    if (this.effective.protocolSelection === "USE_DOWNSTREAM_PROTOCOL") return r.downstreamH2;
    return this.effective.http2;
  }

  #poolsOf(h: Host): HostPools {
    let p = this.#pools.get(h);
    if (!p) this.#pools.set(h, p = { h1: [null, null], h2: [null, null] });
    return p;
  }

  /** The HTTP/1.1 pool of a host and priority. */
  h1Pool(h: Host, priority: 0 | 1): Http1Pool {
    const p = this.#poolsOf(h);
    if (p.h1[priority] !== null) return p.h1[priority];
    const pool = new Http1Pool(this.effective, h, this.stats, this.breakers[priority]);
    if (this.#poolLog) pool.log = this.#poolLog;
    return p.h1[priority] = pool;
  }

  /** The HTTP/2 pool of a host and priority. */
  h2Pool(h: Host, priority: 0 | 1): Http2Pool {
    const p = this.#poolsOf(h);
    return p.h2[priority] ??= new Http2Pool(this.effective, h, this.stats, this.breakers[priority]);
  }

  /**
   * The cluster whose hosts, pools, breakers and settings serve a connection: this one, or for
   * an aggregate cluster the member its balancer chooses (null when none can serve). Code that
   * picks a host itself (TCP proxy, tunnels) starts here.
   */
  serving(): Cluster | null {
    return this.aggregate ? this.aggregate.chooseCluster() ?? null : this;
  }

  /** Sends `r` to a host of this cluster; never rejects (failures become local replies). */
  forward(r: UpstreamRequest): Promise<ProxyResponse> {
    if (this.aggregate) {
      // The chosen member cluster serves the request: its balancer, pools, breakers and stats.
      const member = this.aggregate.chooseCluster();
      if (member) return member.forward(r);
      this.stats.cx_none_healthy.inc();
      return Promise.resolve(localReply(503, NO_HEALTHY_UPSTREAM));
    }
    const cb = this.breakers[r.priority];
    if (!cb.requests.canCreate()) {
      this.stats.rq_pending_overflow.inc();
      return Promise.resolve(this.overflowReply());
    }
    const ctx = this.originalDst
      ? { ...r.lb, headers: r.headers, downstreamLocal: r.downstreamLocal }
      : r.metadataMatch
      ? { ...r.lb, metadataMatch: r.metadataMatch }
      : r.lb ?? {};
    let host = this.lb.choose(ctx);
    const again = ctx.shouldSelectAnotherHost;
    if (again !== undefined) {
      const n = ctx.hostSelectionRetryCount?.() ?? 0;
      for (let i = 0; i < n && host !== null && again(host); i++) host = this.lb.choose(ctx);
    }
    if (!host) {
      this.stats.cx_none_healthy.inc();
      return Promise.resolve(localReply(503, NO_HEALTHY_UPSTREAM));
    }
    r.upstream = host;
    if (r.autoHostRewrite && host.hostname !== "") r.authority = host.hostname;
    if (this.effective.alpnAuto) {
      const chosen = host;
      return this.#alpnProtocols().speaksH2(chosen).then((h2) =>
        h2 ? forwardHttp2(this, chosen, r) : forwardHttp1(this, chosen, r)
      );
    }
    return this.usesHttp2(r) ? forwardHttp2(this, host, r) : forwardHttp1(this, host, r);
  }

  #alpn: AlpnProtocols | null = null;

  /** The hosts' protocols of an `auto_config` cluster, each learned by one TLS handshake. */
  #alpnProtocols(): AlpnProtocols {
    return this.#alpn ??= new AlpnProtocols(async (h) => {
      const host = h as Host;
      let chosen: string | null = null;
      const t = await openTransport({
        address: host.address,
        port: host.port,
        tls: this.effective.tls,
        timeoutMs: this.effective.connectTimeoutMs,
        alpn: AUTO_ALPN,
        bind: this.effective.upstreamBind,
        onAlpn: (p) => chosen = p,
      });
      t.close();
      return chosen;
    });
  }

  /** The reply for a circuit-breaker overflow. */
  overflowReply(): ProxyResponse {
    return localReply(503, resetBody("overflow"), { "x-proxy-overloaded": "true" });
  }

  /** Closes every pooled connection. */
  close(): void {
    this.healthChecker?.close();
    this.outlier?.close();
    this.originalDst?.close();
    this.#merge.close();
    for (const p of this.#pools.values()) closePools(p);
    this.#pools.clear();
    this.#sweepRetired(true);
    this.deadlines.close();
  }
}

/** The facts of a running host as a discovery update would give them. */
function effectiveOf(h: Host): EffectiveHost {
  return {
    address: h.address,
    port: h.port,
    hostname: h.hostname,
    weight: h.weight,
    priority: h.priority,
    region: h.region,
    zone: h.zone,
    sub_zone: h.sub_zone,
    metadata: h.metadata,
    ...(h.localityWeight ? { localityWeight: h.localityWeight } : {}),
    ...(h.health.failed_eds_health ? { health_status: "UNHEALTHY" } : {}),
  };
}
