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
import type { CounterArena } from "./counter_slots.ts";
import { NamedStat } from "./stat_name.ts";

/**
 * A counter stored in a shared slot.
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
  #writer: Writer;
  #slot: number;
  /** The value at the last reset; -1 (reading as 0) until this thread first increments. */
  #base = -1;

  /**
   * Creates a counter named `head + name` in `arena`; `worker` is the region this thread
   * writes.
   */
  constructor(name: string, arena: CounterArena, worker: number = 0, head = "") {
    super(name, head);
    this.#writer = writerOf(arena, worker);
    this.#slot = arena.allocate();
  }

  /** The stat type. */
  get kind(): "counter" {
    return "counter";
  }

  /** The shared storage of the value. */
  get arena(): CounterArena {
    return this.#writer.arena;
  }

  /** The region of the arena this thread writes. */
  get worker(): number {
    return this.#writer.worker;
  }

  /** The slot index (for workers that attach to the same arena). */
  get slot(): number {
    return this.#slot;
  }

  /** Adds `n` (default 1); values that are not positive finite numbers are ignored. */
  inc(n = 1): void {
    if (!(n > 0) || n === Infinity) return;
    const w = this.#writer;
    w.arena.add(w.worker, this.#slot, Math.floor(n));
    if (this.#base < 0) this.#base = 0;
  }

  /** The sum over all workers since start, minus the value at the last reset. */
  value(): number {
    return this.#sum() - Math.max(this.#base, 0);
  }

  /** The sum over all workers, this thread's region read directly. */
  #sum(): number {
    const w = this.#writer;
    return w.arena.sumFrom(w.worker, this.#slot);
  }

  /** Incremented at least once since start, by any worker. */
  get used(): boolean {
    return this.#base >= 0 || this.#sum() > 0;
  }

  /** Makes the value read 0 from now on (`/reset_counters`). */
  reset(): void {
    const sum = this.#sum();
    if (this.#base >= 0 || sum > 0) this.#base = sum;
  }
}

/** An arena and the region one thread writes, shared by all its counters. */
interface Writer {
  readonly arena: CounterArena;
  readonly worker: number;
}

const WRITERS = new WeakMap<CounterArena, Map<number, Writer>>();

function writerOf(arena: CounterArena, worker: number): Writer {
  let byWorker = WRITERS.get(arena);
  if (byWorker === undefined) WRITERS.set(arena, byWorker = new Map());
  let w = byWorker.get(worker);
  if (w === undefined) byWorker.set(worker, w = { arena, worker });
  return w;
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
  #v = 0;
  #used = false;

  /** Creates a gauge named `head + name` with value 0. */
  constructor(name: string, head = "") {
    super(name, head);
  }

  /** The stat type. */
  get kind(): "gauge" {
    return "gauge";
  }

  /** Changed at least once since start. */
  get used(): boolean {
    return this.#used;
  }

  /** Sets the value; a non-finite value is ignored. */
  set(v: number): void {
    if (!Number.isFinite(v)) return;
    this.#v = v;
    this.#used = true;
  }

  /** Adds `n` (default 1). */
  inc(n = 1): void {
    this.set(this.#v + n);
  }

  /** Subtracts `n` (default 1). */
  dec(n = 1): void {
    this.set(this.#v - n);
  }

  /** The current value. */
  value(): number {
    return this.#v;
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

  /** Creates a text readout named `head + name` with value `""`. */
  constructor(name: string, head = "") {
    super(name, head);
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
