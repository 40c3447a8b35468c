import assert from "node:assert/strict";
import { join } from "node:path";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { testCluster } from "./test_cluster.ts";
import type { DynamicFieldOptions } from "../config/dynamic_fields.ts";
import { ConfigLoadError } from "../config/errors.ts";

const CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

function staticCluster(name: string, port: number, extra: Record<string, unknown> = {}) {
  return {
    "@type": CLUSTER,
    name,
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: name,
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
    ...extra,
  };
}

const cds = (version: string, resources: unknown[]) =>
  JSON.stringify({ version_info: version, resources });

interface Env {
  cm: ClusterManager;
  dir: string;
  file: string;
  logs: string[];
  n(name: string): number;
}

async function withCds(
  initial: string,
  fn: (e: Env) => Promise<void> | void,
  options?: DynamicFieldOptions,
) {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "cds.json");
  await Deno.writeTextFile(file, initial);
  const store = new Store();
  const logs: string[] = [];
  const cm = new ClusterManager([testCluster("fixed", [["127.0.0.1", 1000]])], {
    stats: store,
    cds: { path: file },
    options,
    log: (level, msg) => logs.push(`${level} ${msg}`),
    fileDebounceMs: 10,
  });
  try {
    await cm.start();
    await fn({
      cm,
      dir,
      file,
      logs,
      n: (name) =>
        name.endsWith("_clusters") ? store.gauge(name).value() : store.counter(name).value(),
    });
  } finally {
    await cm.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

Deno.test("admin.resources.clusters.version_info-static: CDS from a file adds clusters and reports its version", async () => {
  await withCds(cds("c1", [staticCluster("a", 1001), staticCluster("b", 1002)]), (e) => {
    assert.equal(e.cm.versionInfo(), "c1");
    assert.deepEqual(e.cm.clusters().map((c) => c.name), ["fixed", "a", "b"]);
    assert.equal(e.cm.get("a")!.addedViaApi, true);
    assert.equal(e.cm.get("fixed")!.addedViaApi, false);
    assert.equal(e.cm.get("a")!.apiUpdate?.version_info, "c1");
    assert.equal(e.cm.get("fixed")!.apiUpdate, null);
    assert.equal(e.cm.get("b")!.hosts()[0].port, 1002);
    assert.equal(e.n("cluster_manager.cds.update_success"), 1);
    assert.equal(e.n("cluster_manager.cluster_added"), 3);
    assert.equal(e.n("cluster_manager.active_clusters"), 3);
  });
});

Deno.test("cds (no table row yet): a CDS update by rename modifies, removes and adds clusters", async () => {
  await withCds(cds("c1", [staticCluster("a", 1001), staticCluster("b", 1002)]), async (e) => {
    const tmp = join(e.dir, "cds.tmp");
    await Deno.writeTextFile(tmp, cds("c2", [staticCluster("a", 2001), staticCluster("c", 1003)]));
    await Deno.rename(tmp, e.file);
    await until(() => e.cm.versionInfo() === "c2", "version c2");
    assert.deepEqual([...e.cm.names()].sort(), ["a", "c", "fixed"]);
    assert.equal(e.cm.get("a")!.hosts()[0].port, 2001);
    assert.equal(e.n("cluster_manager.cluster_modified"), 1);
    assert.equal(e.n("cluster_manager.cluster_removed"), 1);
    assert.equal(e.n("cluster_manager.cluster_added"), 4);
    assert.equal(e.n("cluster_manager.active_clusters"), 3);
  });
});

Deno.test("cds (no table row yet): a CDS cluster of type EDS warms with its own file", async () => {
  const dir = await Deno.makeTempDir();
  const eds = join(dir, "eds.json");
  await Deno.writeTextFile(
    eds,
    JSON.stringify({
      version_info: "e1",
      resources: [{
        "@type": "type.googleapis.com/envoy.api.v2.ClusterLoadAssignment",
        cluster_name: "d",
        endpoints: [{
          lb_endpoints: [{
            endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 7 } } },
          }],
        }],
      }],
    }),
  );
  try {
    await withCds(
      cds("c1", [{
        "@type": CLUSTER,
        name: "d",
        connect_timeout: "1s",
        type: "EDS",
        eds_cluster_config: { eds_config: { path: eds } },
      }]),
      (e) => {
        assert.deepEqual(e.cm.get("d")!.hosts().map((h) => h.port), [7]);
        assert.equal(e.n("cluster_manager.warming_clusters"), 0);
        assert.equal(e.cm.dynamicEndpointConfigs()[0].version_info, "e1");
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (
  const [what, resources] of [
    ["a static cluster's name", [staticCluster("fixed", 1)]],
    ["an invalid cluster", [staticCluster("a", 1, { lb_policy: "ROUND_ROBBIN" })]],
    ["two clusters with one name", [staticCluster("a", 1), staticCluster("a", 2)]],
    ["a resource of another type", [{ "@type": "type.googleapis.com/x.Listener", name: "a" }]],
  ] as const
) {
  Deno.test(`cds (no table row yet): a CDS update with ${what} is rejected and nothing changes`, async () => {
    await withCds(cds("c1", [staticCluster("a", 1001)]), async (e) => {
      await Deno.writeTextFile(e.file, cds("c2", [...resources]));
      await e.cm.refreshCds();
      assert.equal(e.n("cluster_manager.cds.update_rejected"), 1);
      assert.equal(e.cm.versionInfo(), "c1");
      assert.equal(e.cm.get("a")!.hosts()[0].port, 1001);
      assert.equal(e.cm.get("fixed")!.hosts()[0].port, 1000);
      assert.ok(e.logs.some((l) => l.startsWith("warning") && l.includes("rejected")));
    });
  });
}

const WITH_UNKNOWN = cds("u1", [staticCluster("a", 1001, { mystery: 1 })]);

Deno.test("errors.unknown-dynamic-fields: unknown Cluster fields from CDS are counted and accepted", async () => {
  await withCds(WITH_UNKNOWN, (e) => {
    assert.ok(e.cm.get("a"));
    assert.equal(e.n("server.dynamic_unknown_fields"), 1);
  });
});

Deno.test("cli.options.reject-unknown-dynamic-fields: unknown Cluster fields reject the CDS update", async () => {
  await withCds(WITH_UNKNOWN, (e) => {
    assert.equal(e.cm.get("a"), undefined);
    assert.equal(e.n("cluster_manager.cds.update_rejected"), 1);
    assert.equal(e.n("server.dynamic_unknown_fields"), 0);
  }, { reject_unknown_dynamic_fields: true });
});

Deno.test("admin.resources.clusters.version_info-static: without CDS the version is null; an ADS CDS source is refused", () => {
  const store = new Store();
  assert.equal(new ClusterManager([], { stats: store }).versionInfo(), null);
  assert.throws(
    () => new ClusterManager([], { stats: store, cds: { ads: {} } }),
    (e) => e instanceof ConfigLoadError && /cds_config\.ads/.test(e.message),
  );
});
