import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ConfigLoadError } from "../config/errors.ts";
import { checkClusterSupport, ClusterManager } from "./cluster_manager.ts";
import { testCluster } from "./test_cluster.ts";

Deno.test("cluster manager: clusters by name, version_info null (static), active_clusters gauge", async () => {
  const store = new Store();
  const cm = new ClusterManager([testCluster("a:b", [["127.0.0.1", 1]]), testCluster("c", [])], {
    stats: store,
  });
  await cm.start();
  assert.equal(cm.get("a:b")!.statName, "a_b");
  assert.equal(cm.versionInfo(), null);
  assert.deepEqual(cm.clusters().map((c) => c.name), ["a:b", "c"]);
  assert.equal(store.gauge("cluster_manager.active_clusters").value(), 2);
  assert.equal(store.gauge("cluster.a_b.membership_total").value(), 1);
  assert.equal(store.gauge("cluster.a_b.membership_healthy").value(), 1);
  assert.equal(cm.get("a:b")!.hosts()[0].successRate(), -1);
  await cm.close();
});

Deno.test("cluster.fields.upstream-bind-config cluster.fields.lb-policy: settings the core cannot honour are rejected, naming the field", () => {
  const errs = checkClusterSupport([
    testCluster("a", [], { lbPolicy: "MAGLEV" }),
    testCluster("b", [], { upstreamBind: { address: "127.0.0.2", port: 0 } }),
    testCluster("c", [], { upstreamBind: { address: "", port: 0 } }),
  ]);
  assert.deepEqual(errs.map((e) => e.path), [
    "static_resources.clusters[0].lb_policy",
    "static_resources.clusters[1].upstream_bind_config",
  ]);
  assert.throws(
    () =>
      new ClusterManager([testCluster("a", [], { lbPolicy: "RING_HASH" })], { stats: new Store() }),
    ConfigLoadError,
  );
});
