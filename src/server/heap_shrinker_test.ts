import assert from "node:assert/strict";
import { HeapShrinker, SHRINK_INTERVAL_MS } from "./heap_shrinker.ts";
import { Store } from "../stats/store.ts";

const NAME = "overload.envoy.overload_actions.shrink_heap.shrink_count";

Deno.test("HeapShrinker (shrink_heap): collects and counts only while the action is saturated, on its timer", async () => {
  assert.equal(SHRINK_INTERVAL_MS, 10_000);
  const store = new Store();
  let engaged = 0.99;
  let runs = 0;
  const s = new HeapShrinker("envoy.overload_actions.shrink_heap", store, () => engaged, {
    intervalMs: 5,
    gc: () => runs++,
  });
  s.tick();
  assert.equal(runs, 0);
  assert.equal(store.counter(NAME).value(), 0);
  engaged = 1;
  s.start();
  s.start();
  for (let i = 0; i < 200 && runs < 3; i++) await new Promise((r) => setTimeout(r, 5));
  s.stop();
  assert.ok(runs >= 3);
  assert.equal(store.counter(NAME).value(), runs);
  const after = runs;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(runs, after, "no collection after stop");
});
