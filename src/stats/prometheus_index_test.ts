import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { renderPrometheus } from "./render_prometheus.ts";
import { extractTags } from "./tag_extraction.ts";
import { type Family, labelText } from "./prometheus_index.ts";
import type { NamedStat } from "./stat_name.ts";
import { prometheusName } from "./naming.ts";

const LEAVES = ["upstream_rq_total", "upstream_rq_200", "upstream_rq_5xx", "upstream_cx_active"];

function fill(store: Store, settleEvery: number): void {
  let made = 0;
  for (let i = 0; i < 1500; i++) {
    const c = (i * 7919) % 1500;
    const s = store.scope("cluster").scope(`svc-${c}`);
    for (const leaf of LEAVES) {
      if (leaf.endsWith("active")) s.gauge(leaf).set(c);
      else s.counter(leaf).inc(c + 1);
    }
    s.scope("circuit_breakers").scope("default").gauge("rq_open");
    store.counter(`http.in_${c % 3}.downstream_rq_2xx`).inc();
    made += 6;
    if (made % settleEvery < 6) store.settle(Infinity, true);
  }
}

Deno.test("admin.endpoints.stats-prometheus: grouping thousands of new stats at once equals grouping them as they come", () => {
  const bulk = new Store(), stepwise = new Store();
  fill(bulk, Number.MAX_SAFE_INTEGER);
  fill(stepwise, 60);
  const a = [...renderPrometheus(bulk, {})].join("");
  assert.equal(a, [...renderPrometheus(stepwise, {})].join(""));
  // Each family's samples follow the full stat names, with labels from full-name extraction.
  for (const ix of [bulk.prometheus.counters, bulk.prometheus.gauges]) {
    for (const fam of ix.families()) {
      const members = fam.members.sorted();
      const names = members.map((m) => m.name);
      assert.deepEqual(names, [...names].sort());
      for (const m of members) {
        const t = extractTags(m.name);
        assert.equal(prometheusName(t.name), fam.name);
        assert.equal(m.promLabels, labelText(t.tags));
      }
    }
  }
  assert.ok(
    a.includes(
      'proxy_cluster_upstream_rq{proxy_response_code="200",proxy_cluster_name="svc-0"} 1\n',
    ),
  );
});

Deno.test("admin.endpoints.stats-prometheus: stats are grouped as they are created; a scrape only sorts new members, by head rank then name", () => {
  const store = new Store();
  // Creation order is not name order: svc-10 sorts before svc-2, and c.svc-1.x after c.svc-1-a.
  for (let i = 0; i < 300; i++) {
    const s = store.scope("cluster").scope(`svc-${(i * 37) % 300}`);
    s.counter("upstream_rq_total").inc(i);
    s.counter(`upstream_rq_${200 + (i % 3)}`).inc();
    s.scope("circuit_breakers").scope("default").gauge("rq_open");
  }
  store.counter("cluster.svc-1-a.upstream_rq_total");
  assert.equal(store.settle(Infinity, "only"), true);
  for (const ix of [store.prometheus.counters, store.prometheus.gauges]) {
    for (const fam of ix.families()) {
      const names = fam.members.sorted().map((m) => m.name);
      assert.deepEqual(names, [...names].sort());
      for (const m of fam.members.sorted()) {
        assert.equal(m.promLabels, labelText(extractTags(m.name).tags));
      }
    }
  }
  const first = [...renderPrometheus(store, {})].join("");
  store.settle(Infinity, true);
  assert.equal([...renderPrometheus(store, {})].join(""), first);
});

Deno.test("admin.endpoints.stats-prometheus: a cluster family visited block by block lists what sorted() lists", () => {
  const store = new Store();
  fill(store, 200);
  // Blocks built differently: a leaf missing from some clusters, one added late, in another order.
  for (let c = 0; c < 40; c += 3) store.scope("cluster").scope(`svc-${c}`).counter("late_one");
  store.scope("cluster").scope("svc-7").counter("aaa_first").inc();
  store.settle(Infinity, true);
  let groups = 0;
  const check = <T extends NamedStat>(families: readonly Family<T>[]) => {
    for (const fam of families) {
      const part = fam.members.soleGroup();
      if (part === undefined) continue;
      groups++;
      const visited: T[] = [];
      for (const b of part.blocks) {
        for (let l = 0; l < part.leaves.length; l++) {
          const m = part.member(b, l);
          if (m !== undefined) visited.push(m);
        }
      }
      assert.deepEqual(visited, fam.members.sorted(), fam.name);
    }
  };
  check(store.prometheus.counters.families());
  check(store.prometheus.gauges.families());
  assert.ok(groups >= 5, `${groups} cluster families`);
});

Deno.test("admin.stats_shapes.prometheus-format: a cluster family whose name another type took is skipped", () => {
  const store = new Store();
  store.scope("cluster").scope("a").counter("x").inc(2);
  store.scope("cluster").scope("b").gauge("x").set(3);
  store.scope("cluster").scope("c").gauge("x").set(4);
  const out = [...renderPrometheus(store, {})].join("");
  assert.equal(
    out,
    "# HELP proxy_cluster_x cluster.x\n# TYPE proxy_cluster_x counter\n" +
      'proxy_cluster_x{proxy_cluster_name="a"} 2\n' +
      "# proxy_cluster_x: skipped gauge stats, the name is already a counter\n",
  );
});
