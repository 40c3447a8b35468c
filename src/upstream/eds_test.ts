import assert from "node:assert/strict";
import { join } from "node:path";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import type { DynamicFieldOptions } from "../config/dynamic_fields.ts";
import { versionHash } from "../config/subscription_hash.ts";

const V3 = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

const req = (): UpstreamRequest => testRequest();

type Ep = { port: number; health?: string; weight?: number; extra?: Record<string, unknown> };

/** A DiscoveryResponse (JSON text) with one ClusterLoadAssignment. */
function response(version: string, eps: Ep[], over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version_info: version,
    resources: [{
      "@type": V3,
      cluster_name: "svc",
      endpoints: [{
        locality: { region: "r1", zone: "z1" },
        lb_endpoints: eps.map((e) => ({
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: e.port } } },
          ...(e.health ? { health_status: e.health } : {}),
          ...(e.weight ? { load_balancing_weight: e.weight } : {}),
          ...(e.extra ?? {}),
        })),
      }],
      ...over,
    }],
  });
}

interface Env {
  cm: ClusterManager;
  store: Store;
  file: string;
  dir: string;
  logs: string[];
  stat(name: string): number;
}

async function withEds(
  initial: string | null,
  fn: (e: Env) => void | Promise<void>,
  opts: { options?: DynamicFieldOptions; ext?: string; start?: boolean } = {},
) {
  const dir = await Deno.makeTempDir();
  const file = join(dir, `eds${opts.ext ?? ".json"}`);
  if (initial !== null) await Deno.writeTextFile(file, initial);
  const store = new Store();
  const logs: string[] = [];
  const c = testCluster("web", [], {
    type: "EDS",
    config: {
      name: "web",
      type: "EDS",
      eds_cluster_config: { service_name: "svc", eds_config: { path: file } },
    },
  });
  const cm = new ClusterManager([c], {
    stats: store,
    options: opts.options,
    log: (level, msg) => logs.push(`${level} ${msg}`),
    fileDebounceMs: 10,
  });
  try {
    if (opts.start !== false) await cm.start();
    await fn({
      cm,
      store,
      file,
      dir,
      logs,
      stat: (n) =>
        n.startsWith("server.") ? store.counter(n).value() : store.counter(`cluster.web.${n}`)
          .value(),
    });
  } finally {
    await cm.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Replaces the EDS file by a rename into place: the watch sees one change and reads the file
 * once (an in-place write may be seen as a truncation and a write, two reads).
 */
async function replaceFile(e: Env, text: string) {
  const tmp = join(e.dir, "next.tmp");
  await Deno.writeTextFile(tmp, text);
  await Deno.rename(tmp, e.file);
}

/** Waits (bounded) until `cond` holds; file events arrive asynchronously. */
async function until(cond: () => boolean, what: string) {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), `timed out waiting for ${what}`);
}

Deno.test("cluster.fields.eds-cluster-config: initial load from a file sets hosts, health and stats", async () => {
  await withEds(
    response("v1", [{ port: 1001, weight: 3 }, { port: 1002, health: "UNHEALTHY" }]),
    ({ cm, store, stat }) => {
      const cl = cm.get("web")!;
      const hosts = cl.hosts();
      assert.deepEqual(hosts.map((h) => h.key), ["127.0.0.1:1001", "127.0.0.1:1002"]);
      assert.equal(hosts[0].weight, 3);
      assert.equal(hosts[0].region, "r1");
      assert.equal(hosts[0].zone, "z1");
      assert.equal(hosts[1].health.failed_eds_health, true);
      assert.equal(hosts[0].health.failed_eds_health, false);
      assert.equal(stat("update_attempt"), 1);
      assert.equal(stat("update_success"), 1);
      assert.equal(stat("update_rejected"), 0);
      assert.equal(stat("membership_change"), 1);
      assert.equal(store.gauge("cluster.web.membership_total").value(), 2);
      assert.equal(store.gauge("cluster.web.membership_healthy").value(), 1);
      assert.equal(store.gauge("cluster.web.version").value(), versionHash("v1"));
      assert.equal(cm.eds("web")!.version(), "v1");
      const dump = cm.dynamicEndpointConfigs();
      assert.equal(dump.length, 1);
      assert.equal(dump[0].version_info, "v1");
      assert.equal(dump[0].endpoint_config["@type"], V3);
      assert.equal(dump[0].endpoint_config.cluster_name, "svc");
      assert.ok(!Number.isNaN(Date.parse(dump[0].last_updated)));
    },
  );
});

