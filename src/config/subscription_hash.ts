/**
 * The value of a subscription's `version` gauge: Envoy sets it to the xxHash64 (seed 0) of
 * `version_info`. Gauges here hold JavaScript numbers, so values above 2^53 lose their lowest
 * bits; {@linkcode xxHash64} gives the exact 64-bit hash.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { xxHash64 } from "./subscription_hash.ts";
 * assert.equal(xxHash64("").toString(16), "ef46db3751d8e999");
 * ```
 * @module
 */

const M = (1n << 64n) - 1n;
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M;
const round = (acc: bigint, lane: bigint) => (rotl((acc + lane * P2) & M, 31n) * P1) & M;
const merge = (acc: bigint, v: bigint) => ((((acc ^ round(0n, v)) * P1) & M) + P4) & M;

/** xxHash64 of the UTF-8 bytes of `s` with `seed`. */
export function xxHash64(s: string, seed = 0n): bigint {
  const b = new TextEncoder().encode(s);
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const n = b.length;
  let i = 0;
  let h: bigint;
  if (n >= 32) {
    let v1 = (seed + P1 + P2) & M;
    let v2 = (seed + P2) & M;
    let v3 = seed;
    let v4 = (seed - P1) & M;
    for (; i + 32 <= n; i += 32) {
      v1 = round(v1, dv.getBigUint64(i, true));
      v2 = round(v2, dv.getBigUint64(i + 8, true));
      v3 = round(v3, dv.getBigUint64(i + 16, true));
      v4 = round(v4, dv.getBigUint64(i + 24, true));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M;
    h = merge(merge(merge(merge(h, v1), v2), v3), v4);
  } else {
    h = (seed + P5) & M;
  }
  h = (h + BigInt(n)) & M;
  for (; i + 8 <= n; i += 8) {
    h = (rotl(h ^ round(0n, dv.getBigUint64(i, true)), 27n) * P1 + P4) & M;
  }
  if (i + 4 <= n) {
    h = (rotl(h ^ ((BigInt(dv.getUint32(i, true)) * P1) & M), 23n) * P2 + P3) & M;
    i += 4;
  }
  for (; i < n; i++) h = (rotl(h ^ ((BigInt(b[i]) * P5) & M), 11n) * P1) & M;
  h = ((h ^ (h >> 33n)) * P2) & M;
  h = ((h ^ (h >> 29n)) * P3) & M;
  return h ^ (h >> 32n);
}

/** The `version` gauge value for `versionInfo` (xxHash64 as a number). */
export function versionHash(versionInfo: string): number {
  return Number(xxHash64(versionInfo));
}
