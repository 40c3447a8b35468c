import assert from "node:assert/strict";
import { DeadlineQueue } from "./deadline_queue.ts";

Deno.test("upstream deadline queue: due entries fire once, cancelled ones never, finished heads are swept", async () => {
  const q = new DeadlineQueue();
  const fired: string[] = [];
  const a = q.add(1, () => fired.push("a"));
  q.add(1, () => fired.push("b"));
  a.cancelled = true;
  const c = q.add(60_000, () => fired.push("c"));
  await new Promise<void>((r) => q.add(5, r));
  assert.deepEqual(fired, ["b"]);
  c.cancelled = true;
  for (let i = 0; i < 1000; i++) q.add(60_000, () => fired.push("x")).cancelled = true;
  assert.ok(q.size() <= 2, `size ${q.size()}`);
  q.close();
  assert.equal(q.size(), 0);
});

Deno.test("upstream deadline queue: a deadline beyond setTimeout's 31-bit range arms a timer it can keep (no timer that fires at once and spins)", () => {
  const q = new DeadlineQueue();
  const delays: number[] = [];
  const real = globalThis.setTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    delays.push(ms ?? 0);
    return real(fn, 0x7fffffff);
  }) as typeof setTimeout;
  try {
    // A route timeout from the largest grpc-timeout header: 99999999 hours.
    q.add(359_999_996_400_000, () => {});
  } finally {
    globalThis.setTimeout = real;
    q.close();
  }
  assert.deepEqual(delays, [2_147_483_647]);
});