Deno.test("cluster.fields.eds-cluster-config: YAML files are read too", async () => {
  const yaml = `version_info: y1
resources:
- "@type": type.googleapis.com/envoy.api.v2.ClusterLoadAssignment
  cluster_name: svc
  endpoints:
  - lb_endpoints:
    - endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: 2001}}}
      health_status: DRAINING
`;
  await withEds(yaml, ({ cm }) => {
    const hosts = cm.get("web")!.hosts();
    assert.equal(hosts.length, 1);
    assert.equal(hosts[0].port, 2001);
    assert.equal(hosts[0].health.failed_eds_health, true);
  }, { ext: ".yaml" });
});

Deno.test("cluster.fields.eds-cluster-config: a rename into place replaces hosts, keeping stats of staying hosts", async () => {
  await withEds(response("v1", [{ port: 1001 }, { port: 1002 }]), async (e) => {
    const cl = e.cm.get("web")!;
    const kept = cl.hosts()[0];
    kept.stats.rq_total.inc(7);
    const tmp = join(e.dir, "next.tmp");
    await Deno.writeTextFile(tmp, response("v2", [{ port: 1001, weight: 5 }, { port: 1003 }]));
    await Deno.rename(tmp, e.file);
    await until(() => e.cm.eds("web")!.version() === "v2", "version v2");
    const hosts = cl.hosts();
    assert.deepEqual(hosts.map((h) => h.key), ["127.0.0.1:1001", "127.0.0.1:1003"]);
    assert.equal(hosts[0], kept);
    assert.equal(hosts[0].stats.rq_total.value(), 7);
    assert.equal(hosts[0].weight, 5);
    assert.equal(e.stat("update_success"), 2);
    assert.equal(e.stat("membership_change"), 2);
  });
});

Deno.test("cluster.fields.eds-cluster-config: an in-place write is picked up", async () => {
  await withEds(response("v1", [{ port: 1001 }]), async (e) => {
    await Deno.writeTextFile(e.file, response("v2", [{ port: 1001, health: "UNHEALTHY" }]));
    await until(() => e.cm.eds("web")!.version() === "v2", "version v2");
    const h = e.cm.get("web")!.hosts()[0];
    assert.equal(h.health.failed_eds_health, true);
    assert.equal(e.store.gauge("cluster.web.membership_healthy").value(), 0);
    // Same host set: no membership change.
    assert.equal(e.stat("membership_change"), 1);
  });
});

Deno.test("cluster.fields.eds-cluster-config: a cluster without its first update answers 503 no healthy upstream", async () => {
  await withEds(null, async (e) => {
    const cl = e.cm.get("web")!;
    assert.equal(cl.initialized, false);
    const r0 = await forwardResponse(cl, req());
    assert.equal(r0.status, 503);
    assert.equal(await r0.text(), "no healthy upstream");
    await e.cm.start();
    // The file is missing: the first read fails, start-up goes on without hosts.
    assert.equal(cl.initialized, true);
    assert.equal(e.stat("update_failure"), 1);
    const r1 = await forwardResponse(cl, req());
    assert.equal(r1.status, 503);
    await r1.body?.cancel();
    const tmp = join(e.dir, "next.tmp");
    await Deno.writeTextFile(tmp, response("v1", [{ port: 1001 }]));
    await Deno.rename(tmp, e.file);
    await until(() => cl.hosts().length === 1, "hosts from the file");
    assert.equal(e.stat("update_success"), 1);
  }, { start: false });
});

