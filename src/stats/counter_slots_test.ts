import assert from "node:assert/strict";
import fc from "fast-check";
import { CHUNK_SLOTS, CounterArena } from "./counter_slots.ts";

Deno.test("two workers' slot arrays sum correctly", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.nat({ max: 2 ** 40 })), {
        maxLength: 50,
      }),
      (adds) => {
        const arena = new CounterArena(2);
        const slot = arena.allocate();
        const other = arena.allocate();
        let total = 0;
        for (const [w, n] of adds) {
          arena.add(w, slot, n);
          total += n;
        }
        assert.equal(arena.sum(slot), total);
        assert.equal(arena.sum(other), 0);
      },
    ),
  );
});

Deno.test("counter slots carry past 2^32 and span chunks", () => {
  const arena = new CounterArena(1);
  let slot = 0;
  for (let i = 0; i <= CHUNK_SLOTS; i++) slot = arena.allocate();
  assert.equal(arena.chunks.length, 2);
  arena.add(0, slot, 2 ** 32 - 1);
  arena.add(0, slot, 2);
  assert.equal(arena.read(0, slot), 2 ** 32 + 1);
  arena.add(0, slot, 2 ** 50);
  assert.equal(arena.sum(slot), 2 ** 50 + 2 ** 32 + 1);
});

Deno.test("a worker's region is shared through the SharedArrayBuffer", () => {
  const arena = new CounterArena(2);
  const slot = arena.allocate();
  const seenByWorker = new Uint32Array(arena.chunks[0].buffer as SharedArrayBuffer);
  arena.add(1, slot, 5);
  assert.ok(seenByWorker.some((w) => w === 5));
  assert.throws(() => new CounterArena(0), RangeError);
});

Deno.test("workers add to their own regions without locks and the main thread sums them", async () => {
  const arena = new CounterArena(3);
  const slot = arena.allocate();
  const url = new URL("./counter_slots_worker_fixture.ts", import.meta.url);
  const workers = [1, 2].map(() => new Worker(url, { type: "module" }));
  try {
    const done = workers.map((w, i) =>
      new Promise<void>((resolve, reject) => {
        w.onmessage = () => resolve();
        w.onerror = (e) => reject(e);
        w.postMessage({
          chunks: arena.chunks,
          workers: 3,
          worker: i + 1,
          slot,
          times: 100_000,
          n: 50_000,
        });
      })
    );
    for (let i = 0; i < 100_000; i++) arena.add(0, slot, 1);
    await Promise.all(done);
    assert.equal(arena.sum(slot), 100_000 + 2 * 100_000 * 50_000);
    assert.throws(() => CounterArena.attach(arena.chunks, 3).allocate(), /cannot allocate/);
  } finally {
    for (const w of workers) w.terminate();
  }
});

Deno.test("sumFrom reads the caller's own region directly and agrees with sum", () => {
  const arena = new CounterArena(3);
  const slot = arena.allocate();
  arena.add(0, slot, 2 ** 32 + 5);
  arena.add(1, slot, 7);
  arena.add(2, slot, 1);
  for (const own of [0, 1, 2]) assert.equal(arena.sumFrom(own, slot), 2 ** 32 + 13);
  assert.equal(arena.sum(slot), 2 ** 32 + 13);
});

Deno.test("a counter writes its own worker's region through its region view, carries included", async () => {
  const { CounterImpl } = await import("./metrics.ts");
  const arena = new CounterArena(3);
  for (let i = 0; i < CHUNK_SLOTS; i++) arena.allocate();
  const c = new CounterImpl("c", arena, 1);
  assert.equal(Math.floor(c.slot / CHUNK_SLOTS), 1);
  c.inc(2 ** 32 - 1);
  c.inc(3);
  arena.add(2, c.slot, 4);
  assert.deepEqual([arena.read(0, c.slot), arena.read(1, c.slot), arena.read(2, c.slot)], [
    0,
    2 ** 32 + 2,
    4,
  ]);
  assert.equal(c.value(), 2 ** 32 + 6);
});
