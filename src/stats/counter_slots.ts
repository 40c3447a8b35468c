/**
 * Lock-free counter storage for several workers: each counter owns one slot in every worker's
 * region of a `SharedArrayBuffer`; a worker only ever writes its own region, and a reader sums
 * the slots of all workers.
 *
 * Layout of one chunk (a `SharedArrayBuffer` viewed as `Uint32Array`), for `W` workers and
 * `CHUNK_SLOTS` counters: `W` regions of `2 + 2·CHUNK_SLOTS` words. A region starts with a
 * sequence word and a pad word, then `lo, hi` pairs (value = `hi·2³² + lo`). A write that does not
 * carry into `hi` is one tear-free `Uint32` store; a carrying write makes the sequence odd, writes
 * both words and makes it even again, so readers retry instead of seeing a torn pair.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterArena } from "./counter_slots.ts";
 * const arena = new CounterArena(2);
 * const slot = arena.allocate();
 * arena.add(0, slot, 3);
 * arena.add(1, slot, 4);
 * assert.equal(arena.sum(slot), 7);
 * ```
 * @module
 */

/** Counters per chunk. */
export const CHUNK_SLOTS = 4096;
const REGION_WORDS = 2 + 2 * CHUNK_SLOTS;
const TWO32 = 2 ** 32;

/**
 * The shared chunks of counter slots; workers receive `chunks` and `workers` through postMessage.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterArena } from "./counter_slots.ts";
 * const arena = new CounterArena(2);
 * const slot = arena.allocate();
 * arena.add(1, slot, 5);
 * assert.equal(arena.sum(slot), 5);
 * ```
 */
export class CounterArena {
  /** One `Uint32Array` over a `SharedArrayBuffer` per chunk. */
  readonly chunks: Uint32Array[] = [];
  #next = 0;

  /** Creates storage for `workers` writers (at least 1). */
  constructor(readonly workers: number = 1) {
    if (!Number.isInteger(workers) || workers < 1) {
      throw new RangeError(`workers must be a positive integer, got ${workers}`);
    }
  }

  #attached = false;

  /**
   * A view of another thread's arena (its `chunks` and `workers`, received through
   * `postMessage`): it can add and read but not allocate, since slots are handed out by the
   * owning thread only.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { CounterArena } from "./counter_slots.ts";
   * const owner = new CounterArena(2);
   * const slot = owner.allocate();
   * const view = CounterArena.attach(owner.chunks, owner.workers);
   * view.add(1, slot, 2);
   * assert.equal(owner.sum(slot), 2);
   * ```
   */
  static attach(chunks: readonly Uint32Array[], workers: number): CounterArena {
    const view = new CounterArena(workers);
    view.chunks.push(...chunks);
    view.#next = chunks.length * CHUNK_SLOTS;
    view.#attached = true;
    return view;
  }

