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

/** The normalized weights of `hosts`. */
export function normalizedWeights(hosts: readonly Host[]): NormalizedWeights {
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
