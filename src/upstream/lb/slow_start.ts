/**
 * Slow start (`slow_start_config` of ROUND_ROBIN and LEAST_REQUEST) as Envoy applies it: a
 * healthy host whose `lastHcPassTime` lies less than `slow_start_window` ago weighs
 * `weight * max(min_weight_percent, f ^ (1 / aggression))`, where `f` is the share of the window
 * that has passed (at least 1 ms of it). A host gets its `lastHcPassTime` when it joins a cluster
 * that is already initialized, or when active health checking finds it healthy again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slowStartWeight } from "./slow_start.ts";
 * import { testHost } from "./test_hosts.ts";
 * const h = testHost(80, 10);
 * h.lastHcPassTime = 0;
 * const s = { windowMs: 1000, aggression: () => 1, minWeightPercent: 10, now: () => 500 };
 * assert.equal(slowStartWeight(h, h.weight, s), 5);
 * ```
 * @module
 */
import type { Host } from "../host.ts";

/** The effective slow start settings of a balancer. */
export interface SlowStartOptions {
  /** `slow_start_window` in milliseconds; 0: no slow start. */
  windowMs: number;
  /** `aggression` (its runtime value at the time of the pick). */
  aggression: () => number;
  /** `min_weight_percent` (0..100). */
  minWeightPercent: number;
  /** The clock `lastHcPassTime` is read against (`performance.now`). */
  now: () => number;
}

/** How long ago `h` entered slow start, or null when it is not in slow start. */
function sinceEntry(h: Host, s: SlowStartOptions, now: number): number | null {
  if (h.lastHcPassTime === null || !h.healthy()) return null;
  const d = now - h.lastHcPassTime;
  return d < s.windowMs ? d : null;
}

/** True when some host of `hs` is in slow start (balancers then schedule by weight). */
export function anyInSlowStart(
  hs: readonly Host[],
  s: SlowStartOptions | null | undefined,
): boolean {
  if (!s || s.windowMs <= 0) return false;
  const now = s.now();
  return hs.some((h) => sinceEntry(h, s, now) !== null);
}

/**
 * `weight` (the host's weight as the policy computes it) scaled by the slow start factor of `h`;
 * `weight` itself when `h` is not in slow start.
 */
export function slowStartWeight(h: Host, weight: number, s: SlowStartOptions): number {
  if (s.windowMs <= 0) return weight;
  const d = sinceEntry(h, s, s.now());
  if (d === null) return weight;
  let aggression = s.aggression();
  if (!(aggression > 0)) aggression = 1;
  const f = Math.max(1, d) / s.windowMs;
  const scaled = aggression === 1 || f === 1 ? f : Math.pow(f, 1 / aggression);
  return weight * Math.max(scaled, s.minWeightPercent / 100);
}
