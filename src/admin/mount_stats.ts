/**
 * Mounting the stats handlers (`STATS_HANDLERS` of `stats_handler.ts`) under the
 * stats paths of the endpoint table. `STATS_HANDLERS` is keyed by plain strings, so this module
 * gives it the typed keys the handler map needs; a stats path the module does not serve answers
 * 501 naming the path (and the handler map test fails), rather than crashing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATS_MOUNT } from "./mount_stats.ts";
 * assert.equal(typeof STATS_MOUNT["/stats"], "function");
 * ```
 * @module
 */
import type { Handler } from "./types.ts";
import { STATS_HANDLERS } from "./stats_handler.ts";
import { textResponse } from "../config/proto_json.ts";

/** The admin paths served by the stats handlers. */
export const STATS_PATHS = [
  "/stats",
  "/stats/prometheus",
  "/stats/recentlookups",
  "/stats/recentlookups/enable",
  "/stats/recentlookups/disable",
  "/stats/recentlookups/clear",
  "/reset_counters",
] as const;

/** One of {@linkcode STATS_PATHS}. */
export type StatsPath = (typeof STATS_PATHS)[number];

function missing(path: string): Handler {
  return () => textResponse(`${path}: the stats handlers do not serve this path\n`, 501);
}

/** The stats handlers by typed path. */
export const STATS_MOUNT = Object.fromEntries(
  STATS_PATHS.map((p) => [p, STATS_HANDLERS[p] ?? missing(p)]),
) as Record<StatsPath, Handler>;
