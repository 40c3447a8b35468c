/**
 * Circuit breakers of one cluster priority: counts of open connections, pending requests, active
 * requests and active retries against `effective.thresholds`, with the
 * `circuit_breakers.<priority>.{cx_open,rq_pending_open,rq_open,rq_retry_open}` gauges set to 1
 * while a limit is reached.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { CircuitBreaker } from "./circuit_breaker.ts";
 * const cb = new CircuitBreaker(
 *   { priority: "DEFAULT", max_connections: 1, max_pending_requests: 1, max_requests: 1, max_retries: 3 },
 *   new Store().scope("cluster.demo"),
 * );
 * cb.connections.inc();
 * assert.equal(cb.connections.canCreate(), false);
 * ```
 * @module
 */
import type { Gauge, Scope } from "../stats/types.ts";
import type { Thresholds } from "../config/effective_cluster.ts";

/** One limited resource and its "open" gauge. */
export class Resource {
  #count = 0;
  /** Creates a resource limited to `max`, reporting through `open`. */
  constructor(readonly max: number, readonly open: Gauge) {}
  /** True while another unit may be taken. */
  canCreate(): boolean {
    return this.#count < this.max;
  }
  /** Units in use. */
  count(): number {
    return this.#count;
  }
  /** Takes one unit. */
  inc(): void {
    this.#count++;
    if (this.#count >= this.max && this.open.value() !== 1) this.open.set(1);
  }
  /** Gives one unit back. */
  dec(): void {
    this.#count--;
    if (this.#count < this.max && this.open.value() !== 0) this.open.set(0);
  }
}

/** The four resources of one priority. */
export class CircuitBreaker {
  readonly connections: Resource;
  readonly pending: Resource;
  readonly requests: Resource;
  readonly retries: Resource;

  /** Creates the breakers of `t.priority` under the cluster scope. */
  constructor(readonly thresholds: Thresholds, cluster: Scope) {
    const s = cluster.scope("circuit_breakers").scope(t2name(thresholds.priority));
    this.connections = new Resource(thresholds.max_connections, s.gauge("cx_open"));
    this.pending = new Resource(thresholds.max_pending_requests, s.gauge("rq_pending_open"));
    this.requests = new Resource(thresholds.max_requests, s.gauge("rq_open"));
    this.retries = new Resource(thresholds.max_retries, s.gauge("rq_retry_open"));
    // Envoy creates these gauges at start-up with value 0.
    for (const g of ["cx_open", "rq_pending_open", "rq_open", "rq_retry_open", "cx_pool_open"]) {
      s.gauge(g);
    }
  }
}

function t2name(p: Thresholds["priority"]): string {
  return p === "HIGH" ? "high" : "default";
}
