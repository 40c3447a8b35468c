import assert from "node:assert/strict";
import fc from "fast-check";
import { LogLinearCounts } from "./log_linear.ts";
import { DEFAULT_BUCKETS } from "./histogram_settings.ts";

const QS = [0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1];
const values = fc.array(fc.double({ min: 0, max: 1e7, noNaN: true }), {
  minLength: 1,
  maxLength: 200,
});

function fill(vs: readonly number[]): LogLinearCounts {
  const h = new LogLinearCounts();
  for (const v of vs) h.record(v);
  return h;
}

Deno.test("admin.stats_shapes.text-quantiles: quantiles are monotone and inside [min, max]", () => {
  fc.assert(
    fc.property(values, (vs) => {
      const h = fill(vs);
      const q = h.quantiles(QS);
      const min = Math.min(...vs), max = Math.max(...vs);
      assert.equal(q[0], min);
      assert.equal(q[q.length - 1], max);
      for (let i = 0; i < q.length; i++) {
        assert.ok(q[i] >= min && q[i] <= max, `${q[i]} outside [${min}, ${max}]`);
        if (i > 0) assert.ok(q[i] >= q[i - 1], `not monotone: ${q}`);
      }
    }),
  );
});

Deno.test("admin.stats_shapes.text-buckets-cumulative: cumulative buckets never decrease", () => {
  fc.assert(
    fc.property(values, (vs) => {
      const c = fill(vs).cumulativeCounts(DEFAULT_BUCKETS);
      for (let i = 1; i < c.length; i++) assert.ok(c[i] >= c[i - 1]);
      assert.ok(c[c.length - 1] <= vs.length);
    }),
  );
});

Deno.test("admin.stats_shapes.text-buckets-disjoint: disjoint buckets sum to the count", () => {
  const inRange = fc.array(fc.double({ min: 0, max: 3_500_000, noNaN: true }), { maxLength: 200 });
  fc.assert(
    fc.property(inRange, (vs) => {
      const c = fill(vs).cumulativeCounts(DEFAULT_BUCKETS);
      const disjoint = c.map((v, i) => (i === 0 ? v : v - c[i - 1]));
      assert.ok(disjoint.every((d) => d >= 0));
      assert.equal(disjoint.reduce((a, b) => a + b, 0), vs.length);
    }),
  );
});

Deno.test("admin.stats_shapes.text-buckets-cumulative: a bucket holds the values below its bound", () => {
  const h = fill([0.49, 0.5, 499, 500, 1799999, 1800000]);
  const c = h.cumulativeCounts([0.5, 500, 1800000]);
  assert.deepEqual(c, [1, 3, 5]);
});

Deno.test("admin.stats_shapes.text-quantiles: log-linear bins keep two significant digits", () => {
  const bins: Array<[number, number, number]> = [];
  fill([0, 0.5, 123, 129.9, 130, 7e9]).forEachBin((lo, hi, n) => bins.push([lo, hi, n]));
  assert.deepEqual(bins, [[0, 0, 1], [0.5, 0.51, 1], [120, 130, 2], [130, 140, 1], [
    7e9,
    7.1e9,
    1,
  ]]);
});

Deno.test("odd values are recorded without loss or crash", () => {
  const h = fill([-5, Number.NaN, Number.POSITIVE_INFINITY]);
  assert.equal(h.count, 3);
  assert.equal(h.min, 0);
  assert.equal(h.max, Number.MAX_VALUE);
});

Deno.test("addFrom and clear", () => {
  const a = fill([1, 2, 3]);
  const b = fill([100]);
  a.addFrom(b);
  assert.equal(a.count, 4);
  assert.equal(a.sum, 106);
  assert.equal(a.max, 100);
  a.clear();
  assert.equal(a.count, 0);
  assert.ok(Number.isNaN(a.quantiles([0.5])[0]));
  assert.deepEqual(a.cumulativeCounts([10]), [0]);
});

Deno.test("admin.stats_shapes.text-buckets-cumulative: merged, snapshotted and directly recorded counts agree", () => {
  fc.assert(
    fc.property(values, values, (xs, ys) => {
      const merged = fill(xs);
      merged.addFrom(fill(ys));
      const direct = fill([...xs, ...ys]);
      const copy = LogLinearCounts.fromSnapshot(merged.snapshot());
      const bins = (c: LogLinearCounts) => {
        const out: number[][] = [];
        c.forEachBin((lo, hi, n) => out.push([lo, hi, n]));
        return out;
      };
      assert.deepEqual(bins(merged), bins(direct));
      assert.deepEqual(bins(copy), bins(direct));
      assert.deepEqual(copy.quantiles(QS), direct.quantiles(QS));
    }),
  );
});
