import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { Cluster } from "./cluster.ts";
import { testCluster } from "./test_cluster.ts";
import type { EffectiveHost } from "../config/effective_cluster.ts";

function picks(c: Cluster, n = 8): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < n; i++) out.add(c.lb.choose({})?.port ?? 0);
  return out;
}

const eh = (port: number, over: Partial<EffectiveHost> = {}): EffectiveHost => ({
  address: "127.0.0.1",
  port,
  hostname: "",
  weight: 1,
  priority: 0,
  region: "",
  zone: "",
  sub_zone: "",
  metadata: {},
  ...over,
});

Deno.test("cluster.objects.common-lb-config.update-merge-window: health changes within the window reach the balancer when it ends; /clusters flags change at once", () => {
  const store = new Store();
  const c = new Cluster(
    testCluster("m", [["127.0.0.1", 1], ["127.0.0.1", 2], ["127.0.0.1", 3]], {
      updateMergeWindowMs: 3_600_000,
    }),
    store,
  );
  try {
    const [h1] = c.hosts();
    h1.setFlag("failed_outlier_check", true);
    assert.deepEqual(picks(c), new Set([2, 3]), "the first update applies at once");
    h1.setFlag("failed_outlier_check", false);
    assert.equal(h1.healthy(), true, "the host itself is healthy again");
    assert.equal(store.gauge("cluster.m.membership_healthy").value(), 3);
    assert.deepEqual(picks(c), new Set([2, 3]), "the balancer waits for the window");
    // A membership change is never delayed, and delivers what was held.
    c.updateHosts([eh(1), eh(2), eh(3), eh(4)]);
    assert.deepEqual(picks(c), new Set([1, 2, 3, 4]));
  } finally {
    c.close();
  }
});

Deno.test("cluster.objects.common-lb-config.update-merge-window: EDS weight and health updates are merged too", () => {
  const store = new Store();
  const c = new Cluster(
    testCluster("m", [], {
      type: "EDS",
      updateMergeWindowMs: 3_600_000,
      config: { name: "m" },
    }),
    store,
  );
  try {
    assert.deepEqual(c.updateHosts([eh(1), eh(2)]), { added: 2, removed: 0 });
    c.updateHosts([eh(1, { health_status: "UNHEALTHY" }), eh(2)]);
    assert.deepEqual(picks(c), new Set([2]), "out of the window: at once");
    assert.deepEqual(c.updateHosts([eh(1), eh(2)]), { added: 0, removed: 0 });
    assert.equal(c.hosts()[0].health.failed_eds_health, false);
    assert.deepEqual(picks(c), new Set([2]), "held");
    assert.equal(store.counter("cluster_manager.update_merge_cancelled").value(), 0);
  } finally {
    c.close();
  }
});

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never happened: ${what}`);
}

function listener() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const done = (async () => {
    try {
      for await (const c of l) conns.push(c);
    } catch { /* closed */ }
  })();
  return {
    port: l.addr.port,
    async close() {
      l.close();
      for (const c of conns) c.close();
      await done;
    },
  };
}

Deno.test("cluster.fields.drain-connections-on-host-removal: without it, a removed host passing its checks stays until it fails them; with it, it goes at once", async () => {
  for (const drain of [false, true]) {
    const a = listener();
    const b = listener();
    const c = new Cluster(
      testCluster("d", [], {
        type: "EDS",
        drainConnectionsOnHostRemoval: drain,
        updateMergeWindowMs: 0,
        healthChecks: [{
          timeout: "1s",
          interval: "0.02s",
          no_traffic_interval: "0.02s",
          unhealthy_threshold: 1,
          healthy_threshold: 1,
          tcp_health_check: {},
        }],
        config: { name: "d" },
      }),
      new Store(),
    );
    try {
      c.updateHosts([eh(a.port), eh(b.port)]);
      await waitFor(() => c.hosts().every((h) => !h.health.failed_active_hc), "both pass");
      const hb = c.hosts()[1];
      assert.deepEqual(c.updateHosts([eh(a.port)]), { added: 0, removed: 1 });
      if (drain) {
        assert.deepEqual(c.hosts().map((h) => h.port), [a.port], "removed at once");
        continue;
      }
      assert.deepEqual(c.hosts().map((h) => h.port), [a.port, b.port], "kept while passing");
      assert.ok(c.pendingDynamicRemoval(hb));
      await b.close();
      await waitFor(() => c.hosts().length === 1, "B goes once it fails its check");
      assert.deepEqual(c.hosts().map((h) => h.port), [a.port]);
    } finally {
      c.close();
      await a.close();
      await b.close().catch(() => {});
    }
  }
});
