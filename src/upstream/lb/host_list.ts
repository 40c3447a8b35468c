/**
 * Helpers balancers share: whether a candidate list changed since the last pick, and whether all
 * hosts weigh the same (Envoy then skips weighted scheduling).
 *
 * @example
 * ```ts
 * import { equalWeights, sameHosts } from "./host_list.ts";
 * console.log(sameHosts([], []), equalWeights([])); // true true
 * ```
 * @module
 */
import type { Host } from "../host.ts";

/** True when `a` and `b` hold the same hosts in the same order. */
export function sameHosts(a: readonly Host[] | null, b: readonly Host[]): boolean {
  if (a === b) return true;
  if (a === null || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** True when every host has the weight of the first. */
export function equalWeights(hs: readonly Host[]): boolean {
  for (let i = 1; i < hs.length; i++) if (hs[i].weight !== hs[0].weight) return false;
  return true;
}
