import assert from "node:assert/strict";
import { COMPACT_BELOW_BYTES, compactAfterStartup } from "./startup_compaction.ts";

Deno.test("startup compaction: one full collection when the heap is small", () => {
  let runs = 0;
  const gc = () => () => runs++;
  assert.equal(compactAfterStartup({ heapUsed: () => COMPACT_BELOW_BYTES - 1, gc }), true);
  assert.equal(runs, 1);
});

Deno.test("startup compaction: a large heap is not paused for it", () => {
  let runs = 0;
  const gc = () => () => runs++;
  assert.equal(compactAfterStartup({ heapUsed: () => COMPACT_BELOW_BYTES, gc }), false);
  assert.equal(runs, 0);
});

Deno.test("startup compaction: a collector that cannot load is not an error", () => {
  const gc = () => {
    throw new Error("no --expose-gc");
  };
  assert.equal(compactAfterStartup({ heapUsed: () => 0, gc }), false);
});

Deno.test("startup compaction: runs V8's full collection by default", () => {
  assert.equal(compactAfterStartup({ heapUsed: () => 0 }), true);
});
