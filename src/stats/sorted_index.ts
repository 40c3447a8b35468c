/**
 * A list of named items kept sorted by name (code-unit order, as `std::string` compares),
 * cheaply: new items wait in a pending list that is sorted and merged in on the next read, so
 * adding one stat to a million costs one linear merge, not a full sort.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SortedIndex } from "./sorted_index.ts";
 * const ix = new SortedIndex<{ name: string }>();
 * ix.add({ name: "b" });
 * ix.add({ name: "a" });
 * assert.deepEqual(ix.sorted().map((s) => s.name), ["a", "b"]);
 * ```
 * @module
 */

/**
 * Compares two names in code-unit order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { byName } from "./sorted_index.ts";
 * assert.deepEqual([{ name: "b" }, { name: "a" }].sort(byName), [{ name: "a" }, { name: "b" }]);
 * ```
 */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Merges two sorted arrays into a new sorted array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mergeSorted } from "./sorted_index.ts";
 * assert.deepEqual(
 *   mergeSorted([{ name: "a" }, { name: "c" }], [{ name: "b" }]).map((x) => x.name),
 *   ["a", "b", "c"],
 * );
 * ```
 */
export function mergeSorted<T extends { name: string }>(
  a: readonly T[],
  b: readonly T[],
  compare: (x: T, y: T) => number = byName,
): T[] {
  const out = new Array<T>(a.length + b.length);
  let i = 0, j = 0, k = 0;
  while (i < a.length && j < b.length) out[k++] = compare(b[j], a[i]) < 0 ? b[j++] : a[i++];
  while (i < a.length) out[k++] = a[i++];
  while (j < b.length) out[k++] = b[j++];
  return out;
}

/**
 * Items sorted by name, with cheap insertion.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SortedIndex } from "./sorted_index.ts";
 * const ix = new SortedIndex<{ name: string }>();
 * ix.add({ name: "z" });
 * assert.equal(ix.settle(100), true);
 * ```
 */
export class SortedIndex<T extends { name: string }> {
  #sorted: T[] = [];
  #pending: T[] = [];

  /**
   * An empty index ordered by `compare` (by default: by name in code-unit order); `arrange`, when
   * given, sorts a list of new items in place by `compare` (faster than a plain sort when it
   * knows more about the items).
   */
  constructor(
    readonly compare: (a: T, b: T) => number = byName,
    readonly arrange?: (items: T[]) => void,
  ) {}

  /** Whether the pending items are known to be in order already. */
  #pendingInOrder = true;

  /** Adds an item; it shows up in the next {@linkcode SortedIndex.sorted}. */
  add(item: T): void {
    this.#pending.push(item);
    this.#pendingInOrder = false;
  }

  /**
   * Adds an item that the caller knows sorts at or after every item still pending: when all
   * pending items came this way, they are merged without sorting.
   */
  addInOrder(item: T): void {
    this.#pending.push(item);
  }

  #takePending(part: T[]): T[] {
    if (this.#pendingInOrder) return part;
    if (this.arrange !== undefined) this.arrange(part);
    else part.sort(this.compare);
    return part;
  }

  /** Number of items. */
  get size(): number {
    return this.#sorted.length + this.#pending.length;
  }

  /**
   * Sorts and merges at most `max` pending items; true when nothing is pending any more. Lets a
   * caller spread the sorting of many new items over several event-loop turns.
   */
  settle(max: number): boolean {
    const pending = this.#pending;
    if (pending.length === 0) return true;
    let part: T[];
    // Items already in order cost no sorting: they are taken whole (one linear merge).
    if (pending.length <= max || this.#pendingInOrder) {
      part = pending;
      this.#pending = [];
    } else {
      part = pending.splice(pending.length - max);
    }
    this.#takePending(part);
    this.#sorted = this.#sorted.length === 0 ? part : mergeSorted(this.#sorted, part, this.compare);
    if (this.#pending.length > 0) return false;
    this.#pendingInOrder = true;
    return true;
  }

  /**
   * The items in name order. The returned array is a snapshot: later additions build a new
   * array, so a render that is still iterating it is not disturbed.
   */
  sorted(): readonly T[] {
    if (this.#pending.length > 0) {
      const p = this.#takePending(this.#pending);
      this.#pending = [];
      this.#pendingInOrder = true;
      this.#sorted = this.#sorted.length === 0 ? p : mergeSorted(this.#sorted, p, this.compare);
    }
    return this.#sorted;
  }
}
