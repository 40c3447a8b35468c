/**
 * The stats flush timer: every `stats_flush_interval` (bootstrap; default 5 s) the store
 * flushes (server stats refresh, histogram intervals close). The server starts it and stops it
 * at shutdown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { startFlushTimer } from "./flush_timer.ts";
 * const timer = startFlushTimer(new Store(), { stats_flush_interval: "10s" });
 * assert.equal(timer.intervalMs, 10000);
 * timer.stop();
 * ```
 * @module
 */
import type { Bootstrap } from "../config/bootstrap_types.ts";
import { ConfigLoadError } from "../config/errors.ts";
import { parseDuration } from "../config/values.ts";
import type { Store } from "../stats/store.ts";
import { LIMITS, row } from "../../spec/mod.ts";

/** The flush interval when the bootstrap sets none, in milliseconds (`limits.stats-flush-interval`). */
export const DEFAULT_FLUSH_INTERVAL_MS: number = row(LIMITS, "limits.stats-flush-interval").value
  .default;

/** A running flush timer. */
export interface FlushTimer {
  readonly intervalMs: number;
  stop(): void;
}

/**
 * The flush interval of a bootstrap in milliseconds; throws a {@linkcode ConfigLoadError}
 * naming `stats_flush_interval` when it is not a positive duration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flushIntervalMs } from "./flush_timer.ts";
 * assert.equal(flushIntervalMs({ stats_flush_interval: "0.5s" }), 500);
 * assert.equal(flushIntervalMs({}), 5000);
 * ```
 */
export function flushIntervalMs(bootstrap: Pick<Bootstrap, "stats_flush_interval">): number {
  const raw = bootstrap.stats_flush_interval;
  if (raw === undefined || raw === null) return DEFAULT_FLUSH_INTERVAL_MS;
  const parsed = parseDuration(raw);
  const error = !parsed.ok
    ? parsed.error
    : parsed.value < 1
    ? `must be at least 1ms, got ${JSON.stringify(raw)}`
    : undefined;
  if (error !== undefined || !parsed.ok) {
    throw new ConfigLoadError([{ path: "stats_flush_interval", rule: "", message: error! }]);
  }
  return parsed.value;
}

/**
 * Starts flushing `store` every `stats_flush_interval`; the timer does not keep Deno alive.
 *
 * @example
 * ```ts
 * import { Store } from "../stats/store.ts";
 * import { startFlushTimer } from "./flush_timer.ts";
 * const timer = startFlushTimer(new Store(), {});
 * timer.stop();
 * ```
 */
export function startFlushTimer(
  store: Store,
  bootstrap: Pick<Bootstrap, "stats_flush_interval">,
): FlushTimer {
  const intervalMs = flushIntervalMs(bootstrap);
  const id = setInterval(() => store.flush(), intervalMs);
  Deno.unrefTimer(id);
  return { intervalMs, stop: () => clearInterval(id) };
}
