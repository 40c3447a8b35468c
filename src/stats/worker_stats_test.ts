import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { gaugeImport, WorkerStatsExporter, WorkerStatsImporter } from "./worker_stats.ts";

Deno.test("cli.options.concurrency: counters of every worker add up, each increment imported once", () => {
  const main = new Store();
  const importer = new WorkerStatsImporter(main, 2);
  const w0 = new Store();
  const w1 = new Store();
  const e0 = new WorkerStatsExporter(w0);
  const e1 = new WorkerStatsExporter(w1);
  w0.counter("http.in.downstream_rq_total").inc(3);
  w1.counter("http.in.downstream_rq_total").inc(4);
  w1.counter("http.in.never_incremented");
  importer.apply(0, e0.collect());
  importer.apply(1, e1.collect());
  assert.equal(main.counter("http.in.downstream_rq_total").value(), 7);
  // A second export without changes adds nothing; a later increment adds only itself.
  importer.apply(0, e0.collect());
  w1.counter("http.in.downstream_rq_total").inc();
  importer.apply(1, e1.collect());
  assert.equal(main.counter("http.in.downstream_rq_total").value(), 8);
  // A counter a worker only created still shows (with 0).
  assert.ok(main.sortedNumeric().some((s) => s.name === "http.in.never_incremented"));
  // /reset_counters on the main thread: totals restart from 0 and keep adding.
  main.resetCounters();
  w0.counter("http.in.downstream_rq_total").inc(2);
  importer.apply(0, e0.collect());
  assert.equal(main.counter("http.in.downstream_rq_total").value(), 2);
});

Deno.test("cli.options.concurrency: worker gauges sum (or take the largest for shared flags); the main thread's own gauges and stats stay its own", () => {
  const main = new Store();
  main.gauge("cluster.web.membership_healthy").set(3);
  main.counter("runtime.load_success").inc();
  const importer = new WorkerStatsImporter(main, 2);
  const workers = [new Store(), new Store()];
  workers.forEach((w, i) => {
    w.gauge("cluster.web.upstream_cx_active").set(i + 1);
    w.gauge("cluster.web.circuit_breakers.default.rq_open").set(1);
    w.gauge("cluster.web.membership_healthy").set(3);
    w.counter("runtime.load_success").inc();
    importer.apply(i, new WorkerStatsExporter(w).collect());
  });
  assert.equal(main.gauge("cluster.web.upstream_cx_active").value(), 3);
  assert.equal(main.gauge("cluster.web.circuit_breakers.default.rq_open").value(), 1);
  assert.equal(main.gauge("cluster.web.membership_healthy").value(), 3);
  assert.equal(main.counter("runtime.load_success").value(), 1);
  assert.equal(gaugeImport("listener_manager.total_listeners_active"), "max");
  assert.equal(gaugeImport("http.in.downstream_cx_active"), "sum");
  // A stopped worker's share no longer counts.
  importer.forget(1);
  assert.equal(main.gauge("cluster.web.upstream_cx_active").value(), 1);
});

Deno.test("cli.options.concurrency: histogram values of every worker merge into the main thread's histogram", () => {
  const main = new Store();
  const importer = new WorkerStatsImporter(main, 2);
  const workers = [new Store(), new Store()];
  const exporters = workers.map((w) => new WorkerStatsExporter(w));
  workers[0].histogram("cluster.web.upstream_rq_time", "milliseconds").record(10);
  workers[1].histogram("cluster.web.upstream_rq_time", "milliseconds").record(500);
  exporters.forEach((e, i) => importer.apply(i, e.collect()));
  // Exported once: a second export carries nothing new.
  exporters.forEach((e, i) => importer.apply(i, e.collect()));
  main.flush();
  const h = main.histogram("cluster.web.upstream_rq_time");
  assert.equal(h.unit, "milliseconds");
  assert.equal(h.cumulative.count, 2);
  assert.equal(h.cumulative.min, 10);
  assert.equal(h.cumulative.max, 500);
  assert.deepEqual(h.cumulative.quantiles([0, 1]), [10, 500]);
});
