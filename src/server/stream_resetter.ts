/**
 * The `reset_high_memory_stream` overload action on one process (worker): as Envoy's workers do
 * on every change of the action's state, when its value changes and is above 0 the streams
 * holding the most buffered bytes are reset for that pressure
 * ({@linkcode MemoryAccounts.resetGivenPressure}), counted `overload.<action>.count`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StreamResetter } from "./stream_resetter.ts";
 * import { MemoryAccounts } from "../http/memory_account.ts";
 * import { Store } from "../stats/store.ts";
 * const accounts = new MemoryAccounts(10);
 * const count = new Store().counter("overload.envoy.overload_actions.reset_high_memory_stream.count");
 * const r = new StreamResetter(accounts, count);
 * let reset = false;
 * accounts.open(() => reset = true).charge(1 << 20);
 * r.update(0);
 * assert.equal(reset, false);
 * r.update(0.5);
 * assert.equal(reset, true);
 * assert.equal(count.value(), 1);
 * ```
 * @module
 */
import type { MemoryAccounts } from "../http/memory_account.ts";
import type { Counter } from "../stats/types.ts";

/** Resets streams when the action's value changes. */
export class StreamResetter {
  #last = 0;

  /** Resets streams of `accounts`, counting them in `count`. */
  constructor(readonly accounts: MemoryAccounts, readonly count: Counter) {}

  /** The action's value now (0 to 1). */
  update(value: number): void {
    if (value === this.#last) return;
    this.#last = value;
    if (value <= 0) return;
    const n = this.accounts.resetGivenPressure(value);
    if (n > 0) this.count.inc(n);
  }
}
