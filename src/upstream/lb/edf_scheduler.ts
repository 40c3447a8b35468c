/**
 * Earliest-deadline-first scheduling, as Envoy's `EdfScheduler`: each entry is due at
 * `now + 1 / weight`; a pick takes the entry due first (ties: the one added first), moves the
 * clock to its deadline and adds it again with its weight at that moment. Over time each entry is
 * picked in proportion to its weight, evenly spread.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EdfScheduler } from "./edf_scheduler.ts";
 * const s = new EdfScheduler<string>();
 * s.add(2, "a");
 * s.add(1, "b");
 * const w = (x: string) => (x === "a" ? 2 : 1);
 * assert.equal([1, 2, 3].map(() => s.pickAndAdd(w)).join(""), "aba");
 * ```
 * @module
 */

interface Entry<T> {
  deadline: number;
  order: number;
  item: T;
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.order < b.order);
}

/** A min-heap of entries ordered by deadline, then insertion order. */
export class EdfScheduler<T> {
  readonly #heap: Entry<T>[] = [];
  #now = 0;
  #order = 0;

  /** Adds `item` with `weight` (> 0), due at `now + 1 / weight`. */
  add(weight: number, item: T): void {
    const e = { deadline: this.#now + 1 / weight, order: this.#order++, item };
    const h = this.#heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  /** The entry due first, added again with `weight(item)`; undefined when empty. */
  pickAndAdd(weight: (item: T) => number): T | undefined {
    const h = this.#heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    this.#now = top.deadline;
    this.add(weight(top.item), top.item);
    return top.item;
  }

  /** The number of entries. */
  get size(): number {
    return this.#heap.length;
  }
}
