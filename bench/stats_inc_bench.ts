/**
 * The request path's cost of counting: `Counter.inc()` and `Gauge.inc()`/`dec()` on stats held
 * the way `ClusterStats` holds them, in a store of 100 clusters. A `deno bench` file; compare two
 * trees by running it in each.
 *
 * Run: `deno bench -A bench/stats_inc_bench.ts`.
 *
 * @module
 */
import { Store } from "../src/stats/store.ts";
import { buildClusters } from "./stats_clusters.ts";

const store = buildClusters(new Store(), 100);
const s = store.scope("cluster").scope("service_42");
const rqTotal = s.counter("upstream_rq_total");
const rq200 = s.counter("upstream_rq_200");
const rq2xx = s.counter("upstream_rq_2xx");
const completed = s.counter("upstream_rq_completed");
const rxBytes = s.counter("upstream_cx_rx_bytes_total");
const active = s.gauge("upstream_rq_active");

Deno.bench("counter.inc() ×4 and inc(n) (one proxied request's counters)", () => {
  for (let i = 0; i < 1000; i++) {
    rqTotal.inc();
    rq200.inc();
    rq2xx.inc();
    completed.inc();
    rxBytes.inc(2048);
  }
});

Deno.bench("gauge.inc() then dec()", () => {
  for (let i = 0; i < 1000; i++) {
    active.inc();
    active.dec();
  }
});

Deno.bench("counter.value()", () => {
  let n = 0;
  for (let i = 0; i < 1000; i++) n += rqTotal.value();
  if (n < 0) throw new Error("unreachable");
});
