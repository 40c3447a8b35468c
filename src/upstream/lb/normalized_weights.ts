/**
 * Host weights as shares of their sum, as Envoy's consistent-hashing balancers see them
 * (`normalizeHostWeights`): each share is `weight / sum`, with the smallest and largest share.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizedWeights } from "./normalized_weights.ts";
 * assert.equal(normalizedWeights([]).min, 1);
 * ```
 * @module
 */
import type { Host } from "../host.ts";

/** Shares of the hosts' weights, with their extremes (min starts at 1, max at 0, as in Envoy). */
export interface NormalizedWeights {
  hosts: readonly Host[];
  weights: number[];
  min: number;
  max: number;
}

/** Locality (`region/zone/sub_zone`) -> its `load_balancing_weight`, for locality weighting. */
export type LocalityWeights = ReadonlyMap<string, number>;

const localityOf = (h: Host) => `${h.region}/${h.zone}/${h.sub_zone}`;

/** The locality weights of `hosts`' localities (0 for a locality without one). */
export function localityWeightsOf(hosts: readonly Host[]): LocalityWeights {
  const out = new Map<string, number>();
  for (const h of hosts) if (!out.has(localityOf(h))) out.set(localityOf(h), h.localityWeight);
  return out;
}

/**
 * The normalized weights of `hosts`; with `localityWeights`, Envoy's `normalizeLocalityWeights`:
 * hosts grouped by locality (in order of first appearance), each locality's hosts sharing its
 * weight's part of the sum, hosts of localities weighing 0 left out.
 */
export function normalizedWeights(
  hosts: readonly Host[],
  localityWeights?: LocalityWeights,
): NormalizedWeights {
  if (localityWeights) return byLocality(hosts, localityWeights);
  let sum = 0;
  for (const h of hosts) sum += h.weight;
  let min = 1;
  let max = 0;
  const weights = hosts.map((h) => {
    const w = h.weight * 1.0 / sum;
    if (w < min) min = w;
    if (w > max) max = w;
    return w;
  });
  return { hosts, weights, min, max };
}

/** The text a host is hashed by: its address as Envoy prints it (`127.0.0.1:80`, `[::1]:80`). */
export function hostHashKey(h: Host): string {
  return h.key;
}

function byLocality(hosts: readonly Host[], lw: LocalityWeights): NormalizedWeights {
  let total = 0;
  for (const w of lw.values()) total += w;
  const groups = new Map<string, Host[]>();
  for (const h of hosts) {
    const g = groups.get(localityOf(h));
    if (g) g.push(h);
    else groups.set(localityOf(h), [h]);
  }
  const out: Host[] = [];
  const weights: number[] = [];
  let min = 1;
  let max = 0;
  if (total === 0) return { hosts: out, weights, min, max };
  for (const [k, g] of groups) {
    const share = (lw.get(k) ?? 0) / total;
    if (share === 0) continue;
    let sum = 0;
    for (const h of g) sum += h.weight;
    for (const h of g) {
      const w = h.weight * share / sum;
      if (w < min) min = w;
      if (w > max) max = w;
      out.push(h);
      weights.push(w);
    }
  }
  return { hosts: out, weights, min, max };
}
