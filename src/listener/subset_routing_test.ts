import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { namedOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

const lb = (ns: string, v: JsonObject) => ({ filter_metadata: { [ns]: v } });

const routes: JsonObject = {
  name: "rc",
  virtual_hosts: [{
    name: "main",
    domains: ["*"],
    routes: [
      {
        match: { prefix: "/v1" },
        route: { cluster: "svc", metadata_match: lb("envoy.lb", { version: "v1" }) },
      },
      {
        match: { prefix: "/v2" },
        route: { cluster: "svc", metadata_match: lb("proxy.lb", { version: "v2" }) },
      },
      {
        match: { prefix: "/weighted" },
        route: {
          metadata_match: lb("proxy.lb", { version: "v1" }),
          weighted_clusters: {
            clusters: [{
              name: "svc",
              weight: 100,
              metadata_match: lb("proxy.lb", { version: "v2" }),
            }],
          },
        },
      },
      {
        match: { prefix: "/v9" },
        route: { cluster: "svc", metadata_match: lb("proxy.lb", { version: "v9" }) },
      },
      { match: { prefix: "/" }, route: { cluster: "svc" } },
    ],
  }],
};

Deno.test("cluster.fields.lb-subset-config: route and weighted-cluster metadata_match route to the matching subset through a listener", async () => {
  const origins = [namedOrigin("a"), namedOrigin("b"), namedOrigin("c")];
  const versions = ["v1", "v1", "v2"];
  const c = testCluster("svc", origins.map((o) => ["127.0.0.1", o.addr.port]), {
    config: {
      name: "svc",
      lb_subset_config: {
        fallback_policy: "DEFAULT_SUBSET",
        default_subset: { version: "v2" },
        subset_selectors: [{ keys: ["version"] }],
      },
    },
  });
  c.hosts.forEach((h, i) => h.metadata = { version: versions[i] });
  const p = await startTestProxy([httpListener(routes)], [c]);
  try {
    const seen = async (path: string) => {
      const out = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const r = await fetch(`http://127.0.0.1:${p.port()}${path}`);
        out.add(`${r.status} ${await r.text()}`);
      }
      return [...out].sort();
    };
    assert.deepEqual(await seen("/v1"), ["200 a", "200 b"]);
    assert.deepEqual(await seen("/v2"), ["200 c"]);
    assert.deepEqual(await seen("/weighted"), ["200 c"], "the cluster's criteria override");
    // No subset for v9, and no criteria at all: the default subset (version v2).
    assert.deepEqual(await seen("/v9"), ["200 c"]);
    assert.deepEqual(await seen("/"), ["200 c"]);
    assert.equal(p.store.counter("cluster.svc.lb_subsets.selected").value(), 18);
    assert.equal(p.store.counter("cluster.svc.lb_subsets.fallback").value(), 12);
    assert.equal(p.store.gauge("cluster.svc.lb_subsets.active").value(), 2);
  } finally {
    await p.close();
    for (const o of origins) await o.shutdown();
  }
});
