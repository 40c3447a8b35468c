/**
 * Test fixture for `counter_slots_test.ts`: a Worker that attaches to a shared counter arena and
 * adds to one slot in its own region, then reports `done`.
 *
 * @example
 * ```ts
 * const w = new Worker(new URL("./counter_slots_worker_fixture.ts", import.meta.url), { type: "module" });
 * w.terminate();
 * ```
 * @module
 */
import { CounterArena } from "./counter_slots.ts";

/** The message the fixture expects. */
export interface AddJob {
  chunks: Uint32Array[];
  workers: number;
  worker: number;
  slot: number;
  times: number;
  n: number;
}

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<AddJob>) => void) | null;
  postMessage(m: unknown): void;
};
scope.onmessage = (e) => {
  const { chunks, workers, worker, slot, times, n } = e.data;
  const arena = CounterArena.attach(chunks, workers);
  for (let i = 0; i < times; i++) arena.add(worker, slot, n);
  scope.postMessage("done");
};
