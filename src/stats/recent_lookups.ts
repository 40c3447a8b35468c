/**
 * Recent stat-name lookups (`/stats/recentlookups`). Collection starts disabled: only the total
 * count accumulates. Enabled, it keeps per-name counts for the most recently used names (100, as
 * real Envoy), evicting the least recently looked-up name when full.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RecentLookups } from "./recent_lookups.ts";
 * const r = new RecentLookups();
 * r.lookup("a");
 * r.enable();
 * r.lookup("b");
 * assert.equal(r.total, 2);
 * assert.deepEqual(r.entries(), [["b", 1]]);
 * ```
 * @module
 */

/** Names kept while enabled (real Envoy's capacity). */
export const RECENT_LOOKUPS_CAPACITY = 100;

/**
 * The recent-lookups tracker.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RecentLookups } from "./recent_lookups.ts";
 * const r = new RecentLookups();
 * r.enable();
 * r.lookup("a");
 * assert.deepEqual(r.entries(), [["a", 1]]);
 * ```
 */
export class RecentLookups {
  #names = new Map<string, number>();
  #enabled = false;
  #total = 0;

  /** Creates a disabled tracker that keeps at most `capacity` names once enabled. */
  constructor(readonly capacity: number = RECENT_LOOKUPS_CAPACITY) {}

  /** Whether names are collected. */
  get enabled(): boolean {
    return this.#enabled;
  }

  /** Lookups since start or the last clear (the `server.stats_recent_lookups` value). */
  get total(): number {
    return this.#total;
  }

  /** Records one lookup of `name`. */
  lookup(name: string): void {
    this.#total++;
    if (!this.#enabled) return;
    const names = this.#names;
    const n = names.get(name);
    if (n !== undefined) names.delete(name);
    names.set(name, (n ?? 0) + 1);
    if (names.size > this.capacity) names.delete(names.keys().next().value!);
  }

  /** Starts collecting names. */
  enable(): void {
    this.#enabled = true;
  }

  /** Stops collecting and forgets the names; the total is kept. */
  disable(): void {
    this.#enabled = false;
    this.#names.clear();
  }

  /** Forgets the names and zeroes the total; collection continues if enabled. */
  clear(): void {
    this.#names.clear();
    this.#total = 0;
  }

  /** `[name, count]` pairs by ascending count, then name. */
  entries(): Array<[string, number]> {
    return [...this.#names].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  }

  /**
   * The `/stats/recentlookups` body.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { RecentLookups } from "./recent_lookups.ts";
   * assert.equal(
   *   new RecentLookups().render(),
   *   "Lookup tracking is not enabled. Use /stats/recentlookups/enable to enable.\n\ntotal: 0\n",
   * );
   * ```
   */
  render(): string {
    let out = this.#enabled
      ? "   Count Lookup\n"
      : "Lookup tracking is not enabled. Use /stats/recentlookups/enable to enable.\n";
    for (const [name, n] of this.entries()) out += `${String(n).padStart(8)} ${name}\n`;
    return `${out}\ntotal: ${this.#total}\n`;
  }
}
