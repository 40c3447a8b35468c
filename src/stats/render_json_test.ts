import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { renderJson } from "./render_json.ts";
import type { RenderOptions } from "./render_options.ts";

const json = (s: Store, o: RenderOptions = {}) => [...renderJson(s, o)].join("");

Deno.test("admin.stats_shapes.json-name-value: readouts, counters and gauges as name/value", () => {
  const s = new Store();
  s.counter("c2").inc(20);
  s.counter("c1").inc(10);
  s.textReadout("t").set("hello world");
  assert.equal(
    json(s),
    '{"stats":[{"name":"t","value":"hello world"},{"name":"c1","value":10},{"name":"c2","value":20}]}',
  );
  assert.equal(json(new Store()), '{"stats":[]}');
});

Deno.test("admin.stats_shapes.json-supported-quantiles: histograms element comes last", () => {
  const s = new Store();
  s.counter("c").inc();
  s.histogram("h").record(100);
  s.flush();
  const body = JSON.parse(json(s));
  assert.deepEqual(body.stats[0], { name: "c", value: 1 });
  const hs = body.stats[1].histograms;
  assert.deepEqual(hs.supported_quantiles, [0, 25, 50, 75, 90, 95, 99, 99.9, 100]);
  assert.equal(hs.computed_quantiles.length, 1);
  assert.equal(hs.computed_quantiles[0].name, "h");
  assert.equal(hs.computed_quantiles[0].values.length, 9);
  assert.deepEqual(hs.computed_quantiles[0].values[0], { interval: 100, cumulative: 100 });
  assert.equal(json(s, { filter: (n) => n === "c" }), '{"stats":[{"name":"c","value":1}]}');
});

Deno.test("admin.stats_shapes.json-interval-null: interval is null when nothing was recorded", () => {
  const s = new Store();
  s.histogram("h").record(7);
  s.flush();
  s.flush();
  const q = JSON.parse(json(s)).stats[0].histograms.computed_quantiles[0].values;
  assert.ok(q.every((v: { interval: unknown; cumulative: unknown }) => v.interval === null));
  assert.ok(q.every((v: { cumulative: unknown }) => v.cumulative === 7));
  assert.ok(json(s).includes('{"interval":null,"cumulative":7}'), "interval comes first");
});

Deno.test("admin.stats_shapes.json-buckets: histogram_buckets gives an array of {name, buckets}", () => {
  const s = new Store({ histogramBuckets: [1, 10] });
  s.histogram("h").record(5);
  s.flush();
  s.histogram("h").record(0.5);
  s.flush();
  assert.equal(
    json(s, { histogramBuckets: "cumulative" }),
    '{"stats":[{"histograms":[{"name":"h","buckets":[{"upper_bound":1,"interval":1,"cumulative":1},{"upper_bound":10,"interval":1,"cumulative":2}]}]}]}',
  );
  assert.equal(
    json(s, { histogramBuckets: "disjoint" }),
    '{"stats":[{"histograms":[{"name":"h","buckets":[{"upper_bound":1,"interval":1,"cumulative":1},{"upper_bound":10,"interval":0,"cumulative":1}]}]}]}',
  );
});

Deno.test("admin.endpoints.stats-format-json-usedonly: JSON stays valid with many stats", () => {
  const s = new Store();
  for (let i = 0; i < 5000; i++) s.counter(`c.${i}"x`).inc(i % 2);
  s.histogram("h");
  const body = JSON.parse(json(s, { usedOnly: true }));
  assert.equal(body.stats.length, 2500);
});
