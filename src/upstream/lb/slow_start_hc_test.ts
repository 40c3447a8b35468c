import assert from "node:assert/strict";
import { Store } from "../../stats/store.ts";
import { ClusterManager } from "../cluster_manager.ts";
import { testCluster } from "../test_cluster.ts";

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

const serve = (port: number) =>
  Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response("ok"));

Deno.test("cluster.objects.slow-start-config.slow-start-window: a host that passes active health checking again re-enters slow start; the others stay where they were", async () => {
  const a0 = serve(0);
  const pa = a0.addr.port;
  const b = serve(0);
  const c = testCluster("ss", [["127.0.0.1", pa], ["127.0.0.1", b.addr.port]], {
    healthChecks: [{
      timeout: "2s",
      interval: "0.02s",
      no_traffic_interval: "0.02s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      http_health_check: { path: "/healthz" },
    }],
    config: {
      name: "ss",
      round_robin_lb_config: { slow_start_config: { slow_start_window: "3600s" } },
    },
  });
  const cm = new ClusterManager([c], { stats: new Store() });
  await cm.start();
  let a = a0;
  try {
    const cl = cm.get("ss")!;
    await cl.initialHealthChecks();
    const [ha, hb] = cl.hosts();
    await waitFor(() => ha.healthy() && hb.healthy(), "both hosts healthy");
    // The first passing check starts slow start, as in Envoy.
    const firstA = ha.lastHcPassTime!;
    const firstB = hb.lastHcPassTime!;
    assert.ok(firstA !== null && firstB !== null);
    await a.shutdown();
    await waitFor(() => !ha.healthy(), "A fails");
    a = serve(pa);
    await waitFor(() => ha.healthy(), "A passes again");
    assert.ok(ha.lastHcPassTime! > firstA);
    assert.equal(hb.lastHcPassTime, firstB);
  } finally {
    await cm.close();
    await a.shutdown();
    await b.shutdown();
  }
});
