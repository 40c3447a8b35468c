/**
 * A worker that never says it is ready fails start-up within its bound, with a warning first
 * naming the worker, and every worker stopped (`WORKER_START_MS` in `workers.ts`).
 */
import assert from "node:assert/strict";
import { WorkerPool } from "./workers.ts";
import { parseArgs } from "../config/args.ts";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";

Deno.test("workers: a worker that never starts fails start-up after a warning, within the bound", async () => {
  const store = new Store();
  const logs: string[] = [];
  const pool = new WorkerPool(2, {
    options: parseArgs(["--concurrency", "2"]),
    bootstrap: {} as Bootstrap,
    store,
    clusters: new ClusterManager([], { stats: store }),
    log: (level, msg) => logs.push(`${level}: ${msg}`),
    state: () => ({ healthCheckFailed: false, draining: false }),
    workerModule: new URL("./testdata/silent_worker.ts", import.meta.url),
    startMs: { warn: 100, fail: 400 },
  });
  // A start that never ends fails the test here instead of hanging it.
  let guard: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    guard = setTimeout(() => reject(new Error("start-up still waiting after 10 s")), 10_000);
  });
  try {
    await assert.rejects(
      Promise.race([pool.start(), hung]),
      /^Error: worker 0 did not start within 400 ms$/,
    );
  } finally {
    clearTimeout(guard);
  }
  assert.deepEqual(logs, ["warning: worker 0 has not started after 100 ms; waiting up to 400 ms"]);
  // Every worker was stopped: closing has nothing left to wait for.
  await pool.close();
});
