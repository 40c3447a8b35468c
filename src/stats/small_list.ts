/**
 * Appending to the short lists a store keeps per scope (a scope's stats, a trie node's blocks):
 * `push` reserves room for about 16 more items at the first growth, which for a scope of five
 * stats costs more than the stats' own slots, ten thousand times over. While a list is short, it
 * is copied to one of the exact length instead; once long, it grows as arrays do.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appended } from "./small_list.ts";
 * let xs: number[] = [];
 * for (let i = 0; i < 20; i++) xs = appended(xs, i);
 * assert.equal(xs.length, 20);
 * assert.equal(xs[19], 19);
 * ```
 * @module
 */

/** The empty list short lists start from: one shared array that nothing writes (frozen). */
export const EMPTY: readonly never[] = Object.freeze([]);

/** Lists up to this length are copied on append rather than grown in place. */
export const COPIED_UP_TO = 16;

/**
 * `list` with `item` at the end: a new array of the exact length while `list` is short (so
 * {@linkcode EMPTY} and other short lists are never written), else `list` itself, pushed to.
 * Callers keep the returned array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { appended } from "./small_list.ts";
 * const a = [1];
 * const b = appended(a, 2);
 * assert.deepEqual(b, [1, 2]);
 * assert.deepEqual(a, [1]);
 * ```
 */
export function appended<T>(list: readonly T[], item: T): T[] {
  const n = list.length;
  if (n >= COPIED_UP_TO) {
    (list as T[]).push(item);
    return list as T[];
  }
  const out = new Array<T>(n + 1);
  for (let i = 0; i < n; i++) out[i] = list[i];
  out[n] = item;
  return out;
}
