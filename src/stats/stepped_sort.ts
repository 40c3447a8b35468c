/**
 * A stable sort of string keys done in steps: a bottom-up merge sort of their indexes that stops
 * after about a given number of moves and goes on where it stopped, so that sorting the 30,000
 * name heads of a store of 10,000 clusters is not one stretch of 8-30 ms between two event-loop
 * turns. The order is code-unit order of the keys, ties in index order: that of
 * `Array.prototype.sort` with a `<` comparator and the index as tiebreak.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SteppedSort } from "./stepped_sort.ts";
 * const s = new SteppedSort(["b", "c", "a", "b"]);
 * while (!s.step(2));
 * assert.deepEqual([...s.perm], [2, 0, 3, 1]);
 * ```
 * @module
 */

/** A sort of the indexes of `keys` by key, done by {@linkcode SteppedSort.step}. */
export class SteppedSort {
  #src: Int32Array;
  #dst: Int32Array;
  /** Length of the sorted runs the current pass merges in pairs. */
  #width = 1;
  /** Where the current pass is. */
  #at = 0;

  /** A sort of `keys` (read, not copied: they must not change until it is done). */
  constructor(readonly keys: readonly string[]) {
    const n = keys.length;
    this.#src = new Int32Array(n);
    for (let i = 0; i < n; i++) this.#src[i] = i;
    this.#dst = new Int32Array(n);
  }

  /** Whether every step is done. */
  get done(): boolean {
    return this.#width >= this.keys.length;
  }

  /**
   * Does about `budget` moves (at least one pair of runs is merged); true when the sort is
   * done.
   */
  step(budget: number): boolean {
    const keys = this.keys, n = keys.length;
    while (this.#width < n) {
      const w = this.#width, src = this.#src, dst = this.#dst;
      while (this.#at < n) {
        if (budget <= 0) return false;
        const lo = this.#at, mid = Math.min(lo + w, n), hi = Math.min(lo + 2 * w, n);
        let i = lo, j = mid, k = lo;
        while (i < mid && j < hi) {
          // The left run's index first on equal keys: stable.
          dst[k++] = keys[src[j]] < keys[src[i]] ? src[j++] : src[i++];
        }
        while (i < mid) dst[k++] = src[i++];
        while (j < hi) dst[k++] = src[j++];
        budget -= hi - lo;
        this.#at = hi;
      }
      this.#src = dst;
      this.#dst = src;
      this.#width = 2 * w;
      this.#at = 0;
    }
    return true;
  }

  /** The indexes in key order, once {@linkcode SteppedSort.step} returned true. */
  get perm(): Int32Array {
    return this.#src;
  }
}
