import assert from "node:assert/strict";
import fc from "fast-check";
import { formatG, formatPrometheus, formatShortest } from "./format_number.ts";

Deno.test("admin.stats_shapes.text-buckets-cumulative: bucket bounds print like {:g}", () => {
  const bounds = [0.5, 1, 25, 600000, 1800000, 3600000, 0.0001, 0.00001, 123456.7];
  assert.deepEqual(bounds.map(formatG), [
    "0.5",
    "1",
    "25",
    "600000",
    "1.8e+06",
    "3.6e+06",
    "0.0001",
    "1e-05",
    "123457",
  ]);
  assert.equal(formatG(99.9), "99.9");
  assert.equal(formatG(0), "0");
});

Deno.test("admin.stats_shapes.text-interval-cumulative: values print like {} with nan", () => {
  assert.equal(formatShortest(202.5), "202.5");
  assert.equal(formatShortest(200), "200");
  assert.equal(formatShortest(Number.NaN), "nan");
  assert.equal(formatShortest(1e16), "1e+16");
  assert.equal(formatShortest(0.00001), "1e-05");
});

Deno.test("admin.stats_shapes.prometheus-format: sample values and bounds", () => {
  assert.equal(formatPrometheus(1800000), "1800000");
  assert.equal(formatPrometheus(0.5), "0.5");
  assert.equal(formatPrometheus(Number.POSITIVE_INFINITY), "+Inf");
  assert.equal(formatPrometheus(Number.NaN), "NaN");
});

Deno.test("formatShortest reads back as the same number", () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
      assert.equal(Number(formatShortest(v)), v);
    }),
  );
});
