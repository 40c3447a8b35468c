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
import type { ClusterView } from "./types.ts";
import type { Thresholds } from "../config/effective_cluster.ts";
import type { Scope } from "../stats/types.ts";
import { CircuitBreaker } from "./circuit_breaker.ts";
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
  #hosts: Host[];
  readonly #pools = new Map<Host, HostPools>();
  /** `cluster.<stat_name>`. */
  readonly #scope: Scope;
  /** Pools of removed hosts that still had requests in flight. */
  readonly #retired = new Map<Host, HostPools>();

  /** Builds the cluster under the root scope (`cluster.<stat_name>`). */
  constructor(readonly effective: EffectiveCluster, root: Scope, addedViaApi = false) {
    this.addedViaApi = addedViaApi;
    this.name = effective.name;
    this.statName = effective.statName;
    this.config = effective.config;
    this.thresholds = effective.thresholds;
    const scope = root.scope("cluster").scope(effective.statName);
    this.#scope = scope;
    this.stats = new ClusterStats(scope);
    this.breakers = [
      new CircuitBreaker(effective.thresholds[0], scope),
      new CircuitBreaker(effective.thresholds[1], scope),
    ];
    // Discovered clusters (EDS, DNS) have no hosts until their first update.
    this.initialized = effective.type === "STATIC";
    this.#hosts = effective.type === "STATIC" ? effective.hosts.map((h) => new Host(h)) : [];
    this.lb = this.#newLb();
    this.#setMembership();
    this.stats.membership_degraded.set(0);
    this.stats.membership_excluded.set(0);
  }

  #newLb(): LoadBalancer {
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
    this.stats.membership_total.set(this.#hosts.length);
    this.stats.membership_healthy.set(this.#hosts.filter((h) => h.healthy()).length);
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
    let added = 0;
    const hosts = next.map((e) => {
      const kept = old.get(hostPort(e.address, e.port))?.shift();
      if (kept) {
        kept.update(e);
        return kept;
      }
      added++;
      return new Host(e);
    });
    let removed = 0;
    for (const list of old.values()) {
      for (const h of list) {
        removed++;
        const p = this.#pools.get(h);
        this.#pools.delete(h);
        if (p) this.#retired.set(h, p);
      }
    }
    this.#hosts = hosts;
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
    for (const p of this.#pools.values()) closePools(p);
    this.#pools.clear();
    this.#sweepRetired(true);
    this.deadlines.close();
  }
}
