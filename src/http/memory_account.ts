/**
 * Per-stream buffer accounting for the `reset_high_memory_stream` overload action, as Envoy's
 * buffer memory accounts: every downstream stream has an account that the buffers holding its
 * bytes charge (request bodies kept for retries, shadows and internal redirects, the buffer
 * filter). Accounts holding at least 2^`minimum_account_to_track_power_of_two` bytes are
 * tracked in eight size classes: class i holds balances in [2^(min+i), 2^(min+i+1)), the last
 * class everything larger. Under pressure p (0 to 1) the streams of the
 * `min(floor(8p) + 1, 8)` largest classes are reset, largest class first, at most 50 per call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryAccounts } from "./memory_account.ts";
 * const accounts = new MemoryAccounts(10);
 * const resets: string[] = [];
 * const big = accounts.open(() => resets.push("big"));
 * const small = accounts.open(() => resets.push("small"));
 * big.charge(1 << 20); // class 7 (2^17 and more)
 * small.charge(2048); // class 1
 * assert.equal(accounts.resetGivenPressure(0.1), 1); // clears class 7 only
 * assert.deepEqual(resets, ["big"]);
 * assert.equal(accounts.resetGivenPressure(1), 1); // clears every class
 * assert.deepEqual(resets, ["big", "small"]);
 * ```
 * @module
 */

/** The size classes tracked (Envoy's `NUM_MEMORY_CLASSES_`). */
export const MEMORY_CLASSES = 8;

/** Streams reset at most per call (Envoy's `kMaxNumberOfStreamsToResetPerInvocation`). */
export const MAX_RESETS_PER_CALL = 50;

/** The accounts of one process (worker), grouped by size class. */
export class MemoryAccounts {
  readonly #classes: Set<MemoryAccount>[] = [];

  /** Accounts below 2^`minPower` bytes are not tracked. */
  constructor(readonly minPower: number) {
    for (let i = 0; i < MEMORY_CLASSES; i++) this.#classes.push(new Set());
  }

  /** A new account; `reset` resets its stream (called at most once). */
  open(reset: () => void): MemoryAccount {
    return new MemoryAccount(this, reset);
  }

  /** The size class of a balance, -1 when too small to track. */
  classOf(balance: number): number {
    const shifted = Math.floor(balance / 2 ** this.minPower);
    if (shifted < 1) return -1;
    return Math.min(Math.floor(Math.log2(shifted)), MEMORY_CLASSES - 1);
  }

  /** Tracked accounts in class `i` (for tests and stats). */
  count(i: number): number {
    return this.#classes[i].size;
  }

  /** @internal Moves `a` from class `from` to class `to`. */
  move(a: MemoryAccount, from: number, to: number): void {
    if (from >= 0) this.#classes[from].delete(a);
    if (to >= 0) this.#classes[to].add(a);
  }

  /** Resets the streams of the largest classes for pressure `p` (0 to 1); how many. */
  resetGivenPressure(p: number): number {
    const pressure = Math.min(1, Math.max(0, p));
    const toClear = Math.min(Math.floor(pressure * MEMORY_CLASSES) + 1, MEMORY_CLASSES);
    let n = 0;
    for (let k = 0; k < toClear; k++) {
      const set = this.#classes[MEMORY_CLASSES - 1 - k];
      for (const a of [...set]) {
        if (n >= MAX_RESETS_PER_CALL) return n;
        a.reset();
        n++;
      }
    }
    return n;
  }
}

/** The bytes one stream's buffers hold. */
export class MemoryAccount {
  /** Bytes charged and not yet credited. */
  balance = 0;
  #class = -1;
  #closed = false;

  /** An account of `accounts`; see {@linkcode MemoryAccounts.open}. */
  constructor(readonly accounts: MemoryAccounts, readonly onReset: () => void) {}

  /** `n` more bytes are held for this stream. */
  charge(n: number): void {
    if (this.#closed) return;
    this.balance += n;
    this.#update();
  }

  /** `n` bytes held for this stream were released. */
  credit(n: number): void {
    if (this.#closed) return;
    this.balance = Math.max(0, this.balance - n);
    this.#update();
  }

  /** The stream ended: the account is no longer tracked. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.accounts.move(this, this.#class, -1);
    this.#class = -1;
  }

  /** Resets the stream (once) and stops tracking it. */
  reset(): void {
    if (this.#closed) return;
    this.close();
    this.onReset();
  }

  #update(): void {
    const c = this.accounts.classOf(this.balance);
    if (c === this.#class) return;
    this.accounts.move(this, this.#class, c);
    this.#class = c;
  }
}
