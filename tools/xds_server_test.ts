/**
 * The proxy driven by our control plane over ADS: a bootstrap with only a static cluster for
 * the control plane, `cds_config: {ads: {}}` and `ads_config`, gets its clusters and endpoints,
 * serves traffic, follows changes (an endpoint replaced, a cluster added), keeps the last good
 * configuration when an update is refused (the NACK names the field) and when the control plane
 * goes away, and takes the next good update when it is back.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parseArgs } from "../src/config/args.ts";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { createLogging } from "../src/server/logger.ts";
import { startServer } from "../src/server/server.ts";
import type { InitManager } from "../src/server/init_manager.ts";
import { readSnapshot, startXdsServer, type XdsServer } from "./xds_server.ts";
import { anyToJson } from "../src/config/proto_registry.ts";
import { GRPC_METHODS, TYPE_URLS } from "../src/config/xds_wire.ts";
import { XdsMux } from "../src/config/xds_mux.ts";
import { grpcOpener } from "../src/upstream/grpc_stream.ts";
import { Store } from "../src/stats/store.ts";
import type { DiscoveryResponse } from "../src/config/subscription.ts";
import { ClusterManager } from "../src/upstream/cluster_manager.ts";
import { testCluster } from "../src/upstream/test_cluster.ts";
import {
  adsBootstrap,
  assignment,
  body,
  edsCluster,
  endpoint,
  origin,
  startTestProxy,
  until,
  write,
} from "./xds_testing.ts";

const HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3." +
  "HttpConnectionManager";
const ROUTER = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router";

Deno.test("xds: the proxy bootstrapped with ads_config gets clusters and endpoints from our control plane, follows changes, NACKs with the field path and keeps the last good config", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("web")]);
  write(dir, "endpoints.yaml", [assignment("web", a.addr.port)]);
  const logs: string[] = [];
  let cp: XdsServer | null = await startXdsServer({
    dir,
    port: 0,
    watch: false,
    log: (m) => logs.push(m),
  });
  const cpPort = cp.port;
  const proxy = await startTestProxy(
    adsBootstrap(cpPort, {
      extra: {
        static_resources: {
          listeners: [{
            name: "http",
            address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
            filter_chains: [{
              filters: [{
                name: "envoy.filters.network.http_connection_manager",
                typed_config: {
                  "@type": HCM,
                  stat_prefix: "in",
                  route_config: {
                    validate_clusters: false,
                    virtual_hosts: [{
                      name: "all",
                      domains: ["*"],
                      routes: [
                        { match: { prefix: "/extra" }, route: { cluster: "extra" } },
                        { match: { prefix: "/" }, route: { cluster: "web" } },
                      ],
                    }],
                  },
                  http_filters: [{ name: "envoy.filters.http.router" }],
                },
              }],
            }],
          }],
        },
      },
    }),
    ["--service-node", "node-1", "--service-cluster", "edge"],
  );
  const ctx = proxy.running.context;
  const { admin, stat } = proxy;
  try {
    const port = ctx.listeners.listeners()[0]?.port;
    const url = `http://127.0.0.1:${port}`;
    // Start-up waited for the first CDS update and the cluster's endpoints.
    assert.equal(await body(`${url}/`), "200 a");
    assert.equal(ctx.clusters.versionInfo(), "1");
    assert.equal(cp.replies[0].node, "node-1");
    assert.match(await (await fetch(`${admin}/clusters`)).text(), /^version_info::1\n/);
    assert.equal(await stat("cluster_manager.cds.update_success"), "1");
    assert.equal(await stat("cluster_manager.cds.version_text"), '"1"');
    assert.equal(await stat("cluster.web.update_success"), "1");
    const dump = await (await fetch(`${admin}/config_dump?resource=dynamic_active_clusters`))
      .json();
    assert.equal(dump.configs[0].version_info, "1");
    assert.equal(dump.configs[0].cluster.name, "web");
    assert.ok(dump.configs[0].last_updated);
    // The endpoint is replaced and a cluster is added: traffic follows.
    write(dir, "clusters.yaml", [
      edsCluster("web"),
      edsCluster("extra"),
    ]);
    write(dir, "endpoints.yaml", [
      assignment("web", b.addr.port),
      assignment("extra", a.addr.port),
    ]);
    await cp.reload();
    await until(async () => (await body(`${url}/`)) === "200 b", "the new endpoint");
    await until(async () => (await body(`${url}/extra`)) === "200 a", "the new cluster");
    assert.equal(ctx.clusters.versionInfo(), "2");
    // An invalid cluster is refused: NACK naming the field, the last good config stays.
    write(dir, "clusters.yaml", [
      edsCluster("web"),
      edsCluster("extra", { connect_timeout: "-1s" }),
    ]);
    await cp.reload();
    await until(() => cp!.replies.some((r) => r.error !== undefined), "a NACK");
    const nack = cp.replies.find((r) => r.error !== undefined)!;
    assert.equal(nack.type_url, TYPE_URLS.cds);
    assert.equal(nack.version_info, "2");
    assert.match(nack.error!, /resources\[1\]\.connect_timeout/);
    assert.equal(await stat("cluster_manager.cds.update_rejected"), "1");
    assert.equal(ctx.clusters.versionInfo(), "2");
    assert.equal(await body(`${url}/extra`), "200 a");
    // The control plane goes away: nothing is lost; it comes back with a fix: taken.
    await cp.close();
    cp = null;
    await until(
      async () => Number(await stat("cluster_manager.cds.update_failure")) >= 1,
      "a failure",
    );
    assert.equal(await body(`${url}/`), "200 b");
    write(dir, "clusters.yaml", [edsCluster("web")]);
    cp = await startXdsServer({ dir, port: cpPort, watch: false, log: (m) => logs.push(m) });
    await until(() => ctx.clusters.versionInfo() === "1", "the update after reconnection");
    assert.equal(await body(`${url}/`), "200 b");
    assert.equal((await fetch(`${url}/extra`)).status, 503);
  } finally {
    await proxy.close();
    await cp?.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("xds: the control plane serves SotW and delta streams, per type and aggregated", async () => {
  const dir = await Deno.makeTempDir();
  write(dir, "all.yaml", [edsCluster("web"), assignment("web", 8080)]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  try {
    for (
      const [method, delta] of [
        [GRPC_METHODS.ads, false],
        [GRPC_METHODS.adsDelta, true],
        [GRPC_METHODS.cds, false],
        [GRPC_METHODS.cdsDelta, true],
      ] as const
    ) {
      const open = grpcOpener("127.0.0.1", cp.port);
      const mux = new XdsMux(open, { node: { id: "t" }, method, delta });
      const got: DiscoveryResponse[] = [];
      const sub = mux.subscribe(TYPE_URLS.cds, null, new Store(), {
        onConfigUpdate: (r) => got.push(r),
        onConfigUpdateFailed: () => {},
      });
      await sub.start();
      assert.equal(got.length, 1, method);
      assert.equal(got[0].resources[0].name, "web");
      assert.equal(got[0].resources[0].connect_timeout, "1s");
      await mux.close();
      open.close();
    }
  } finally {
    await cp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("xds: api_config_source GRPC and DELTA_GRPC streams per type carry CDS and EDS; initial_fetch_timeout ends the wait for a resource that never comes", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  try {
    for (const apiType of ["GRPC", "DELTA_GRPC"]) {
      const api = {
        api_type: apiType,
        grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
      };
      write(dir, "all.yaml", [
        edsCluster("web", {
          eds_cluster_config: { eds_config: { api_config_source: api } },
        }),
        edsCluster("never", {
          eds_cluster_config: {
            eds_config: { api_config_source: api, initial_fetch_timeout: "0.2s" },
          },
        }),
        assignment("web", a.addr.port),
      ]);
      await cp.reload();
      const store = new Store();
      const cm = new ClusterManager([testCluster("xds", [["127.0.0.1", cp.port]])], {
        stats: store,
        cds: { api_config_source: api },
        node: { id: "n" },
      });
      try {
        await cm.start();
        assert.deepEqual([...cm.names()].sort(), ["never", "web", "xds"], apiType);
        assert.deepEqual(cm.get("web")?.hosts().map((h) => h.port), [a.addr.port]);
        assert.equal(store.counter("cluster.never.init_fetch_timeout").value(), 1, apiType);
        assert.equal(cm.get("never")?.hosts().length, 0);
        assert.equal(store.counter("cluster_manager.cds.update_success").value(), 1, apiType);
      } finally {
        await cm.close();
      }
    }
  } finally {
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

function ldsListener(name: string, hcm: JsonObject): JsonObject {
  return {
    "@type": "type.googleapis.com/envoy.config.listener.v3.Listener",
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type": HCM,
          stat_prefix: name,
          http_filters: [{ name: "envoy.filters.http.router", typed_config: { "@type": ROUTER } }],
          ...hcm,
        },
      }],
    }],
  };
}

const routes = (cluster: string) => ({
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster } }],
  }],
});

Deno.test("xds: listeners come from LDS over ADS: added, changed, removed, and refused with the field path", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("ca"), edsCluster("cb")]);
  write(dir, "endpoints.yaml", [assignment("ca", a.addr.port), assignment("cb", b.addr.port)]);
  write(dir, "listeners.yaml", [ldsListener("front", { route_config: routes("ca") })]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const proxy = await startTestProxy(
    adsBootstrap(cp.port, { lds: true, extra: { node: { id: "lds-node", cluster: "edge" } } }),
  );
  const { admin, portOf } = proxy;
  try {
    assert.equal(await body(`http://127.0.0.1:${portOf("front")}/`), "200 a");
    const dump = await (await fetch(`${admin}/config_dump?resource=dynamic_listeners`)).json();
    assert.equal(dump.configs[0].name, "front");
    assert.equal(dump.configs[0].active_state.version_info, "1");
    // Changed: the route now goes to cb.
    write(dir, "listeners.yaml", [ldsListener("front", { route_config: routes("cb") })]);
    await cp.reload();
    await until(async () => {
      const p = portOf("front");
      return p > 0 && (await body(`http://127.0.0.1:${p}/`).catch(() => "")) === "200 b";
    }, "the changed listener");
    // Refused: an unknown cluster in a route; the NACK names the field, the listener stays.
    write(dir, "listeners.yaml", [ldsListener("front", { route_config: routes("nope") })]);
    await cp.reload();
    await until(() => cp.replies.some((r) => r.error !== undefined), "a NACK");
    const nack = cp.replies.find((r) => r.error !== undefined)!;
    assert.equal(nack.type_url, TYPE_URLS.lds);
    assert.match(
      nack.error!,
      /resources\[0\]\.filter_chains\[0\].*route\.cluster: unknown cluster "nope"/,
    );
    assert.equal(await body(`http://127.0.0.1:${portOf("front")}/`), "200 b");
    // Removed.
    const port = portOf("front");
    write(dir, "listeners.yaml", []);
    await cp.reload();
    await until(() => portOf("front") === 0, "the listener removed");
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`));
    const t = await (await fetch(`${admin}/stats?filter=^listener_manager\\.`)).text();
    assert.match(t, /listener_manager\.lds\.update_rejected: 1/);
    assert.match(t, /listener_manager\.listener_removed: 1/);
    assert.match(t, /listener_manager\.listener_modified: 1/);
  } finally {
    await proxy.close();
    await cp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("xds: a listener's routes come from RDS (rds.route_config_name over ADS) and are swapped whole on a change", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir();
  const rc = (cluster: string) => ({
    "@type": "type.googleapis.com/envoy.config.route.v3.RouteConfiguration",
    name: "api_routes",
    ...routes(cluster),
  });
  write(dir, "clusters.yaml", [edsCluster("ca"), edsCluster("cb")]);
  write(dir, "endpoints.yaml", [assignment("ca", a.addr.port), assignment("cb", b.addr.port)]);
  write(dir, "listeners.yaml", [
    ldsListener("api", { rds: { config_source: { ads: {} }, route_config_name: "api_routes" } }),
  ]);
  write(dir, "routes.yaml", [rc("ca")]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const proxy = await startTestProxy(adsBootstrap(cp.port, { lds: true, apiType: "DELTA_GRPC" }));
  const ctx = proxy.running.context;
  const admin = proxy.admin;
  const url = () =>
    `http://127.0.0.1:${ctx.listeners.listeners().find((l) => l.name === "api")?.port}/`;
  try {
    await until(async () => (await body(url())) === "200 a", "routes from RDS");
    write(dir, "routes.yaml", [rc("cb")]);
    await cp.reload();
    await until(async () => (await body(url())) === "200 b", "the changed routes");
    const dump = await (await fetch(`${admin}/config_dump?resource=dynamic_route_configs`))
      .json();
    assert.equal(dump.configs[0].route_config.name, "api_routes");
    assert.equal(dump.configs[0].version_info, "2");
    const t = await (await fetch(`${admin}/stats?filter=rds`)).text();
    assert.match(t, /http\.api\.rds\.api_routes\.update_success: 2/);
  } finally {
    await proxy.close();
    await cp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("xds-server: a file change bumps the snapshot version; a file that does not encode keeps the last snapshot", async () => {
  const dir = await Deno.makeTempDir();
  write(dir, "c.yaml", [edsCluster("web")]);
  const logs: string[] = [];
  const cp = await startXdsServer({ dir, port: 0, log: (m) => logs.push(m) });
  try {
    assert.equal(cp.version(), 1);
    write(dir, "c.yaml", [edsCluster("web"), edsCluster("api")]);
    await until(() => cp.version() === 2, "the change seen");
    write(dir, "c.yaml", [edsCluster("web", { lb_policy: "ROUND_ROBBIN" })]);
    await until(() => logs.some((l) => l.startsWith("keeping snapshot version 2")), "refusal");
    assert.match(logs.find((l) => l.startsWith("keeping"))!, /c\.yaml: resources\[0\]/);
    assert.equal(cp.version(), 2);
  } finally {
    await cp.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test('xds-server: "@unknown_fields" appends fields the resource type does not have; a bad entry is refused with its key', async () => {
  const dir = await Deno.makeTempDir();
  try {
    write(dir, "c.yaml", [{ ...edsCluster("web"), "@unknown_fields": { "999": 7 } }]);
    const any = readSnapshot(dir).get(TYPE_URLS.cds)!.get("web")!.any;
    const unknown: string[] = [];
    assert.equal(anyToJson(any, (p) => unknown.push(p)).name, "web");
    assert.deepEqual(unknown, ["#999"]);
    write(dir, "c.yaml", [{ ...edsCluster("web"), "@unknown_fields": { "0": 1 } }]);
    assert.throws(
      () => readSnapshot(dir),
      /resources\[0\]: "@unknown_fields"\.0: not a field number/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin.endpoints.init_dump: start-up waits for the first CDS update and its clusters' endpoints; /init_dump names CDS meanwhile; initial_fetch_timeout ends the wait", async () => {
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [
    edsCluster("slow", {
      eds_cluster_config: { eds_config: { ads: {}, initial_fetch_timeout: "1s" } },
    }),
  ]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const options = parseArgs(["--config-yaml", "{}"]);
  const logging = createLogging(options, {
    sink: { write() {}, reopen: () => Promise.resolve(), close() {} },
  });
  const holder: { init: InitManager | null } = { init: null };
  const dump = () => JSON.stringify(holder.init?.dump() ?? null);
  const starting = startServer(options, {
    dynamic_resources: {
      cds_config: { ads: {} },
      ads_config: {
        api_type: "GRPC",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds_cluster" } }],
      },
    },
    static_resources: {
      clusters: [{
        name: "xds_cluster",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "xds_cluster",
          endpoints: [{ lb_endpoints: [endpoint(cp.port)] }],
        },
      }],
    },
  }, { signals: false, logging, onInit: (m) => holder.init = m });
  try {
    await until(() => /target CDS/.test(dump()), "CDS in /init_dump");
    const running = await starting;
    try {
      assert.equal(running.context.state(), "LIVE");
      assert.doesNotMatch(dump(), /target CDS/);
      const store = (running.context as unknown as { stats: Store }).stats;
      assert.equal(store.counter("cluster.slow.init_fetch_timeout").value(), 1);
    } finally {
      await running.shutdown();
      await running.finished;
    }
  } finally {
    logging.close();
    await cp.close();
    await Deno.remove(dir, { recursive: true });
  }
});
