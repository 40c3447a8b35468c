import assert from "node:assert/strict";
import { StreamReset } from "./stream_reset.ts";

Deno.test("StreamReset: listeners are told once, in order; one added after the reset never is", () => {
  const s = new StreamReset();
  const seen: number[] = [];
  s.onReset(() => seen.push(1));
  s.onReset(() => seen.push(2));
  s.onReset(() => seen.push(3));
  assert.equal(s.aborted, false);
  s.reset("first");
  s.reset("second");
  s.onReset(() => seen.push(4));
  assert.deepEqual(seen, [1, 2, 3]);
  assert.equal(s.reason, "first");
});

Deno.test("StreamReset: a listener that throws does not keep the others from being told", () => {
  const s = new StreamReset();
  let told = 0;
  s.onReset(() => {
    throw new Error("listener failed");
  });
  s.onReset(() => told++);
  s.reset();
  assert.equal(told, 1);
  assert.equal(s.aborted, true);
});

Deno.test("StreamReset.any: reset by either source with its reason; already reset when one was", () => {
  const a = new StreamReset();
  const b = new StreamReset();
  const both = StreamReset.any(a, b);
  let told = 0;
  both.onReset(() => told++);
  b.reset("b");
  a.reset("a");
  assert.equal(told, 1);
  assert.equal(both.reason, "b");
  const early = StreamReset.any(a, new StreamReset());
  assert.equal(early.aborted, true);
  assert.equal(early.reason, "a");
});
