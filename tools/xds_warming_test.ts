/**
 * Listener warming over LDS: a listener added or changed whose HTTP connection manager takes its
 * routes from RDS stays warming (`listener_manager.total_listeners_warming`, `/config_dump`
 * `dynamic_listeners[].warming_state`) until its route configuration arrived; meanwhile the old
 * listener goes on serving, and then the warmed one replaces it.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { startXdsServer } from "./xds_server.ts";
import {
  adsBootstrap,
  assignment,
  body,
  edsCluster,
  origin,
  startTestProxy,
  until,
  write,
} from "./xds_testing.ts";

const HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3." +
  "HttpConnectionManager";
const ROUTER = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router";

/** An LDS listener whose routes are the RDS resource `routes` (no initial fetch timeout). */
function rdsListener(name: string, routes: string, statPrefix = name): JsonObject {
  return {
    "@type": "type.googleapis.com/envoy.config.listener.v3.Listener",
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type": HCM,
          stat_prefix: statPrefix,
          rds: {
            config_source: { ads: {}, initial_fetch_timeout: "0s" },
            route_config_name: routes,
          },
          http_filters: [{ name: "envoy.filters.http.router", typed_config: { "@type": ROUTER } }],
        },
      }],
    }],
  };
}

/** A RouteConfiguration `name` sending everything to `cluster`. */
function routeConfig(name: string, cluster: string): JsonObject {
  return {
    "@type": "type.googleapis.com/envoy.config.route.v3.RouteConfiguration",
    name,
    virtual_hosts: [{
      name: "all",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster } }],
    }],
  };
}

