import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { clustersMessage, clustersText } from "./clusters_handler.ts";

Deno.test("admin.resources.health.concatenated admin.resources.host-stat.success_rate cluster.fields.outlier-detection: /clusters shows health flags and the outlier detector's figures", async () => {
  const od = { consecutive_5xx: 1, interval: "60s", max_ejection_percent: 100 };
  const hosts: [string, number][] = [1, 2, 3, 4, 5].map((i) => ["127.0.0.1", 10000 + i]);
  const c = testCluster("od", hosts, {
    outlierDetection: od,
    config: { name: "od", outlier_detection: od },
  });
  const cm = new ClusterManager([c, testCluster("plain", [["127.0.0.1", 10010]])], {
    stats: new Store(),
  });
  await cm.start();
  try {
    const cl = cm.get("od")!;
    const d = cl.outlier!;
    const hs = cl.hosts();
    hs.forEach((h, i) => {
      for (let k = 0; k < 200; k++) d.putHttpResponseCode(h, i === 4 && k % 2 === 0 ? 404 : 200);
    });
    d.runInterval();
    hs[0].setFlag("failed_active_hc", true);
    d.putHttpResponseCode(hs[1], 500);
    const text = clustersText(cm);
    assert.match(text, /^od::outlier::success_rate_average::100$/m);
    assert.match(text, /^od::outlier::success_rate_ejection_threshold::100$/m);
    assert.match(text, /^od::outlier::local_origin_success_rate_average::-1$/m);
    assert.match(text, /^od::127\.0\.0\.1:10001::health_flags::\/failed_active_hc$/m);
    assert.match(text, /^od::127\.0\.0\.1:10002::health_flags::\/failed_outlier_check$/m);
    assert.match(text, /^od::127\.0\.0\.1:10003::success_rate::100$/m);
    assert.doesNotMatch(text, /^plain::outlier::/m);
    const json = clustersMessage(cm) as {
      cluster_statuses: { name: string; success_rate_ejection_threshold?: { value: number } }[];
    };
    assert.deepEqual(json.cluster_statuses[0].success_rate_ejection_threshold, { value: 100 });
    assert.equal(json.cluster_statuses[1].success_rate_ejection_threshold, undefined);
  } finally {
    await cm.close();
  }
});
