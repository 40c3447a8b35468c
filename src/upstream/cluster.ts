/**
 * One upstream cluster at run time: hosts, load balancer, circuit breakers, connection pools and
 * statistics, and {@linkcode Cluster.forward}, which sends one request to a chosen host and
 * turns failures into Envoy's local replies.
 *
 * @example
 * ```ts ignore
 * const res = await cluster.forward(upstreamRequest);
 * ```
 * @module
 */
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { ClusterView, Thresholds } from "../server/context.ts";
import type { Scope } from "../stats/types.ts";
import { CircuitBreaker } from "./circuit_breaker.ts";
import { ClusterStats } from "./cluster_stats.ts";
import { Host } from "./host.ts";
import { Http1Pool } from "./http1_pool.ts";
import { Http2Pool } from "./http2_pool.ts";
import { createLoadBalancer, type LoadBalancer } from "./lb/load_balancer.ts";
import { localReply, NO_HEALTHY_UPSTREAM, resetBody } from "./local_reply.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import { forwardHttp1 } from "./forward_http1.ts";
import { forwardHttp2 } from "./forward_http2.ts";
import { DeadlineQueue } from "./deadline_queue.ts";

/** Per-host pools, one per priority. */
export interface HostPools {
  h1: [Http1Pool | null, Http1Pool | null];
  h2: [Http2Pool | null, Http2Pool | null];
}

/** A running cluster. */
export class Cluster implements ClusterView {
  readonly name: string;
  readonly statName: string;
  readonly addedViaApi = false;
  readonly config: JsonObject;
  readonly thresholds: readonly Thresholds[];
  readonly stats: ClusterStats;
  readonly breakers: [CircuitBreaker, CircuitBreaker];
  readonly lb: LoadBalancer;
  /** Route timeouts of this cluster's requests. */
  readonly deadlines = new DeadlineQueue();
  readonly #hosts: Host[];
  readonly #pools = new Map<Host, HostPools>();

  /** Builds the cluster under the root scope (`cluster.<stat_name>`). */
  constructor(readonly effective: EffectiveCluster, root: Scope) {
    this.name = effective.name;
    this.statName = effective.statName;
    this.config = effective.config;
    this.thresholds = effective.thresholds;
    const scope = root.scope("cluster").scope(effective.statName);
    this.stats = new ClusterStats(scope);
    this.breakers = [
      new CircuitBreaker(effective.thresholds[0], scope),
      new CircuitBreaker(effective.thresholds[1], scope),
    ];
    this.#hosts = effective.hosts.map((h) => new Host(h));
    this.lb = createLoadBalancer(effective.lbPolicy, this.#hosts, {
      choiceCount: effective.leastRequest.choiceCount,
      panicThreshold: effective.healthyPanicThreshold,
    });
    this.stats.membership_total.set(this.#hosts.length);
    this.stats.membership_healthy.set(this.#hosts.filter((h) => h.healthy()).length);
    this.stats.membership_degraded.set(0);
    this.stats.membership_excluded.set(0);
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
  forward(r: UpstreamRequest): Promise<Response> {
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
    return this.usesHttp2(r) ? forwardHttp2(this, host, r) : forwardHttp1(this, host, r);
  }

  /** The reply for a circuit-breaker overflow. */
  overflowReply(): Response {
    return localReply(503, resetBody("overflow"), { "x-proxy-overloaded": "true" });
  }

  /** Closes every pooled connection. */
  close(): void {
    for (const p of this.#pools.values()) {
      for (const x of p.h1) x?.close();
      for (const x of p.h2) x?.close();
    }
    this.#pools.clear();
    this.deadlines.close();
  }
}