for (
  const [what, text, counter] of [
    [
      "a ClusterLoadAssignment for another cluster",
      response("v2", [{ port: 9 }], {
        cluster_name: "other",
      }),
      "update_rejected",
    ],
    [
      "a resource of another type",
      JSON.stringify({ version_info: "v2", resources: [{ "@type": "type.googleapis.com/x.Y" }] }),
      "update_rejected",
    ],
    ["a bad port", response("v2", [{ port: 70000 }]), "update_rejected"],
    ["a syntax error", "{ not json", "update_failure"],
    [
      "an endpoint without an address",
      response("v2", [{ port: 9, extra: { endpoint: {} } }]),
      "update_rejected",
    ],
    [
      "endpoint metadata that is not a Metadata message",
      response("v2", [{ port: 9, extra: { metadata: { filter_metadata: "x" } } }]),
      "update_rejected",
    ],
    [
      "a hostname instead of an IP",
      response("v2", [{
        port: 9,
        extra: { endpoint: { address: { socket_address: { address: "a.test", port_value: 9 } } } },
      }]),
      "update_rejected",
    ],
  ] as const
) {
  Deno.test(`cluster.fields.eds-cluster-config: ${what} is refused and the previous hosts stay`, async () => {
    await withEds(response("v1", [{ port: 1001 }]), async (e) => {
      await replaceFile(e, text);
      await until(() => e.stat("update_attempt") === 2, "the second update");
      assert.equal(e.stat(counter), 1);
      assert.equal(e.stat("update_attempt"), 2);
      assert.equal(e.stat("update_success"), 1);
      assert.deepEqual(e.cm.get("web")!.hosts().map((h) => h.port), [1001]);
      assert.equal(e.cm.eds("web")!.version(), "v1");
      assert.ok(e.logs.some((l) => l.startsWith("warning") && l.includes(e.file)), e.logs.join());
    });
  });
}

Deno.test("cluster.fields.eds-cluster-config: a response without resources counts update_empty", async () => {
  await withEds(response("v1", [{ port: 1001 }]), async (e) => {
    assert.equal(e.stat("update_empty"), 0);
    await Deno.writeTextFile(e.file, JSON.stringify({ version_info: "v2", resources: [] }));
    await e.cm.eds("web")!.refresh();
    // The file watch may read the new file too (each read of it is an empty update).
    assert.ok(e.stat("update_empty") >= 1, "the empty response was counted");
    assert.deepEqual(e.cm.get("web")!.hosts().map((h) => h.port), [1001]);
  });
});

/** Two unknown fields on two endpoints plus one on the assignment: three occurrences. */
const UNKNOWN = response("u1", [{ port: 1001, extra: { bogus: 1 } }, {
  port: 1002,
  extra: { bogus: 2 },
}], { surprise: true });

Deno.test("errors.unknown-dynamic-fields: by default unknown fields are accepted, warned once per field, counted", async () => {
  await withEds(UNKNOWN, async (e) => {
    assert.equal(e.cm.get("web")!.hosts().length, 2);
    assert.equal(e.stat("server.dynamic_unknown_fields"), 3);
    assert.equal(e.logs.filter((l) => l.includes("unknown field")).length, 2);
    await e.cm.eds("web")!.refresh();
    assert.equal(e.stat("server.dynamic_unknown_fields"), 6);
    assert.equal(e.logs.filter((l) => l.includes("unknown field")).length, 2);
  });
});

Deno.test("cli.options.reject-unknown-dynamic-fields: an update with unknown fields is rejected", async () => {
  await withEds(UNKNOWN, (e) => {
    assert.equal(e.cm.get("web")!.hosts().length, 0);
    assert.equal(e.stat("update_rejected"), 1);
    assert.equal(e.stat("server.dynamic_unknown_fields"), 0);
    assert.ok(e.logs.some((l) => l.includes("resources[0].surprise")), e.logs.join("\n"));
  }, { options: { reject_unknown_dynamic_fields: true } });
});

Deno.test("cli.options.reject-unknown-dynamic-fields: a rejected update keeps the previous hosts", async () => {
  await withEds(response("v1", [{ port: 1001 }]), async (e) => {
    await replaceFile(e, UNKNOWN);
    await until(() => e.stat("update_attempt") === 2, "the second update");
    assert.equal(e.stat("update_rejected"), 1);
    assert.deepEqual(e.cm.get("web")!.hosts().map((h) => h.port), [1001]);
  }, { options: { reject_unknown_dynamic_fields: true } });
});

Deno.test("cli.options.ignore-unknown-dynamic-fields: accepted with no warning and no count", async () => {
  await withEds(UNKNOWN, (e) => {
    assert.equal(e.cm.get("web")!.hosts().length, 2);
    assert.equal(e.stat("server.dynamic_unknown_fields"), 0);
    assert.equal(e.logs.filter((l) => l.includes("unknown field")).length, 0);
  }, { options: { ignore_unknown_dynamic_fields: true } });
});

Deno.test("cli.options.ignore-unknown-dynamic-fields: no effect when reject is set", async () => {
  await withEds(UNKNOWN, (e) => {
    assert.equal(e.cm.get("web")!.hosts().length, 0);
    assert.equal(e.stat("update_rejected"), 1);
  }, { options: { reject_unknown_dynamic_fields: true, ignore_unknown_dynamic_fields: true } });
});
