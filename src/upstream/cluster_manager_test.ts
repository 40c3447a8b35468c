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

Deno.test("cluster.fields.lb-policy: settings the core cannot honour are rejected, naming the field", () => {
  const errs = checkClusterSupport([
    testCluster("a", [], { lbPolicy: "CLUSTER_PROVIDED" }),
    testCluster("m", [], { lbPolicy: "MAGLEV" }),
    testCluster("r", [], { lbPolicy: "RING_HASH" }),
    testCluster("b", [], { upstreamBind: { address: "127.0.0.2", port: 0 } }),
  ]);
  assert.deepEqual(errs.map((e) => e.path), ["static_resources.clusters[0].lb_policy"]);
  assert.throws(
    () =>
      new ClusterManager([testCluster("a", [], { lbPolicy: "ORIGINAL_DST_LB" })], {
        stats: new Store(),
      }),
    ConfigLoadError,
  );
});

Deno.test("cluster.fields.upstream-bind-config: a source address is accepted; one that is not an IP address is refused, naming where it came from", () => {
  const own = { upstream_bind_config: {} };
  const errs = checkClusterSupport([
    testCluster("a", [], { upstreamBind: { address: "127.0.0.2", port: 0 } }),
    testCluster("b", [], { upstreamBind: { address: "::1", port: 4000 } }),
    testCluster("c", [], { upstreamBind: { address: "localhost", port: 0 }, config: own }),
    testCluster("d", [], { upstreamBind: { address: "127.0.0.2", port: 70000 }, config: own }),
    testCluster("e", [], { upstreamBind: { address: "10.0.0.1", port: 0 } }),
    testCluster("f", [], { upstreamBind: { address: "127.0.0.2", port: 0 }, http2: true }),
  ]);
  assert.deepEqual(errs.map((e) => [e.path, e.message]), [
    [
      "static_resources.clusters[2].upstream_bind_config.source_address",
      "malformed IP address: localhost",
    ],
    [
      "static_resources.clusters[3].upstream_bind_config.source_address",
      "port_value 70000 is out of range (0 to 65535)",
    ],
  ]);
  const cm = new ClusterManager(
    [testCluster("a", [], { upstreamBind: { address: "127.0.0.2", port: 0 } })],
    { stats: new Store() },
  );
  assert.deepEqual(cm.get("a")!.effective.upstreamBind, { address: "127.0.0.2", port: 0 });
});
