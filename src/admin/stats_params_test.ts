import assert from "node:assert/strict";
import { BUCKET_MODES, parseStatsQuery, STATS_FORMATS } from "./stats_params.ts";

const none = () => undefined;
const q = (pairs: Record<string, string>, forced?: "prometheus") =>
  parseStatsQuery(new Map(Object.entries(pairs)), none, forced);

Deno.test("admin.endpoints.stats: the accepted values come from the endpoint table", () => {
  assert.deepEqual(STATS_FORMATS, ["json", "prometheus", "text"]);
  assert.deepEqual(BUCKET_MODES, ["cumulative", "disjoint"]);
});

Deno.test("admin.endpoints.stats: unknown format or histogram_buckets is a usage error", () => {
  assert.deepEqual(q({ format: "xml" }), {
    ok: false,
    status: 400,
    body: "usage: /stats?format=(json|prometheus|text)\n\n",
  });
  assert.deepEqual(q({ histogram_buckets: "detailed" }), {
    ok: false,
    status: 400,
    body: "usage: /stats?histogram_buckets=(cumulative|disjoint)\n\n",
  });
});

Deno.test("admin.endpoints.stats-usedonly: flags count by presence; empty values are absent", () => {
  const r = q({ usedonly: "false", format: "", filter: "", text_readouts: "" });
  assert.ok(r.ok);
  assert.equal(r.format, "text");
  assert.equal(r.opts.usedOnly, true);
  assert.equal(r.opts.filter, undefined);
  assert.equal(r.opts.textReadouts, true);
});

Deno.test("admin.endpoints.stats-prometheus: the path forces prometheus; buckets are ignored", () => {
  const r = q({ format: "json", histogram_buckets: "cumulative" }, "prometheus");
  assert.ok(r.ok);
  assert.equal(r.format, "prometheus");
  assert.equal(r.opts.histogramBuckets, undefined);
});

Deno.test("admin.stats_shapes.filter-runtime-switch: the runtime picks the filter engine", async () => {
  const look = new Map([["filter", "(?<=a)b"]]);
  const re2 = parseStatsQuery(look, none);
  assert.ok(!re2.ok && re2.status === 400 && re2.body.startsWith("Invalid re2 regex: "));
  const ecma = parseStatsQuery(
    look,
    (k) => k === "proxy.reloadable_features.admin_stats_filter_use_re2" ? "false" : undefined,
  );
  assert.ok(ecma.ok && ecma.select);
  const picked = await ecma.select(["ab", "cb"]);
  assert.ok(picked.ok && picked.test("ab") && !picked.test("cb"));
});
