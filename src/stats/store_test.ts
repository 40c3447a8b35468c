import assert from "node:assert/strict";
import fc from "fast-check";
import { Store } from "./store.ts";

Deno.test("scopes name stats <scope>.<name> and return the same stat twice", () => {
  const store = new Store();
  const web = store.scope("cluster").scope("web");
  assert.equal(web.prefix, "cluster.web");
  web.counter("upstream_rq_total").inc(2);
  assert.equal(store.counter("cluster.web.upstream_rq_total").value(), 2);
  assert.equal(web.gauge("g"), store.gauge("cluster.web.g"));
  assert.equal(web.histogram("h", "milliseconds").unit, "milliseconds");
  assert.equal(web.textReadout("t").name, "cluster.web.t");
  assert.equal(store.size, 4);
});

Deno.test("admin.stats_shapes.usedonly: used means incremented, changed or recorded", () => {
  const store = new Store();
  const c = store.counter("c"), g = store.gauge("g"), h = store.histogram("h");
  assert.deepEqual([c.used, g.used, h.used], [false, false, false]);
  c.inc(0);
  c.inc(-3);
  assert.equal(c.used, false);
  c.inc();
  g.set(0);
  h.record(1);
  assert.deepEqual([c.used, g.used, h.used], [true, true, true]);
});

Deno.test("admin.endpoints.reset_counters: reset zeroes counters only", () => {
  const store = new Store();
  store.counter("c").inc(5);
  store.gauge("g").set(7);
  store.histogram("h").record(3);
  store.flush();
  store.resetCounters();
  assert.equal(store.counter("c").value(), 0);
  assert.equal(store.counter("c").used, true);
  store.counter("c").inc(2);
  assert.equal(store.counter("c").value(), 2);
  assert.equal(store.gauge("g").value(), 7);
  assert.equal(store.histogram("h").cumulative.count, 1);
});

Deno.test("admin.states.recentlookups-enable: by-name requests count as lookups", () => {
  const store = new Store();
  store.scope("a").counter("x");
  store.gauge("y");
  assert.equal(store.recentLookups.total, 2);
  store.recentLookups.enable();
  store.counter("a.x").inc();
  assert.deepEqual(store.recentLookups.entries(), [["a.x", 1]]);
});

Deno.test("admin.stats_shapes.flush-interval: flush runs hooks then closes histogram intervals", () => {
  const store = new Store();
  const seen: number[] = [];
  const off = store.onFlush(() => seen.push(store.histogram("h").interval.count));
  store.histogram("h").record(1);
  store.flush();
  store.flush();
  off();
  store.flush();
  assert.deepEqual(seen, [0, 1]);
});

Deno.test("sorted views and settle", () => {
  const store = new Store();
  for (const n of ["z", "b", "a"]) store.counter(n);
  store.gauge("m");
  while (!store.settle(1, true));
  assert.deepEqual(store.sortedNumeric().map((s) => s.name), ["a", "b", "m", "z"]);
  assert.equal(store.prometheus.counters.families().length, 3);
});

