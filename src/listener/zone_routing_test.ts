import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { namedOrigin, routeAllTo } from "./test_origins.ts";

const routes = routeAllTo("svc");

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config: through a listener, zone-aware routing keeps traffic in the proxy's zone (local_cluster_name, node zone)", async () => {
  const zones = ["a", "a", "b", "b", "c", "c"];
  const origins = zones.map((z, i) => namedOrigin(`${z}${i}`));
  const svc = testCluster("svc", origins.map((o) => ["127.0.0.1", o.addr.port]));
  svc.hosts.forEach((h, i) => h.zone = zones[i]);
  // The local cluster: this service's proxies, one per zone (never contacted).
  const local = testCluster("local", [["127.0.0.1", 1], ["127.0.0.1", 2], ["127.0.0.1", 3]]);
  local.hosts.forEach((h, i) => h.zone = ["a", "b", "c"][i]);
  const p = await startTestProxy([httpListener(routes)], [svc, local], {
    cm: { localClusterName: "local", localLocality: { zone: "a" } },
  });
  try {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      seen.add(await r.text());
    }
    assert.deepEqual([...seen].sort(), ["a0", "a1"]);
    assert.equal(p.store.counter("cluster.svc.lb_zone_routing_all_directly").value(), 20);
  } finally {
    await p.close();
    for (const o of origins) await o.shutdown();
  }
});

Deno.test("cluster.objects.common-lb-config.zone-aware-lb-config: a local_cluster_name that names no cluster is a load-time error", async () => {
  await assert.rejects(
    () =>
      startTestProxy([httpListener(routes)], [testCluster("svc", [["127.0.0.1", 1]])], {
        cm: { localClusterName: "nope" },
      }),
    /cluster_manager\.local_cluster_name: local cluster 'nope' must be defined/,
  );
});
