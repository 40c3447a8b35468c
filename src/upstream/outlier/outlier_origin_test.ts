import assert from "node:assert/strict";
import { Store } from "../../stats/store.ts";
import { ClusterManager } from "../cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "../test_cluster.ts";
import type { JsonObject } from "../../config/bootstrap_types.ts";

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

function origin(status: number) {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(String(status), { status }),
  );
}

Deno.test("cluster.fields.outlier-detection: an origin answering 503 is ejected after consecutive_5xx and returns after the ejection time", async () => {
  const good = origin(200);
  const bad = origin(503);
  const od: JsonObject = {
    consecutive_5xx: 3,
    interval: "0.02s",
    base_ejection_time: "0.1s",
    max_ejection_percent: 50,
  };
  const c = testCluster("od", [["127.0.0.1", good.addr.port], ["127.0.0.1", bad.addr.port]], {
    outlierDetection: od,
    config: { name: "od", outlier_detection: od },
  });
  const store = new Store();
  const cm = new ClusterManager([c], { stats: store });
  await cm.start();
  try {
    const cl = cm.get("od")!;
    const badHost = cl.hosts()[1];
    let fives = 0;
    while (!badHost.health.failed_outlier_check) {
      const r = await forwardResponse(cl, testRequest());
      await r.body?.cancel();
      if (r.status === 503) fives++;
      assert.ok(fives <= 3, "ejected after 3 consecutive 503s");
    }
    assert.equal(fives, 3);
    assert.deepEqual(cl.outlierFigures()?.successRateAverage, -1);
    assert.equal(store.gauge("cluster.od.outlier_detection.ejections_active").value(), 1);
    assert.equal(
      store.counter("cluster.od.outlier_detection.ejections_enforced_consecutive_5xx").value(),
      1,
    );
    // While ejected, every request goes to the good host.
    for (let i = 0; i < 5; i++) {
      assert.equal((await forwardResponse(cl, testRequest())).status, 200);
    }
    await waitFor(() => !badHost.health.failed_outlier_check, "the ejection time ends");
    assert.equal(store.gauge("cluster.od.outlier_detection.ejections_active").value(), 0);
  } finally {
    await cm.close();
    await good.shutdown();
    await bad.shutdown();
  }
});

Deno.test("cluster.fields.outlier-detection cluster.objects.cluster.outlier-detection.max-ejection-percent: max_ejection_percent caps ejections; a runtime override lifts it without restart", async () => {
  const bads = [origin(503), origin(503), origin(503), origin(503)];
  const od: JsonObject = { consecutive_5xx: 1, interval: "10s", max_ejection_percent: 25 };
  const c = testCluster("cap", bads.map((b) => ["127.0.0.1", b.addr.port]), {
    outlierDetection: od,
  });
  const runtime = new Map<string, string>();
  const store = new Store();
  const cm = new ClusterManager([c], { stats: store, runtime: { get: (k) => runtime.get(k) } });
  await cm.start();
  try {
    const cl = cm.get("cap")!;
    const ejected = () => cl.hosts().filter((h) => h.health.failed_outlier_check).length;
    for (let i = 0; i < 12; i++) await (await forwardResponse(cl, testRequest())).body?.cancel();
    assert.equal(ejected(), 1);
    assert.ok(store.counter("cluster.cap.outlier_detection.ejections_overflow").value() > 0);
    runtime.set("outlier_detection.max_ejection_percent", "50");
    for (let i = 0; i < 12; i++) await (await forwardResponse(cl, testRequest())).body?.cancel();
    assert.equal(ejected(), 2);
  } finally {
    await cm.close();
    for (const b of bads) await b.shutdown();
  }
});

Deno.test("cluster.objects.cluster.outlier-detection.interval: without outlier_detection no outlier lines and no ejection", async () => {
  const bad = origin(503);
  const store = new Store();
  const cm = new ClusterManager([testCluster("plain", [["127.0.0.1", bad.addr.port]])], {
    stats: store,
  });
  await cm.start();
  try {
    for (let i = 0; i < 8; i++) {
      await (await forwardResponse(cm.get("plain")!, testRequest())).body?.cancel();
    }
    assert.equal(cm.get("plain")!.hosts()[0].health.failed_outlier_check, false);
    assert.equal(cm.get("plain")!.outlierFigures(), null);
  } finally {
    await cm.close();
    await bad.shutdown();
  }
});
