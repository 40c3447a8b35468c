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
import { retryBudgetLimit } from "./retry_budget.ts";

/**
 * Where a resource's count lives when several workers share it: one `Int32Array` word over a
 * `SharedArrayBuffer`, changed with `Atomics` (Envoy's circuit breakers count per cluster, across
 * workers).
 */
export interface SharedCount {
  array: Int32Array;
  index: number;
}

/** One limited resource and its "open" gauge. */
export class Resource {
  #count = 0;
  readonly #shared: SharedCount | undefined;
  readonly #limit: (() => number) | undefined;
  /**
   * Creates a resource limited to `max` (or to what `limit` says each time, as a retry budget
   * does), reporting through `open`, counted in `shared` if given.
   */
  constructor(
    readonly max: number,
    readonly open: Gauge,
    shared?: SharedCount,
    limit?: () => number,
  ) {
    this.#shared = shared;
    this.#limit = limit;
  }
  /** The limit now. */
  limit(): number {
    return this.#limit === undefined ? this.max : this.#limit();
  }
  /** True while another unit may be taken. */
  canCreate(): boolean {
    return this.count() < this.limit();
  }
  /** Units in use (by every worker sharing the count). */
  count(): number {
    const sh = this.#shared;
    return sh ? Atomics.load(sh.array, sh.index) : this.#count;
  }
  /** Takes one unit. */
  inc(): void {
    const sh = this.#shared;
    const n = sh ? Atomics.add(sh.array, sh.index, 1) + 1 : ++this.#count;
    if (n >= this.limit() && this.open.value() !== 1) this.open.set(1);
  }
  /** Gives one unit back. */
  dec(): void {
    const sh = this.#shared;
    const n = sh ? Atomics.sub(sh.array, sh.index, 1) - 1 : --this.#count;
    if (n < this.limit() && this.open.value() !== 0) this.open.set(0);
  }
}

/** Words of shared counts one cluster needs: 4 resources for each of 2 priorities. */
export const SHARED_COUNTS_PER_CLUSTER = 8;

/** The four resources of one priority. */
export class CircuitBreaker {
  readonly connections: Resource;
  readonly pending: Resource;
  readonly requests: Resource;
  readonly retries: Resource;

  /**
   * Creates the breakers of `t.priority` under the cluster scope; with `shared` (the cluster's
   * first word of {@linkcode SHARED_COUNTS_PER_CLUSTER}), the counts are shared across workers.
   */
  constructor(readonly thresholds: Thresholds, cluster: Scope, shared?: SharedCount) {
    const s = cluster.scope("circuit_breakers").scope(t2name(thresholds.priority));
    const at = (k: number): SharedCount | undefined =>
      shared && {
        array: shared.array,
        index: shared.index + (thresholds.priority === "HIGH" ? 4 : 0) + k,
      };
    this.connections = new Resource(thresholds.max_connections, s.gauge("cx_open"), at(0));
    this.pending = new Resource(
      thresholds.max_pending_requests,
      s.gauge("rq_pending_open"),
      at(1),
    );
    this.requests = new Resource(thresholds.max_requests, s.gauge("rq_open"), at(2));
    const budget = thresholds.retry_budget;
    this.retries = budget === undefined
      ? new Resource(thresholds.max_retries, s.gauge("rq_retry_open"), at(3))
      : new Resource(
        budget.min_retry_concurrency,
        s.gauge("rq_retry_open"),
        at(3),
        retryBudgetLimit(budget, this.requests, this.pending),
      );
    // Envoy creates these gauges at start-up with value 0.
    for (const g of ["cx_open", "rq_pending_open", "rq_open", "rq_retry_open", "cx_pool_open"]) {
      s.gauge(g);
    }
  }
}

function t2name(p: Thresholds["priority"]): string {
  return p === "HIGH" ? "high" : "default";
}
