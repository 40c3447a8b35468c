import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { DEFAULT_FLUSH_INTERVAL_MS, flushIntervalMs, startFlushTimer } from "./flush_timer.ts";
import { ConfigLoadError } from "../config/errors.ts";

Deno.test("limits.stats-flush-interval: the flush interval defaults to 5 seconds", () => {
  assert.equal(DEFAULT_FLUSH_INTERVAL_MS, 5000);
  assert.equal(flushIntervalMs({}), 5000);
  assert.equal(flushIntervalMs({ stats_flush_interval: "0.250s" }), 250);
});

Deno.test("admin.stats_shapes.flush-interval: a bad interval names stats_flush_interval", () => {
  for (const bad of ["5", "0s", "-1s", 7 as unknown as string]) {
    assert.throws(
      () => flushIntervalMs({ stats_flush_interval: bad }),
      (e) => e instanceof ConfigLoadError && e.message.startsWith("stats_flush_interval: "),
    );
  }
});

Deno.test("admin.stats_shapes.flush-interval: the timer flushes the store until stopped", async () => {
  const store = new Store();
  store.histogram("h").record(1);
  const timer = startFlushTimer(store, { stats_flush_interval: "0.001s" });
  try {
    while (store.histogram("h").cumulative.count === 0) {
      await new Promise((r) => setTimeout(r, 1));
    }
  } finally {
    timer.stop();
  }
  assert.equal(timer.intervalMs, 1);
});
