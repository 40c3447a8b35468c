import assert from "node:assert/strict";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { endpoint, namedOrigin, routeAllTo } from "./test_origins.ts";

const routes = routeAllTo("svc");

Deno.test("cluster.objects.common-lb-config.locality-weighted-lb-config: through a listener, localities share traffic by their load_balancing_weight", async () => {
  const a = namedOrigin("a");
  const b = namedOrigin("b");
  const c = namedOrigin("c");
  const cluster = effectiveCluster({
    name: "svc",
    connect_timeout: "1s",
    common_lb_config: { locality_weighted_lb_config: {} },
    load_assignment: {
      cluster_name: "svc",
      endpoints: [
        {
          locality: { zone: "z1" },
          load_balancing_weight: 1,
          lb_endpoints: [endpoint(a.addr.port)],
        },
        {
          locality: { zone: "z2" },
          load_balancing_weight: 3,
          lb_endpoints: [endpoint(b.addr.port)],
        },
        { locality: { zone: "z3" }, lb_endpoints: [endpoint(c.addr.port)] },
      ],
    },
  });
  const p = await startTestProxy([httpListener(routes)], [cluster]);
  try {
    const counts = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      const body = await r.text();
      counts.set(body, (counts.get(body) ?? 0) + 1);
    }
    assert.deepEqual([counts.get("a"), counts.get("b"), counts.get("c")], [10, 30, undefined]);
  } finally {
    await p.close();
    for (const o of [a, b, c]) await o.shutdown();
  }
});
