import assert from "node:assert/strict";
import { OpenConnections } from "../listener/overload_state.ts";
import { OverloadShare, WorkerOverload } from "./overload_share.ts";
import type { OverloadConfig } from "./overload_manager.ts";

const CONFIG: OverloadConfig = { refreshMs: 10, monitors: [], actions: [] };

Deno.test("cli.options.concurrency: a worker's overload view reads the main thread's action values and writes its own memory", async () => {
  const share = OverloadShare.create(2);
  const w = new WorkerOverload(share, 1, CONFIG, () => undefined, new OpenConnections());
  try {
    w.start();
    assert.ok(share.workersMemory() > 0, "the worker's memory is in the share");
    assert.equal(w.value("stop_accepting_requests"), 0);
    assert.equal(w.acceptResumed(), null);
    share.publish({ stop_accepting_requests: 1, stop_accepting_connections: 1 });
    assert.equal(w.value("stop_accepting_requests"), 1);
    const paused = w.acceptResumed();
    assert.ok(paused !== null, "accepting waits while stop_accepting_connections is saturated");
    await paused;
    share.publish({});
    assert.equal(w.acceptResumed(), null);
  } finally {
    w.stop();
  }
});
