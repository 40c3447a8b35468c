/**
 * The 64-bit hash functions of consistent hashing, as unsigned `bigint`s: xxHash64 (Envoy's
 * `HashUtil::xxHash64`, from `npm:xxhash-wasm`) and MurmurHash2-64 with the seed of libstdc++'s
 * `std::hash<std::string>` (3.4.20 and later), so rings and request hashes equal Envoy's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { murmurHash2, xxHash64 } from "./hash.ts";
 * assert.equal(xxHash64("hello").toString(16), "26c7827d889f6da3");
 * assert.equal(murmurHash2("127.0.0.1:85_0"), 1358027074129602068n);
 * ```
 * @module
 */
import xxhash from "xxhash-wasm";

const xx = await xxhash();
const utf8 = new TextEncoder();

/** xxHash64 of the UTF-8 bytes of `s` (or of `s` itself when bytes) with `seed` (default 0). */
export function xxHash64(s: string | Uint8Array, seed = 0n): bigint {
  return typeof s === "string" ? xx.h64(s, seed) : xx.h64Raw(s, seed);
}

/**
 * xxHash64 of several strings fed one after another into one hash state (Envoy hashes the
 * values of a repeated header this way, after sorting them).
 */
export function xxHash64Concat(parts: readonly string[], seed = 0n): bigint {
  if (parts.length === 1) return xxHash64(parts[0], seed);
  const h = xx.create64(seed);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** libstdc++'s seed of `std::hash<std::string>` (`_Hash_bytes(..., 0xc70f6907)`). */
export const STD_HASH_SEED = 0xc70f6907n;
const MUL = 0xc6a4a7935bd1e995n;
const M64 = (1n << 64n) - 1n;

const shiftMix = (v: bigint) => v ^ (v >> 47n);

/**
 * MurmurHash2, 64-bit variant of libstdc++'s `_Hash_bytes`: `std::hash<std::string>` on a
 * 64-bit GNU system is `murmurHash2(s, STD_HASH_SEED)`.
 */
export function murmurHash2(s: string | Uint8Array, seed: bigint = STD_HASH_SEED): bigint {
  const b = typeof s === "string" ? utf8.encode(s) : s;
  const len = b.length;
  const aligned = len & ~7;
  let h = (seed ^ ((BigInt(len) * MUL) & M64)) & M64;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  for (let p = 0; p < aligned; p += 8) {
    const data = (shiftMix((dv.getBigUint64(p, true) * MUL) & M64) * MUL) & M64;
    h = ((h ^ data) * MUL) & M64;
  }
  if ((len & 7) !== 0) {
    let data = 0n;
    for (let i = len - 1; i >= aligned; i--) data = (data << 8n) + BigInt(b[i]);
    h = ((h ^ data) * MUL) & M64;
  }
  h = (shiftMix(h) * MUL) & M64;
  return shiftMix(h);
}

const rnd = new BigUint64Array(1);

/** A uniformly random 64-bit value (Envoy's `random()`, used when a request has no hash). */
export function randomHash(): bigint {
  crypto.getRandomValues(rnd);
  return rnd[0];
}

/**
 * The draw of a priority level from a request hash, as Envoy's `choosePriority(hash % 100, ...)`:
 * a function giving `(hash % 100) / 100` (for `candidateHosts`), or undefined (a random draw).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { priorityDraw } from "./hash.ts";
 * assert.equal(priorityDraw(1234n)?.(), 0.34);
 * ```
 */
export function priorityDraw(hash: bigint | undefined): (() => number) | undefined {
  if (hash === undefined) return undefined;
  const x = Number(hash % 100n) / 100;
  return () => x;
}
