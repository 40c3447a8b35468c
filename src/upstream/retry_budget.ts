/**
 * A retry budget (`circuit_breakers.thresholds[].retry_budget`), as Envoy's `RetryBudgetImpl`:
 * the retries in flight may be `budget_percent` of the requests active and pending on the
 * cluster's priority (default 20%), never fewer than `min_retry_concurrency` (default 3). When a
 * budget is set it replaces `max_retries`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { retryBudgetLimit } from "./retry_budget.ts";
 * let active = 0;
 * const limit = retryBudgetLimit({ budget_percent: 20, min_retry_concurrency: 3 },
 *   { count: () => active }, { count: () => 0 });
 * assert.equal(limit(), 3);
 * active = 50;
 * assert.equal(limit(), 10);
 * ```
 * @module
 */

/** A count of requests in flight (a circuit breaker resource). */
export interface InFlight {
  count(): number;
}

/** The settings of a retry budget, defaults applied. */
export interface RetryBudgetSettings {
  budget_percent: number;
  min_retry_concurrency: number;
}

/**
 * The limit of retries in flight under `budget`: `budget_percent` of the `active` and `pending`
 * requests now, at least `min_retry_concurrency`.
 */
export function retryBudgetLimit(
  budget: RetryBudgetSettings,
  active: InFlight,
  pending: InFlight,
): () => number {
  return () =>
    Math.max(
      Math.floor(budget.budget_percent / 100 * (active.count() + pending.count())),
      budget.min_retry_concurrency,
    );
}