Deno.test("admin.endpoints.stats: counters and gauges of many scopes list in code-unit order of their names, settled in slices between additions", () => {
  const seg = fc.constantFrom("a", "b", "a-b", "a_1", "c", "x.y", "a.c");
  const codeUnitOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.boolean(), fc.array(seg, { minLength: 1, maxLength: 3 }), seg), {
        maxLength: 60,
      }),
      fc.nat(5),
      (adds, slice) => {
        const store = new Store();
        const names = new Map<string, string>();
        for (const [gauge, scopes, leaf] of adds) {
          let scope = store.scope(scopes[0]);
          for (const s of scopes.slice(1)) scope = scope.scope(s);
          const stat = gauge ? scope.gauge(leaf) : scope.counter(leaf);
          names.set(`${gauge}:${stat.name}`, stat.name);
          if (slice > 0) store.settle(slice);
        }
        const want = [...names.values()].sort(codeUnitOrder);
        assert.deepEqual(store.sortedNumeric().map((s) => s.name), want);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("admin.endpoints.stats: sibling scopes built alike share their order; a scope that differs sorts its own", () => {
  const store = new Store();
  for (const c of ["b", "a", "c"]) {
    const s = store.scope("cluster").scope(c);
    for (const leaf of ["z", "m", "a"]) s.counter(leaf);
    s.gauge("n");
    s.scope("cb").gauge("o");
  }
  store.scope("cluster").scope("a").counter("b");
  assert.deepEqual(store.sortedNumeric().map((s) => s.name), [
    ..."a b cb.o m n z".split(" ").map((l) => `cluster.a.${l}`),
    ..."a cb.o m n z".split(" ").map((l) => `cluster.b.${l}`),
    ..."a cb.o m n z".split(" ").map((l) => `cluster.c.${l}`),
  ]);
});

Deno.test("bad histogram bounds are rejected with a clear error", () => {
  assert.throws(() => new Store({ histogramBuckets: [5, 1] }), /ascending/);
  assert.deepEqual(new Store({ histogramBuckets: [1, 2] }).bucketBounds, [1, 2]);
});

Deno.test("settleInBackground finishes the sorting and tag extraction", async () => {
  const store = new Store();
  for (let i = 0; i < 50; i++) store.counter(`cluster.c${49 - i}.upstream_rq_total`);
  await store.settleInBackground(true, 7);
  // Everything is sorted; only the listing in name order a render makes is left.
  assert.equal(store.settle(1, true, false), true);
  const [fam] = store.prometheus.counters.families();
  assert.equal(fam.members.size, 50);
  assert.equal(fam.members.sorted()[0].promLabels, 'proxy_cluster_name="c0"');
});

Deno.test("a failing flush hook does not stop the flush", () => {
  const store = new Store();
  const seen: string[] = [];
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    store.onFlush(() => {
      throw new Error("boom");
    });
    store.onFlush(() => seen.push("second"));
    store.histogram("h").record(1);
    store.flush();
  } finally {
    console.error = original;
  }
  assert.deepEqual(seen, ["second"]);
  assert.equal(errors.length, 1);
  assert.equal(store.histogram("h").cumulative.count, 1);
});

Deno.test("settleFor does the pending work in steps until it is all done", () => {
  const store = new Store();
  for (let i = 0; i < 50; i++) store.gauge(`cluster.c${49 - i}.upstream_rq_active`);
  let calls = 1;
  // With no time allowed, each call does one step of 7 items.
  while (!store.settleFor(0, true, 7)) calls++;
  assert.ok(calls > 1);
  assert.equal(store.sortedNumeric()[0].name, "cluster.c0.upstream_rq_active");
  assert.equal(store.settleFor(0, true, 7), true);
});

Deno.test("admin.endpoints.reset_counters: a counter is its block, index and slot; a reset or a fractional increment keeps it apart", () => {
  const store = new Store();
  const web = store.scope("cluster").scope("web");
  const a = store.counter("cluster.web.a"), b = store.counter("cluster.web.b");
  const half = web.counter("half");
  assert.equal(a.block, b.block);
  assert.deepEqual([a.index, b.index, a.nameLeaf, b.name], [0, 1, "a", "cluster.web.b"]);
  a.inc(3);
  b.inc(2.9);
  half.inc(0.5);
  assert.deepEqual([a.value(), b.value(), half.value(), half.used], [3, 2, 0, true]);
  store.resetCounters();
  a.inc();
  assert.deepEqual([a.value(), b.value(), a.used, b.used], [1, 0, true, true]);
  const g = web.gauge("g");
  g.inc(1.5);
  g.dec(0.25);
  assert.deepEqual([g.value(), g.used, web.gauge("h").used], [1.25, true, false]);
});