Deno.test("xds: a listener added or changed over LDS with RDS routes warms until its routes arrive (total_listeners_warming, warming_state), the old one serving meanwhile", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("ca"), edsCluster("cb")]);
  write(dir, "endpoints.yaml", [assignment("ca", a.addr.port), assignment("cb", b.addr.port)]);
  write(dir, "listeners.yaml", [rdsListener("api", "r1")]);
  write(dir, "routes.yaml", [routeConfig("r1", "ca")]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const proxy = await startTestProxy(adsBootstrap(cp.port, { lds: true }));
  const { admin, stat, portOf } = proxy;
  const listenerDump = async () =>
    (await (await fetch(`${admin}/config_dump?resource=dynamic_listeners`)).json())
      .configs as JsonObject[];
  try {
    // Start-up waited for the first listener's routes.
    const first = portOf("api");
    assert.equal(await body(`http://127.0.0.1:${first}/`), "200 a");
    assert.equal(await stat("listener_manager.total_listeners_warming"), "0");

    // Changed to routes the control plane does not have yet, and another listener added: both
    // warm; the old "api" goes on serving; "extra" is not listening.
    write(dir, "listeners.yaml", [rdsListener("api", "r2"), rdsListener("extra", "r3")]);
    await cp.reload();
    await until(
      async () => (await stat("listener_manager.total_listeners_warming")) === "2",
      "two listeners warming",
    );
    assert.equal(portOf("api"), first);
    assert.equal(portOf("extra"), 0);
    assert.equal(await body(`http://127.0.0.1:${first}/`), "200 a");
    const warming = await listenerDump();
    const api = warming.find((l) => l.name === "api")!;
    assert.equal((api.active_state as JsonObject).version_info, "1");
    assert.equal((api.warming_state as JsonObject).version_info, "2");
    const extra = warming.find((l) => l.name === "extra")!;
    assert.equal(extra.active_state, undefined);
    assert.equal((extra.warming_state as JsonObject).version_info, "2");
    assert.equal(await stat("listener_manager.listener_modified"), "1");
    assert.equal(await stat("listener_manager.listener_added"), "2");

    // The routes arrive: the warmed listeners become active, "api" now routes to cb.
    write(dir, "routes.yaml", [
      routeConfig("r1", "ca"),
      routeConfig("r2", "cb"),
      routeConfig("r3", "ca"),
    ]);
    await cp.reload();
    await until(
      async () => (await stat("listener_manager.total_listeners_warming")) === "0",
      "the listeners warmed",
    );
    await until(async () => {
      const p = portOf("api");
      return p > 0 && (await body(`http://127.0.0.1:${p}/`).catch(() => "")) === "200 b";
    }, "the warmed api listener serving");
    await until(async () => {
      const p = portOf("extra");
      return p > 0 && (await body(`http://127.0.0.1:${p}/`).catch(() => "")) === "200 a";
    }, "the warmed extra listener serving");
    const after = await listenerDump();
    assert.ok(after.every((l) => l.warming_state === undefined), JSON.stringify(after));

    // Changed again, on routes already taken: the control plane does not send them again, the
    // new listener gets them at once and replaces the old one.
    write(dir, "listeners.yaml", [rdsListener("api", "r2", "api2"), rdsListener("extra", "r3")]);
    await cp.reload();
    await until(
      async () => (await stat("http.api2.rds.r2.update_success")) === "1",
      "the changed listener's routes",
    );
    await until(
      async () => (await stat("listener_manager.total_listeners_warming")) === "0",
      "the changed listener warmed",
    );
    await until(async () => {
      const p = portOf("api");
      return p > 0 && (await body(`http://127.0.0.1:${p}/`).catch(() => "")) === "200 b";
    }, "the changed api listener serving");
    // The answer came through the new version (its connection manager's stat prefix).
    assert.ok(
      Number(await stat("http.api2.downstream_rq_total")) >= 1,
      "served by the new version",
    );

    // A warming listener removed by the next update leaves without ever serving.
    write(dir, "listeners.yaml", [rdsListener("api", "r2"), rdsListener("extra", "r4")]);
    await cp.reload();
    await until(
      async () => (await stat("listener_manager.total_listeners_warming")) === "1",
      "extra warming again",
    );
    write(dir, "listeners.yaml", [rdsListener("api", "r2")]);
    await cp.reload();
    await until(
      async () => (await stat("listener_manager.total_listeners_warming")) === "0",
      "the warming listener dropped",
    );
    await until(() => portOf("extra") === 0, "extra removed");
    assert.ok((await listenerDump()).every((l) => l.name !== "extra"));
  } finally {
    await proxy.close();
    await cp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin.endpoints.init_dump-mask, admin.endpoints.config_dump-resource: a CDS cluster waiting for its EDS endpoints after start-up is listed under the cluster component and in dynamic_warming_clusters until they arrive", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("ca")]);
  write(dir, "endpoints.yaml", [assignment("ca", a.addr.port)]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const proxy = await startTestProxy(adsBootstrap(cp.port));
  const initDump = async (mask: string) =>
    JSON.stringify(await (await fetch(`${proxy.admin}/init_dump?mask=${mask}`)).json());
  try {
    assert.doesNotMatch(await initDump("cluster"), /init manager/);
    write(dir, "clusters.yaml", [
      edsCluster("ca"),
      edsCluster("late", {
        eds_cluster_config: { eds_config: { ads: {}, initial_fetch_timeout: "0s" } },
      }),
    ]);
    await cp.reload();
    await until(async () => (await initDump("cluster")).includes("late"), "late warming");
    assert.deepEqual(JSON.parse(await initDump("cluster")).unready_targets_dumps, [
      { name: "init manager Cluster late", target_names: ["target cluster late"] },
    ]);
    assert.doesNotMatch(await initDump("listener"), /late/);
    // /config_dump shows it under dynamic_warming_clusters, not yet active.
    const clusters = async (resource: string) =>
      ((await (await fetch(`${proxy.admin}/config_dump?resource=${resource}`)).json())
        .configs as { cluster: JsonObject }[] | undefined ?? []).map((c) => c.cluster.name);
    assert.deepEqual(await clusters("dynamic_warming_clusters"), ["late"]);
    assert.deepEqual(await clusters("dynamic_active_clusters"), ["ca"]);
    write(dir, "endpoints.yaml", [
      assignment("ca", a.addr.port),
      assignment("late", a.addr.port),
    ]);
    await cp.reload();
    await until(async () => !(await initDump("cluster")).includes("late"), "late warmed");
    assert.deepEqual(await clusters("dynamic_warming_clusters"), []);
    assert.deepEqual((await clusters("dynamic_active_clusters")).sort(), ["ca", "late"]);
  } finally {
    await proxy.close();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
