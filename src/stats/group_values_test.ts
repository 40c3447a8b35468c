import assert from "node:assert/strict";
import { Store } from "./store.ts";
import { CLUSTER_LABEL, GroupValues, NO_STAT, OWN_LABELS } from "./group_values.ts";

/** Clusters built alike, one with a stat missing and one whose leaves came in another order. */
function store(): Store {
  const s = new Store();
  for (let c = 0; c < 5; c++) {
    const sc = s.scope("cluster").scope(`c${c}`);
    const leaves = c === 3
      ? ["upstream_rq_200", "upstream_rq_total", "upstream_cx_total"]
      : ["upstream_cx_total", "upstream_rq_total", "upstream_rq_200"];
    for (const [i, leaf] of leaves.entries()) {
      if (c === 2 && leaf === "upstream_rq_total") continue;
      sc.counter(leaf).inc(c * 10 + i + 1);
    }
  }
  return s;
}

Deno.test("admin.stats_shapes.prometheus-format: a group's values read block by block are its stats' values", () => {
  const s = store();
  s.settle(Infinity, "only");
  const fam = s.prometheus.counters.families().find((f) =>
    f.name === "proxy_cluster_upstream_rq_total"
  )!;
  const part = fam.members.soleGroup()!;
  assert.notEqual(part.group, undefined);
  const v = new GroupValues(part.blocks, [...part.group!.leaves]);
  assert.equal(v.read(2), false);
  assert.equal(v.read(2), false);
  assert.equal(v.read(2), true);
  for (const [bi, b] of part.blocks.entries()) {
    for (const [c, leaf] of part.group!.leaves.entries()) {
      const at = b.indexOf(leaf), cell = v.cell(c, bi);
      if (at < 0) {
        assert.equal(v.state[cell], NO_STAT);
        continue;
      }
      const stat = b.at(at);
      const own = stat.promLabels !== b.promCluster;
      assert.equal(v.state[cell], own ? OWN_LABELS : CLUSTER_LABEL, `${b.head}${leaf}`);
      if (!own) assert.equal(v.values[cell], stat.value(), `${b.head}${leaf}`);
    }
  }
  // The cluster without `upstream_rq_total` has no cell for it.
  const missing = part.blocks.findIndex((b) => b.head === "cluster.c2.");
  assert.equal(v.state[v.cell(v.columns.get("upstream_rq_total")!, missing)], NO_STAT);
});
