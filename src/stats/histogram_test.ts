import assert from "node:assert/strict";
import { HistogramImpl } from "./histogram.ts";

Deno.test("admin.stats_shapes.interval-since-flush: flush closes the interval", () => {
  const h = new HistogramImpl("h", "milliseconds");
  assert.equal(h.used, false);
  assert.equal(h.empty, true);
  h.record(10);
  assert.equal(h.used, true);
  assert.equal(h.interval.count, 0, "values show only after a flush");
  h.flush();
  assert.equal(h.interval.count, 1);
  h.record(20);
  h.record(30);
  h.flush();
  assert.equal(h.interval.count, 2);
  assert.equal(h.interval.min, 20);
  h.flush();
  assert.equal(h.interval.count, 0, "an interval without values is empty");
});

Deno.test("admin.stats_shapes.cumulative-since-start: cumulative keeps every flushed value", () => {
  const h = new HistogramImpl("h");
  for (let i = 1; i <= 3; i++) {
    h.record(i);
    h.flush();
  }
  assert.equal(h.cumulative.count, 3);
  assert.equal(h.cumulative.sum, 6);
  assert.equal(h.empty, false);
});
