/**
 * The exact bytes of the Prometheus form of a store with many histograms (cluster and
 * non-cluster ones, empty, used, with zero, fractional and huge values, several flushes) and
 * counters, gauges and text readouts beside them, with and without `usedonly`: a digest of each
 * render is pinned, so a faster renderer cannot change a byte.
 */
import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { renderPrometheus } from "./render_prometheus.ts";
import type { RenderOptions } from "./render_options.ts";

function store(): Store {
  const s = new Store();
  for (let c = 0; c < 5; c++) {
    const sc = s.scope("cluster").scope(`svc_${c}`);
    sc.counter("upstream_rq_total").inc(c * 3);
    sc.counter("upstream_rq_200").inc(c);
    sc.gauge("upstream_cx_active").set(c % 2);
    sc.scope("circuit_breakers").scope("default").gauge("rq_open");
    for (const [i, n] of ["upstream_cx_connect_ms", "upstream_rq_time"].entries()) {
      const h = sc.histogram(n, "milliseconds");
      for (let k = 0; k < c * (i + 1); k++) h.record((c * 977 + k * 131) % 70_000);
    }
    if (c === 3) sc.histogram("upstream_cx_length_ms", "milliseconds").record(0);
  }
  s.flush();
  s.histogram("cluster.svc_1.upstream_rq_time").record(0.25);
  s.histogram("cluster.svc_2.upstream_rq_time").record(1e300);
  s.histogram("http.ingress.downstream_rq_time", "milliseconds").record(12.5);
  s.histogram("listener.0.0.0.0_80.downstream_cx_length_ms", "milliseconds");
  s.histogram("server.initialization_time_ms", "milliseconds").record(5);
  s.counter("http.ingress.downstream_rq_2xx").inc(4);
  s.textReadout("server.version").set('1.0\n"x"');
  s.flush();
  return s;
}

async function digest(opts: RenderOptions): Promise<string> {
  const body = new TextEncoder().encode([...renderPrometheus(store(), opts)].join(""));
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return `${body.length}:${Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

Deno.test("admin.stats_shapes.prometheus-format: histogram renders keep their exact bytes", async () => {
  assert.equal(
    await digest({}),
    "27755:ad7ad95b801f20fa0cc984055321fd9092e9878665b5a143d20146cd68869ab1",
  );
  assert.equal(
    await digest({ usedOnly: true }),
    "21363:6ad9b24713034a4e3b678548da6d6b8b27cc12d73b996d148ae992ada5bacf9a",
  );
  assert.equal(
    await digest({ textReadouts: true }),
    "27880:3ecb2d8d8e77cacdb105f14fda7bee5520dcedc3c5cf084325115e51e64b9841",
  );
});
