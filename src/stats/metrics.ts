/**
 * The stats engine's counters, gauges and text readouts. Counters keep their value in a
 * {@linkcode CounterArena} slot so workers can add to them without locks; `/reset_counters`
 * moves a baseline instead of writing into the workers' slots.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterArena } from "./counter_slots.ts";
 * import { CounterImpl } from "./metrics.ts";
 * const c = new CounterImpl("a.b", new CounterArena());
 * c.inc(2);
 * c.reset();
 * assert.equal(c.value(), 0);
 * ```
 * @module
 */
import type { Counter, Gauge, TextReadout } from "./types.ts";
import { addInRegion, type CounterArena, CounterWriter, pairAt } from "./counter_slots.ts";
import { NamedStat, type StatBlock } from "./stat_name.ts";

/** The block of counters: their thread's writer beside the names. */
export interface CounterBlock extends StatBlock {
  writer: CounterWriter | null;
}

/**
 * A counter stored in a shared slot. The object is a block, an index, a slot and this thread's
 * view of the slot's region (shared by the counters of its chunk); the reset baseline and the
 * used mark live in the block's {@linkcode CounterWriter}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CounterArena } from "./counter_slots.ts";
 * import { CounterImpl } from "./metrics.ts";
 * const c = new CounterImpl("c", new CounterArena());
 * c.inc(3);
 * assert.equal(c.value(), 3);
 * ```
 */
export class CounterImpl extends NamedStat implements Counter {
  #slot: number;
  /** This thread's region of the chunk holding the slot (shared by the chunk's counters). */
  #region: Uint32Array;

  /**
   * Creates a counter named `head + name` in `arena`; `worker` is the region this thread
   * writes. With `block` (whose `writer` is set), the counter at `index` of `block`.
   */
  constructor(
    name: string,
    arena: CounterArena,
    worker: number = 0,
    head = "",
    block?: CounterBlock,
    index = 0,
  ) {
    super(name, head, block ?? new SoloCounter(head, name, writerOf(arena, worker)), index);
    this.#slot = arena.allocate();
    this.#region = (this.block as CounterBlock).writer!.region(this.#slot);
  }

  /** The stat type. */
  get kind(): "counter" {
    return "counter";
  }

  /** The shared storage of the value. */
  get arena(): CounterArena {
    return (this.block as CounterBlock).writer!.arena;
  }

  /** The region of the arena this thread writes. */
  get worker(): number {
    return (this.block as CounterBlock).writer!.worker;
  }

  /** The slot index (for workers that attach to the same arena). */
  get slot(): number {
    return this.#slot;
  }

  /** Adds `n` (default 1); values that are not positive finite numbers are ignored. */
  inc(n = 1): void {
    if (!(n > 0) || n === Infinity) return;
    if (n >= 1) addInRegion(this.#region, pairAt(this.#slot), Math.floor(n));
    else (this.block as CounterBlock).writer!.mark(this.#slot);
  }

  /** The sum over all workers since start, minus the value at the last reset. */
  value(): number {
    return (this.block as CounterBlock).writer!.value(this.#slot);
  }

  /** Incremented at least once since start, by any worker. */
  get used(): boolean {
    return (this.block as CounterBlock).writer!.used(this.#slot);
  }

  /** Makes the value read 0 from now on (`/reset_counters`). */
  reset(): void {
    (this.block as CounterBlock).writer!.reset(this.#slot);
  }
}

const WRITERS = new WeakMap<CounterArena, Map<number, CounterWriter>>();

/** The one writer of `worker`'s region of `arena` in this thread. */
export function writerOf(arena: CounterArena, worker: number): CounterWriter {
  let byWorker = WRITERS.get(arena);
  if (byWorker === undefined) WRITERS.set(arena, byWorker = new Map());
  let w = byWorker.get(worker);
  if (w === undefined) byWorker.set(worker, w = new CounterWriter(arena, worker));
  return w;
}

/** The block of a counter made on its own. */
class SoloCounter implements CounterBlock {
  labels: Array<string | undefined> | null = null;
  constructor(readonly head: string, readonly leaf: string, public writer: CounterWriter) {}
  leafAt(): string {
    return this.leaf;
  }
}

/**
 * A gauge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GaugeImpl } from "./metrics.ts";
 * const g = new GaugeImpl("g");
 * g.inc(2);
 * g.dec();
 * assert.equal(g.value(), 1);
 * ```
 */
export class GaugeImpl extends NamedStat implements Gauge {
  /** The value; undefined while never set. */
  #v: number | undefined = undefined;

  /**
   * Creates a gauge named `head + name` with value 0; with `block`, the gauge at `index` of
   * `block`.
   */
  constructor(name: string, head = "", block?: StatBlock, index = 0) {
    super(name, head, block, index);
  }

  /** The stat type. */
  get kind(): "gauge" {
    return "gauge";
  }

  /** Changed at least once since start. */
  get used(): boolean {
    return this.#v !== undefined;
  }

  /** Sets the value; a non-finite value is ignored. */
  set(v: number): void {
    if (!Number.isFinite(v)) return;
    this.#v = v;
  }

  /** Adds `n` (default 1). */
  inc(n = 1): void {
    this.set((this.#v ?? 0) + n);
  }

  /** Subtracts `n` (default 1). */
  dec(n = 1): void {
    this.set((this.#v ?? 0) - n);
  }

  /** The current value. */
  value(): number {
    return this.#v ?? 0;
  }
}

/**
 * A text readout.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TextReadoutImpl } from "./metrics.ts";
 * const t = new TextReadoutImpl("t");
 * t.set("v1");
 * assert.equal(t.value(), "v1");
 * ```
 */
export class TextReadoutImpl extends NamedStat implements TextReadout {
  #v = "";
  #used = false;

  /**
   * Creates a text readout named `head + name` with value `""`; with `block`, the readout at
   * `index` of `block`.
   */
  constructor(name: string, head = "", block?: StatBlock, index = 0) {
    super(name, head, block, index);
  }

  /** The stat type. */
  get kind(): "text" {
    return "text";
  }

  /** Set at least once since start. */
  get used(): boolean {
    return this.#used;
  }

  /** Sets the value. */
  set(v: string): void {
    this.#v = String(v);
    this.#used = true;
  }

  /** The current value. */
  value(): string {
    return this.#v;
  }
}
