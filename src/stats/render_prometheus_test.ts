import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { renderPrometheus } from "./render_prometheus.ts";
import type { RenderOptions } from "./render_options.ts";

const prom = (s: Store, o: RenderOptions = {}) => [...renderPrometheus(s, o)].join("");

Deno.test("admin.stats_shapes.prometheus-format: families grouped per type and sorted", () => {
  const s = new Store({ histogramBuckets: [1, 1800000] });
  s.counter("cluster.c2.upstream_cx_total").inc(20);
  s.counter("cluster.c1.upstream_cx_total").inc(10);
  s.gauge("cluster.c1.upstream_cx_active").set(11);
  s.gauge("server.concurrency").set(2);
  s.histogram("cluster.c1.upstream_cx_length_ms").record(7);
  s.flush();
  assert.equal(
    prom(s),
    [
      "# HELP proxy_cluster_upstream_cx_total cluster.upstream_cx_total",
      "# TYPE proxy_cluster_upstream_cx_total counter",
      'proxy_cluster_upstream_cx_total{proxy_cluster_name="c1"} 10',
      'proxy_cluster_upstream_cx_total{proxy_cluster_name="c2"} 20',
      "# HELP proxy_cluster_upstream_cx_active cluster.upstream_cx_active",
      "# TYPE proxy_cluster_upstream_cx_active gauge",
      'proxy_cluster_upstream_cx_active{proxy_cluster_name="c1"} 11',
      "# HELP proxy_server_concurrency server.concurrency",
      "# TYPE proxy_server_concurrency gauge",
      "proxy_server_concurrency{} 2",
      "# HELP proxy_cluster_upstream_cx_length_ms cluster.upstream_cx_length_ms",
      "# TYPE proxy_cluster_upstream_cx_length_ms histogram",
      'proxy_cluster_upstream_cx_length_ms_bucket{proxy_cluster_name="c1",le="1"} 0',
      'proxy_cluster_upstream_cx_length_ms_bucket{proxy_cluster_name="c1",le="1800000"} 1',
      'proxy_cluster_upstream_cx_length_ms_bucket{proxy_cluster_name="c1",le="+Inf"} 1',
      'proxy_cluster_upstream_cx_length_ms_sum{proxy_cluster_name="c1"} 7',
      'proxy_cluster_upstream_cx_length_ms_count{proxy_cluster_name="c1"} 1',
      "",
    ].join("\n"),
  );
});

Deno.test("admin.stats_shapes.prometheus-text-readouts: readouts are gauges 0 with text_value", () => {
  const s = new Store();
  s.textReadout("cluster.c1.control_plane_identifier").set('cp "1"\n');
  assert.equal(prom(s), "");
  assert.equal(
    prom(s, { textReadouts: true }),
    "# HELP proxy_cluster_control_plane_identifier cluster.control_plane_identifier\n" +
      "# TYPE proxy_cluster_control_plane_identifier gauge\n" +
      'proxy_cluster_control_plane_identifier{proxy_cluster_name="c1",text_value="cp \\"1\\"\\n"} 0\n',
  );
});

Deno.test("admin.endpoints.stats-format-prometheus-usedonly: usedonly and filter drop families", () => {
  const s = new Store();
  s.counter("a").inc();
  s.counter("b");
  s.gauge("c").set(1);
  assert.equal(
    prom(s, { usedOnly: true, filter: (n) => n !== "c" }),
    "# HELP proxy_a a\n# TYPE proxy_a counter\nproxy_a{} 1\n",
  );
});

Deno.test("admin.stats_shapes.prometheus-format: one TYPE per name even across types", () => {
  const s = new Store();
  s.counter("x.y").inc();
  s.gauge("x_y").set(1);
  const out = prom(s);
  assert.equal(out.match(/# TYPE proxy_x_y /g)?.length, 1);
  assert.match(out, /^# proxy_x_y: skipped gauge stats, the name is already a counter$/m);
});
