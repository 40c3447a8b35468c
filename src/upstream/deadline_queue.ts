/**
 * Request deadlines without a timer per request: entries with the same timeout expire in the
 * order they were added, so each timeout value keeps a FIFO list, and one shared timer (running
 * only while entries exist) fires whatever is due. Cancelling only marks the entry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DeadlineQueue } from "./deadline_queue.ts";
 * const q = new DeadlineQueue();
 * const expired = Promise.withResolvers<string>();
 * const d = q.add(1, () => expired.resolve("first"));
 * q.add(1, () => expired.resolve("second"));
 * d.cancelled = true; // the first response came in time
 * assert.equal(await expired.promise, "second");
 * q.close();
 * ```
 * @module
 */

/** One pending deadline. */
export interface Deadline {
  at: number;
  fire: () => void;
  cancelled: boolean;
}

/** The longest delay `setTimeout` keeps (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** Deadlines grouped by timeout value. */
export class DeadlineQueue {
  #lists = new Map<number, Deadline[]>();
  #heads = new Map<number, number>();
  #count = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  /**
   * Calls `fire` after `ms` from `now` (performance clock; default: the clock now) unless the
   * returned deadline is cancelled first.
   */
  add(ms: number, fire: () => void, now: number = performance.now()): Deadline {
    const d: Deadline = { at: now + ms, fire, cancelled: false };
    let list = this.#lists.get(ms);
    if (!list) {
      this.#lists.set(ms, list = []);
      this.#heads.set(ms, 0);
    }
    // Requests mostly finish in order: drop finished ones from the head as we go.
    let h = this.#heads.get(ms)!;
    while (h < list.length && list[h].cancelled) {
      h++;
      this.#count--;
    }
    if (h > 64 && h * 2 > list.length) {
      list.splice(0, h);
      h = 0;
    }
    this.#heads.set(ms, h);
    list.push(d);
    this.#count++;
    if (d.at < this.#timerAt) this.#arm(d.at);
    return d;
  }

  #arm(at: number) {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    // A timer's delay is a 32-bit count of ms: a longer one would fire at once, so it wakes
    // early and re-arms.
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, at - performance.now()) + 1);
    this.#timer = setTimeout(() => this.#tick(), delay);
  }

  #tick() {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [ms, list] of this.#lists) {
      let h = this.#heads.get(ms)!;
      while (h < list.length && (list[h].cancelled || list[h].at <= now)) {
        const d = list[h++];
        this.#count--;
        if (!d.cancelled) {
          d.cancelled = true;
          d.fire();
        }
      }
      if (h === list.length) {
        this.#lists.delete(ms);
        this.#heads.delete(ms);
        continue;
      }
      if (h > 1024 && h * 2 > list.length) {
        list.splice(0, h);
        h = 0;
      }
      this.#heads.set(ms, h);
      if (list[h].at < next) next = list[h].at;
    }
    if (next !== Infinity) this.#arm(next);
  }

  /** Entries not yet expired or swept (cancelled ones count until the timer passes them). */
  size(): number {
    return this.#count;
  }

  /** Stops the timer and forgets every entry. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    this.#lists.clear();
    this.#heads.clear();
    this.#count = 0;
  }
}
