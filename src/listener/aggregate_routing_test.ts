import assert from "node:assert/strict";
import { effectiveCluster } from "../config/effective_cluster.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { endpoint, namedOrigin, routeAllTo } from "./test_origins.ts";

const member = (name: string, eps: JsonObject[]) =>
  effectiveCluster({
    name,
    connect_timeout: "1s",
    load_assignment: { cluster_name: name, endpoints: [{ lb_endpoints: eps }] },
  });

const aggregate = effectiveCluster({
  name: "agg",
  connect_timeout: "1s",
  lb_policy: "CLUSTER_PROVIDED",
  cluster_type: {
    name: "envoy.clusters.aggregate",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig",
      clusters: ["primary", "secondary"],
    },
  },
});

async function bodies(port: number, n: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = await fetch(`http://127.0.0.1:${port}/`);
    const body = await r.text();
    counts.set(body, (counts.get(body) ?? 0) + 1);
  }
  return counts;
}

Deno.test("cluster.rules.aggregate-config: through a listener, an aggregate cluster serves from its first cluster while healthy and fails over to the second; the member's stats count the requests", async () => {
  const [p1, p2, s1] = ["p1", "p2", "s1"].map(namedOrigin);
  const unhealthy = (port: number) => ({ ...endpoint(port), health_status: "UNHEALTHY" });
  // Healthy primary: every request stays there.
  const healthy = await startTestProxy([httpListener(routeAllTo("agg"))], [
    member("primary", [endpoint(p1.addr.port), endpoint(p2.addr.port)]),
    member("secondary", [endpoint(s1.addr.port)]),
    aggregate,
  ]);
  try {
    const c = await bodies(healthy.port(), 10);
    assert.equal((c.get("p1") ?? 0) + (c.get("p2") ?? 0), 10);
    assert.equal(healthy.store.counter("cluster.primary.upstream_rq_total").value(), 10);
    assert.equal(healthy.store.counter("cluster.secondary.upstream_rq_total").value(), 0);
  } finally {
    await healthy.close();
  }
  // Every primary host unhealthy: all traffic goes to the second cluster.
  const failed = await startTestProxy([httpListener(routeAllTo("agg"))], [
    member("primary", [unhealthy(p1.addr.port), unhealthy(p2.addr.port)]),
    member("secondary", [endpoint(s1.addr.port)]),
    aggregate,
  ]);
  try {
    assert.deepEqual([...(await bodies(failed.port(), 10))], [["s1", 10]]);
    assert.equal(failed.store.counter("cluster.secondary.upstream_rq_total").value(), 10);
    assert.equal(failed.store.counter("cluster.primary.upstream_rq_total").value(), 0);
  } finally {
    await failed.close();
    for (const o of [p1, p2, s1]) await o.shutdown();
  }
});

Deno.test("cluster.rules.aggregate-config: a TCP proxy to an aggregate cluster connects with the chosen member's own settings (its upstream_bind_config)", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const peers: string[] = [];
  (async () => {
    for await (const c of l) {
      peers.push((c.remoteAddr as Deno.NetAddr).hostname);
      c.write(new TextEncoder().encode("hi")).finally(() => c.close()).catch(() => {});
    }
  })();
  const primary = effectiveCluster({
    name: "primary",
    connect_timeout: "1s",
    upstream_bind_config: { source_address: { address: "127.0.0.2", port_value: 0 } },
    load_assignment: {
      cluster_name: "primary",
      endpoints: [{ lb_endpoints: [endpoint(l.addr.port)] }],
    },
  });
  const tcp: JsonObject = {
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.tcp_proxy",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
          stat_prefix: "t",
          cluster: "agg",
        },
      }],
    }],
  };
  const p = await startTestProxy([tcp], [primary, member("secondary", []), aggregate]);
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    const b = new Uint8Array(8);
    const n = await c.read(b);
    c.close();
    assert.equal(new TextDecoder().decode(b.subarray(0, n ?? 0)), "hi");
    assert.deepEqual(peers, ["127.0.0.2"]);
    assert.equal(p.store.counter("cluster.primary.upstream_cx_total").value(), 1);
  } finally {
    await p.close();
    l.close();
  }
});
