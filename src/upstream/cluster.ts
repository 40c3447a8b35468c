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
import { createLoadBalancer, defaultLbOptions, type LoadBalancer } from "./lb/load_balancer.ts";
import { localReply, NO_HEALTHY_UPSTREAM, resetBody } from "../http/local_reply.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import { forwardHttp1 } from "./forward_http1.ts";
import { forwardHttp2 } from "./forward_http2.ts";
import type { ProxyResponse } from "../http/proxy_response.ts";
import { DeadlineQueue } from "./deadline_queue.ts";
import { ignoreNewHosts, onPanic } from "./priority_load.ts";
import { HealthChecker } from "./health_check/health_checker.ts";
import { healthCheckConfig } from "./health_check/health_check_config.ts";
import { OutlierDetector } from "./outlier/outlier_detector.ts";
import { OutlierConfig, type RuntimeLookup } from "./outlier/outlier_config.ts";

/** What a cluster may use of the server. */
export interface ClusterDeps {
  /** Runtime values (outlier detection and health check overrides). */
  runtime?: RuntimeLookup;
  log?: (level: string, msg: string) => void;
  /**
   * A data-plane worker's copy of a cluster: no active health checking (the main thread checks
   * and sends each host's health); see `src/server/worker_main.ts`.
   */
  replica?: boolean;
  /** Circuit breaker counts shared with other workers (the cluster's first word). */
  sharedCounts?: SharedCount;
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
  /** Called whenever the hosts or their health change (workers copy the host set). */
  onMembership: (() => void) | null = null;
  #hosts: Host[];
  readonly #pools = new Map<Host, HostPools>();
  /** `cluster.<stat_name>`. */
  readonly #scope: Scope;
  /** Pools of removed hosts that still had requests in flight. */
  readonly #retired = new Map<Host, HostPools>();

  /** Builds the cluster under the root scope (`cluster.<stat_name>`). */
  constructor(
    readonly effective: EffectiveCluster,
    root: Scope,
    addedViaApi = false,
    deps: ClusterDeps = {},
  ) {
    this.addedViaApi = addedViaApi;
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
    this.initialized = effective.type === "STATIC";
    this.#hosts = effective.type === "STATIC" ? effective.hosts.map((h) => new Host(h)) : [];
    if (effective.outlierDetection) {
      const od = new OutlierConfig(effective.outlierDetection, deps.runtime ?? null);
      this.outlier = new OutlierDetector(od, scope, this);
    }
    if (effective.healthChecks.length > 0 && !deps.replica) {
      const hc = new HealthChecker(this, healthCheckConfig(effective.healthChecks[0]), scope, {
        log: deps.log,
        runtime: deps.runtime,
      });
      this.healthChecker = hc;
      hc.onCheckComplete((h, healthy) => {
        const o = this.outlier;
        if (healthy && o?.config.successfulActiveHealthCheckUnejectHost) o.uneject(h);
      });
      hc.addHosts(this.#hosts);
    }
    this.lb = this.#newLb();
    this.#setMembership();
  }

  #newLb(): LoadBalancer {
    onPanic(this.#hosts, () => this.stats.lb_healthy_panic.inc());
    if (this.effective.ignoreNewHostsUntilFirstHc && this.healthChecker) {
      ignoreNewHosts(this.#hosts);
    }
    return createLoadBalancer(
      this.effective.lbPolicy,
      this.#hosts,
      defaultLbOptions({
        choiceCount: this.effective.leastRequest.choiceCount,
        panicThreshold: this.effective.healthyPanicThreshold,
        ringHash: this.effective.ringHash,
        gauge: (name, value) => {
          const dot = name.indexOf(".");
          this.#scope.scope(name.slice(0, dot)).gauge(name.slice(dot + 1)).set(value);
        },
      }),
    );
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
  healthChanged(_host: Host): void {
    this.#setMembership();
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
    const o = this.outlier;
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
    const o = this.outlier;
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
   * hosts were added and removed.
   */
  updateHosts(next: readonly EffectiveHost[]): { added: number; removed: number } {
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
      fresh.push(h);
      return h;
    });
    const added = fresh.length;
    let removed = 0;
    const gone: Host[] = [];
    for (const list of old.values()) {
      for (const h of list) {
        removed++;
        gone.push(h);
        this.outlier?.removeHost(h);
        const p = this.#pools.get(h);
        this.#pools.delete(h);
        if (p) this.#retired.set(h, p);
      }
    }
    this.#hosts = hosts;
    this.healthChecker?.removeHosts(gone);
    for (const h of fresh) this.outlier?.addHost(h);
    this.healthChecker?.addHosts(fresh);
    this.lb = this.#newLb();
    this.#setMembership();
    this.#sweepRetired(false);
    return { added, removed };
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
    return p.h1[priority] ??= new Http1Pool(this.effective, h, this.stats, this.breakers[priority]);
  }

  /** The HTTP/2 pool of a host and priority. */
  h2Pool(h: Host, priority: 0 | 1): Http2Pool {
    const p = this.#poolsOf(h);
    return p.h2[priority] ??= new Http2Pool(this.effective, h, this.stats, this.breakers[priority]);
  }

  /** Sends `r` to a host of this cluster; never rejects (failures become local replies). */
  forward(r: UpstreamRequest): Promise<ProxyResponse> {
    const cb = this.breakers[r.priority];
    if (!cb.requests.canCreate()) {
      this.stats.rq_pending_overflow.inc();
      return Promise.resolve(this.overflowReply());
    }
    const host = this.lb.choose(r.lb ?? {});
    if (!host) {
      this.stats.cx_none_healthy.inc();
      return Promise.resolve(localReply(503, NO_HEALTHY_UPSTREAM));
    }
    r.upstream = host;
    return this.usesHttp2(r) ? forwardHttp2(this, host, r) : forwardHttp1(this, host, r);
  }

  /** The reply for a circuit-breaker overflow. */
  overflowReply(): ProxyResponse {
    return localReply(503, resetBody("overflow"), { "x-proxy-overloaded": "true" });
  }

  /** Closes every pooled connection. */
  close(): void {
    this.healthChecker?.close();
    this.outlier?.close();
    for (const p of this.#pools.values()) closePools(p);
    this.#pools.clear();
    this.#sweepRetired(true);
    this.deadlines.close();
  }
}
