import assert from "node:assert/strict";
import { LogLinearCounts } from "./log_linear.ts";
import { snapshotDelta } from "./snapshot_delta.ts";

Deno.test("cli.options.restart-epoch: the difference of two cumulative views of a histogram holds exactly the values recorded between them, bin by bin", () => {
  const h = new LogLinearCounts();
  for (const v of [0, 1, 15, 15, 2500]) h.record(v);
  const before = h.snapshot();
  const added = [0, 15, 16, 2500, 2.5e9];
  for (const v of added) h.record(v);
  const d = LogLinearCounts.fromSnapshot(snapshotDelta(h.snapshot(), before));
  const only = new LogLinearCounts();
  for (const v of added) only.record(v);
  assert.equal(d.count, 5);
  assert.equal(d.sum, only.sum);
  const bins = (c: LogLinearCounts) => {
    const out: number[][] = [];
    c.forEachBin((lo, hi, n) => out.push([lo, hi, n]));
    return out;
  };
  assert.deepEqual(bins(d), bins(only));
  // Nothing new: an empty difference; no earlier view: all of it.
  assert.equal(snapshotDelta(h.snapshot(), h.snapshot()).count, 0);
  assert.equal(snapshotDelta(h.snapshot(), null).count, 10);
});
