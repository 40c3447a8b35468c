/**
 * Helpers balancers share: whether a candidate list changed since the last pick, and whether all
 * hosts weigh the same (Envoy then skips weighted scheduling).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { equalWeights, sameHosts } from "./host_list.ts";
 * assert.ok(sameHosts([], []) && equalWeights([]));
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

/**
 * What a balancer built for a candidate list (a ring, a table, a schedule), kept for the last
 * few lists it was given, so that alternating between priorities (or health states) does not
 * rebuild it on every pick. Envoy likewise keeps one per host source.
 */
export class PerHostList<T> {
  readonly #entries: { hosts: readonly Host[]; value: T }[] = [];

  /** Keeps at most `max` lists. */
  constructor(readonly max = 4) {}

  /** The value built for `hosts`, building it with `build` the first time. */
  get(hosts: readonly Host[], build: (hosts: readonly Host[]) => T): T {
    const es = this.#entries;
    for (let i = 0; i < es.length; i++) {
      if (es[i].hosts === hosts) return es[i].value;
    }
    for (let i = 0; i < es.length; i++) {
      if (sameHosts(es[i].hosts, hosts)) {
        es[i].hosts = hosts;
        return es[i].value;
      }
    }
    const value = build(hosts);
    es.unshift({ hosts, value });
    if (es.length > this.max) es.pop();
    return value;
  }
}
