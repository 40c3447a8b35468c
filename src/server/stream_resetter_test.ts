import assert from "node:assert/strict";
import { OverloadShare, WorkerOverload } from "./overload_share.ts";
import { parseOverloadManager } from "./overload_manager.ts";
import { OpenConnections } from "../listener/overload_state.ts";
import { Store } from "../stats/store.ts";

const HEAP = "envoy.resource_monitors.fixed_heap";
const ACTION = "envoy.overload_actions.reset_high_memory_stream";

Deno.test("OverloadManager.buffer_factory_config reset_high_memory_stream on a worker: the main thread's value resets the worker's largest streams, counted in the worker's stats", () => {
  const { config, errors } = parseOverloadManager({
    refresh_interval: "10s",
    buffer_factory_config: { minimum_account_to_track_power_of_two: 10 },
    resource_monitors: [{ name: HEAP, typed_config: { max_heap_size_bytes: 1000 } }],
    actions: [{ name: ACTION, triggers: [{ name: HEAP, threshold: { value: 0.9 } }] }],
  }, "overload_manager");
  assert.deepEqual(errors, []);
  const share = OverloadShare.create(2);
  const store = new Store();
  const w = new WorkerOverload(share, 1, config!, () => undefined, new OpenConnections(), store);
  const resets: string[] = [];
  w.accounts!.open(() => resets.push("big")).charge(1 << 20);
  w.accounts!.open(() => resets.push("small")).charge(100);
  share.publish({ reset_high_memory_stream: 1 });
  w.start();
  w.stop();
  // Pressure 1 clears every tracked class; 100 bytes (below 2^10) is not tracked.
  assert.deepEqual(resets, ["big"]);
  assert.equal(store.counter(`overload.${ACTION}.count`).value(), 1);
});
