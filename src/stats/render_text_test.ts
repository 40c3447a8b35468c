import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { renderText } from "./render_text.ts";
import type { RenderOptions } from "./render_options.ts";

function sample(): Store {
  const s = new Store();
  s.counter("z").inc(1);
  s.scope("scope").gauge("s").set(3);
  s.scope("scope").counter("r").inc(2);
  s.counter("a");
  s.textReadout("t").set("hello world");
  const h1 = s.histogram("h1");
  h1.record(200);
  s.flush();
  s.histogram("h0");
  return s;
}

const text = (s: Store, o: RenderOptions = {}) => [...renderText(s, o)].join("");

Deno.test("admin.endpoints.stats: readouts first, counters and gauges sorted, then histograms", () => {
  assert.equal(
    text(sample()),
    't: "hello world"\n' +
      "a: 0\n" +
      "scope.r: 2\n" +
      "scope.s: 3\n" +
      "z: 1\n" +
      "h0: No recorded values\n" +
      "h1: P0(200,200) P25(200,200) P50(200,200) P75(200,200) P90(200,200) P99(200,200) P99.9(200,200) P100(200,200)\n",
  );
});

Deno.test("admin.stats_shapes.text-quantiles: interpolated quantiles and nan intervals", () => {
  const s = new Store();
  const h = s.histogram("h");
  for (let v = 1; v <= 100; v++) h.record(v);
  s.flush();
  s.flush();
  assert.equal(
    text(s),
    "h: P0(nan,1) P25(nan,26) P50(nan,51) P75(nan,76) P90(nan,91) P99(nan,100) P99.9(nan,100) P100(nan,100)\n",
  );
});

Deno.test("admin.endpoints.stats-usedonly: only used stats", () => {
  assert.equal(
    text(sample(), { usedOnly: true }),
    't: "hello world"\nscope.r: 2\nscope.s: 3\nz: 1\nh1: P0(200,200) P25(200,200) P50(200,200) P75(200,200) P90(200,200) P99(200,200) P99.9(200,200) P100(200,200)\n',
  );
});

Deno.test("admin.endpoints.stats-histogram_buckets-cumulative: B<bound>(interval,cumulative)", () => {
  const s = new Store();
  s.histogram("h1").record(300);
  s.flush();
  assert.equal(
    text(s, { histogramBuckets: "cumulative" }),
    "h1: B0.5(0,0) B1(0,0) B5(0,0) B10(0,0) B25(0,0) B50(0,0) B100(0,0) B250(0,0) B500(1,1) B1000(1,1) B2500(1,1) B5000(1,1) B10000(1,1) B30000(1,1) B60000(1,1) B300000(1,1) B600000(1,1) B1.8e+06(1,1) B3.6e+06(1,1)\n",
  );
});

Deno.test("admin.endpoints.stats-histogram_buckets-disjoint: buckets exclude smaller ones", () => {
  const s = new Store();
  const h = s.histogram("h1");
  h.record(200);
  h.record(300);
  s.flush();
  h.record(300);
  s.flush();
  s.histogram("h2");
  assert.equal(
    text(s, { histogramBuckets: "disjoint" }),
    "h1: B0.5(0,0) B1(0,0) B5(0,0) B10(0,0) B25(0,0) B50(0,0) B100(0,0) B250(0,1) B500(1,2) B1000(0,0) B2500(0,0) B5000(0,0) B10000(0,0) B30000(0,0) B60000(0,0) B300000(0,0) B600000(0,0) B1.8e+06(0,0) B3.6e+06(0,0)\n" +
      "h2: No recorded values\n",
  );
});

Deno.test("admin.endpoints.stats-filter: only names the filter accepts", () => {
  assert.equal(
    text(sample(), { filter: (n) => n.startsWith("scope.") }),
    "scope.r: 2\nscope.s: 3\n",
  );
});

Deno.test("admin.endpoints.stats: text readout values are quoted and escaped", () => {
  const s = new Store();
  s.textReadout("t").set('a "b"\nc');
  assert.equal(text(s), 't: "a \\"b\\"\\nc"\n');
});

Deno.test("admin.endpoints.stats: large renders come in bounded chunks", () => {
  const s = new Store();
  for (let i = 0; i < 20_000; i++) s.counter(`cluster.c${i}.upstream_rq_total`).inc(i);
  const chunks = [...renderText(s, {})];
  assert.ok(chunks.length > 10);
  assert.ok(chunks.every((c) => c.length < 70 * 1024));
  assert.equal(chunks.join("").split("\n").length, 20_001);
});