  /** Reserves a zeroed slot and returns its index. */
  allocate(): number {
    if (this.#attached) throw new Error("an attached counter arena cannot allocate slots");
    const slot = this.#next++;
    const c = Math.floor(slot / CHUNK_SLOTS);
    while (this.chunks.length <= c) {
      const sab = new SharedArrayBuffer(this.workers * REGION_WORDS * 4);
      this.chunks.push(new Uint32Array(sab));
    }
    return slot;
  }

  /** Number of slots handed out. */
  get size(): number {
    return this.#next;
  }

  /**
   * A view of `worker`'s region of the chunk holding `slot`: word 0 is the region's sequence
   * word, and `slot`'s pair starts at {@linkcode pairAt}`(slot)`. Writing through it follows the
   * same protocol as {@linkcode CounterArena.add} (see {@linkcode addInRegion}).
   */
  region(worker: number, slot: number): Uint32Array {
    const a = this.chunks[Math.floor(slot / CHUNK_SLOTS)];
    return new Uint32Array(a.buffer, worker * REGION_WORDS * 4, REGION_WORDS);
  }

  /** Adds `n` (a non-negative integer) to `slot` in `worker`'s region; only that worker calls it. */
  add(worker: number, slot: number, n: number): void {
    const a = this.chunks[Math.floor(slot / CHUNK_SLOTS)];
    const base = worker * REGION_WORDS;
    const i = base + 2 + 2 * (slot % CHUNK_SLOTS);
    const lo = a[i] + n;
    if (lo < TWO32) {
      a[i] = lo;
      return;
    }
    const hi = a[i + 1] + Math.floor(lo / TWO32);
    Atomics.add(a, base, 1);
    Atomics.store(a, i, lo % TWO32);
    Atomics.store(a, i + 1, hi % TWO32);
    Atomics.add(a, base, 1);
  }

  /**
   * Reads `slot` of one worker consistently. A writer that stopped in the middle of a carrying
   * write (a killed worker) cannot hang the reader: after a bounded number of retries the words
   * are read as they are.
   */
  read(worker: number, slot: number): number {
    const a = this.chunks[Math.floor(slot / CHUNK_SLOTS)];
    const base = worker * REGION_WORDS;
    const i = base + 2 + 2 * (slot % CHUNK_SLOTS);
    for (let tries = 0; tries < 10_000; tries++) {
      const s1 = Atomics.load(a, base);
      if ((s1 & 1) !== 0) continue;
      const lo = Atomics.load(a, i);
      const hi = Atomics.load(a, i + 1);
      if (Atomics.load(a, base) === s1) return hi * TWO32 + lo;
    }
    return a[i + 1] * TWO32 + a[i];
  }

  /** The sum of `slot` over every worker. */
  sum(slot: number): number {
    let total = 0;
    for (let w = 0; w < this.workers; w++) total += this.read(w, slot);
    return total;
  }

  /**
   * The sum of `slot` over every worker, read by the thread that writes `own`'s region: that
   * region is read without the consistency protocol (no other thread writes it), the others
   * with it.
   */
  sumFrom(own: number, slot: number): number {
    const a = this.chunks[Math.floor(slot / CHUNK_SLOTS)];
    const i = own * REGION_WORDS + 2 + 2 * (slot % CHUNK_SLOTS);
    let total = a[i + 1] * TWO32 + a[i];
    for (let w = 0; w < this.workers; w++) if (w !== own) total += this.read(w, slot);
    return total;
  }
}

/**
 * The index of `slot`'s low word in a region view (see {@linkcode CounterArena.region}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CHUNK_SLOTS, pairAt } from "./counter_slots.ts";
 * assert.equal(pairAt(CHUNK_SLOTS + 1), 4);
 * ```
 */
export function pairAt(slot: number): number {
  return 2 + 2 * (slot % CHUNK_SLOTS);
}

/**
 * Adds `n` (a non-negative integer) at word `i` of a region view, as
 * {@linkcode CounterArena.add} does: a carry into the high word is written under the region's
 * sequence word.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addInRegion, CounterArena, pairAt } from "./counter_slots.ts";
 * const arena = new CounterArena();
 * const slot = arena.allocate();
 * addInRegion(arena.region(0, slot), pairAt(slot), 2 ** 32 + 1);
 * assert.equal(arena.sum(slot), 2 ** 32 + 1);
 * ```
 */
export function addInRegion(a: Uint32Array, i: number, n: number): void {
  const lo = a[i] + n;
  if (lo < TWO32) {
    a[i] = lo;
    return;
  }
  const hi = a[i + 1] + Math.floor(lo / TWO32);
  Atomics.add(a, 0, 1);
  Atomics.store(a, i, lo % TWO32);
  Atomics.store(a, i + 1, hi % TWO32);
  Atomics.add(a, 0, 1);
}

/**
 * What one thread keeps beside the shared slots for the counters it created: the arena, the
 * region it writes, each slot's value at the last reset, and the slots marked used without a
 * value (an increment below 1). A counter holds none of it, only its block's writer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterArena, CounterWriter } from "./counter_slots.ts";
 * const w = new CounterWriter(new CounterArena());
 * const slot = w.arena.allocate();
 * w.arena.add(0, slot, 5);
 * w.reset(slot);
 * w.arena.add(0, slot, 2);
 * assert.equal(w.value(slot), 2);
 * ```
 */
export class CounterWriter {
  /** Value at the last reset, by slot; null until the first reset. */
  #bases: number[] | null = null;
  /** Slots incremented by less than 1 only (they count as used). */
  #marked: Set<number> | null = null;

  /** This thread's region view of each chunk, made on first use. */
  #regions: Uint32Array[] = [];

  /** A writer of `worker`'s region of `arena`. */
  constructor(readonly arena: CounterArena, readonly worker: number = 0) {}

  /** This thread's region view of the chunk holding `slot` (one view per chunk). */
  region(slot: number): Uint32Array {
    const c = Math.floor(slot / CHUNK_SLOTS);
    return this.#regions[c] ??= this.arena.region(this.worker, slot);
  }

  /** The sum over every worker since start. */
  sum(slot: number): number {
    return this.arena.sumFrom(this.worker, slot);
  }

  /** The sum since the last reset. */
  value(slot: number): number {
    const bases = this.#bases;
    const base = bases === null || slot >= bases.length ? 0 : bases[slot];
    return this.sum(slot) - base;
  }

  /** Marks `slot` used without adding to it. */
  mark(slot: number): void {
    (this.#marked ??= new Set()).add(slot);
  }

  /** Incremented (or marked) at least once since start. */
  used(slot: number): boolean {
    return this.sum(slot) > 0 || (this.#marked !== null && this.#marked.has(slot));
  }

  /** Makes `slot` read 0 from now on. */
  reset(slot: number): void {
    const sum = this.sum(slot);
    if (sum === 0 && this.#bases === null) return;
    const bases = this.#bases ??= [];
    // Filled in order, so the array stays a packed array of doubles.
    while (bases.length <= slot) bases.push(0);
    bases[slot] = sum;
  }
}
