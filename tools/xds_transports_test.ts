/**
 * How the proxy reaches a control plane: REST polling (`api_type: REST`), gRPC over TLS to an
 * `envoy_grpc` cluster with a TLS transport socket, and `google_grpc` target URIs with their
 * channel credentials, each against `tools/xds_server.ts`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { Store } from "../src/stats/store.ts";
import { ClusterManager } from "../src/upstream/cluster_manager.ts";
import { testCluster } from "../src/upstream/test_cluster.ts";
import { TYPE_URLS } from "../src/config/xds_wire.ts";
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
import { PROTOBUF } from "../src/config/protobuf_module.ts";

// These tests build cluster managers directly; the server start-up would load the protobuf runtime.
await PROTOBUF.load();

const TLS_DIR = fileURLToPath(new URL("../fixtures/tls/", import.meta.url));
const pem = (f: string) => Deno.readTextFileSync(`${TLS_DIR}${f}`);
const SERVER_TLS = { cert: pem("server.pem"), key: pem("server.key") };

const ROUTE_ALL: JsonObject = {
  static_resources: {
    listeners: [{
      name: "http",
      address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
      filter_chains: [{
        filters: [{
          name: "envoy.filters.network.http_connection_manager",
          typed_config: {
            "@type": "type.googleapis.com/envoy.extensions.filters.network." +
              "http_connection_manager.v3.HttpConnectionManager",
            stat_prefix: "in",
            route_config: {
              validate_clusters: false,
              virtual_hosts: [{
                name: "all",
                domains: ["*"],
                routes: [{ match: { prefix: "/" }, route: { cluster: "web" } }],
              }],
            },
            http_filters: [{ name: "envoy.filters.http.router" }],
          },
        }],
      }],
    }],
  },
};

Deno.test("core.ConfigSource.api_config_source: REST polls the control plane every refresh_delay, follows changes, and a refused update is NACKed in the next poll with the field path", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir();
  const rest = {
    api_type: "REST",
    cluster_names: ["xds"],
    refresh_delay: "0.05s",
    request_timeout: "2s",
  };
  const restEds = (name: string, extra: JsonObject = {}) =>
    edsCluster(name, { eds_cluster_config: { eds_config: { api_config_source: rest } }, ...extra });
  write(dir, "all.yaml", [restEds("web"), assignment("web", a.addr.port)]);
  const cp = await startXdsServer({ dir, port: 0, restPort: 0, watch: false, log: () => {} });
  const store = new Store();
  const cm = new ClusterManager([testCluster("xds", [["127.0.0.1", cp.restPort!]])], {
    stats: store,
    cds: { api_config_source: rest },
    node: { id: "rest-node" },
  });
  const hostsOf = (n: string) => cm.get(n)?.hosts().map((h) => h.port) ?? [];
  try {
    await cm.start();
    assert.deepEqual(hostsOf("web"), [a.addr.port]);
    assert.equal(cm.versionInfo(), "1");
    assert.equal(store.counter("cluster_manager.cds.update_success").value(), 1);
    // A change is picked up by a later poll.
    write(dir, "all.yaml", [
      restEds("web"),
      restEds("api"),
      assignment("web", b.addr.port),
      assignment("api", a.addr.port),
    ]);
    await cp.reload();
    await until(() => hostsOf("web")[0] === b.addr.port, "the new endpoint");
    await until(() => cm.get("api") !== undefined, "the new cluster");
    assert.equal(cm.versionInfo(), "2");
    await until(
      () => cp.replies.some((r) => r.node === "rest-node" && r.version_info === "2"),
      "the ACK of version 2 in a later poll",
    );
    // A refused update: the next poll carries error_detail; the last good config stays.
    write(dir, "all.yaml", [restEds("web", { connect_timeout: "-1s" })]);
    await cp.reload();
    await until(() => cp.replies.some((r) => r.error !== undefined), "a NACK");
    const nack = cp.replies.find((r) => r.error !== undefined)!;
    assert.equal(nack.type_url, TYPE_URLS.cds);
    assert.equal(nack.version_info, "2");
    assert.match(nack.error!, /resources\[0\]\.connect_timeout/);
    assert.ok(store.counter("cluster_manager.cds.update_rejected").value() >= 1);
    assert.equal(cm.versionInfo(), "2");
    assert.ok(cm.get("api"));
  } finally {
    await cm.close();
    await cp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("core.ConfigSource.api_config_source: a REST control plane that does not answer within request_timeout is counted as update_failure", async () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const c of silent) held.push(c);
  })().catch(() => {});
  const store = new Store();
  const cm = new ClusterManager(
    [testCluster("xds", [["127.0.0.1", (silent.addr as Deno.NetAddr).port]])],
    {
      stats: store,
      cds: {
        api_config_source: {
          api_type: "REST",
          cluster_names: ["xds"],
          refresh_delay: "1s",
          request_timeout: "0.1s",
        },
      },
      xdsBackoffMs: 60_000,
    },
  );
  try {
    await cm.start();
    assert.equal(store.counter("cluster_manager.cds.update_failure").value(), 1);
    assert.equal(store.counter("cluster_manager.cds.update_success").value(), 0);
  } finally {
    await cm.close();
    silent.close();
    for (const c of held) c.close();
  }
});

Deno.test("core.ConfigSource.api_config_source: REST to a cluster with a TLS transport socket polls over TLS, verifying the control plane with the cluster's CA and SNI; another CA's control plane gives nothing and a counted failure", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  const rest = {
    api_type: "REST",
    cluster_names: ["xds"],
    refresh_delay: "0.05s",
    request_timeout: "2s",
  };
  const restEds = (name: string) =>
    edsCluster(name, { eds_cluster_config: { eds_config: { api_config_source: rest } } });
  write(dir, "all.yaml", [restEds("web"), assignment("web", a.addr.port)]);
  const cp = await startXdsServer({
    dir,
    port: 0,
    restPort: 0,
    tls: SERVER_TLS,
    watch: false,
    log: () => {},
  });
  const manager = (ca: string) => {
    const store = new Store();
    const cm = new ClusterManager(
      [testCluster("xds", [["127.0.0.1", cp.restPort!]], {
        tls: { sni: "backend.example", trustedCa: [pem(ca)] },
      })],
      {
        stats: store,
        cds: { api_config_source: rest, initial_fetch_timeout: "5s" },
        node: { id: "rest-tls" },
        xdsBackoffMs: 60_000,
      },
    );
    return { store, cm };
  };
  const good = manager("ca.pem");
  const bad = manager("other.pem");
  try {
    await good.cm.start();
    assert.deepEqual(good.cm.get("web")?.hosts().map((h) => h.port), [a.addr.port]);
    assert.equal(good.store.counter("cluster_manager.cds.update_success").value(), 1);
    await until(
      () => cp.replies.some((r) => r.node === "rest-tls" && r.version_info === "1"),
      "the ACK in a later poll over TLS",
    );
    await bad.cm.start();
    assert.equal(bad.cm.get("web"), undefined);
    assert.equal(bad.store.counter("cluster_manager.cds.update_failure").value(), 1);
    assert.equal(bad.store.counter("cluster_manager.cds.update_success").value(), 0);
  } finally {
    await good.cm.close();
    await bad.cm.close();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DynamicResources.ads_config: an envoy_grpc cluster with a TLS transport socket reaches the control plane over TLS (h2), verifying it with the cluster's CA and SNI", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  write(dir, "all.yaml", [edsCluster("web"), assignment("web", a.addr.port)]);
  const cp = await startXdsServer({ dir, port: 0, tls: SERVER_TLS, watch: false, log: () => {} });
  const tls = (ca: string) => ({
    transport_socket: {
      name: "envoy.transport_sockets.tls",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3." +
          "UpstreamTlsContext",
        sni: "backend.example",
        common_tls_context: { validation_context: { trusted_ca: { filename: ca } } },
      },
    },
  });
  const proxy = await startTestProxy(
    adsBootstrap(cp.port, { cluster: tls(`${TLS_DIR}ca.pem`), extra: ROUTE_ALL }),
  );
  try {
    assert.equal(await body(`http://127.0.0.1:${proxy.portOf("http")}/`), "200 a");
    assert.equal(await proxy.stat("cluster_manager.cds.update_success"), "1");
  } finally {
    await proxy.close();
  }
  // A CA that did not sign the control plane's certificate: no update, a counted failure.
  const store = new Store();
  const cm = new ClusterManager(
    [testCluster("xds", [["127.0.0.1", cp.port]], {
      tls: { sni: "backend.example", trustedCa: [pem("other.pem")] },
    })],
    {
      stats: store,
      cds: { ads: {}, initial_fetch_timeout: "5s" },
      ads: {
        api_type: "GRPC",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
      },
      xdsBackoffMs: 60_000,
    },
  );
  try {
    await cm.start();
    assert.equal(store.counter("cluster_manager.cds.update_failure").value(), 1);
    assert.equal(cm.get("web"), undefined);
  } finally {
    await cm.close();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("core.ConfigSource.api_config_source: google_grpc reaches target_uri with ssl_credentials and counts streams under grpc.<stat_prefix>", async () => {
  const a = origin("a");
  const dir = await Deno.makeTempDir();
  write(dir, "all.yaml", [edsCluster("web"), assignment("web", a.addr.port)]);
  const cp = await startXdsServer({ dir, port: 0, tls: SERVER_TLS, watch: false, log: () => {} });
  const store = new Store();
  const cm = new ClusterManager([], {
    stats: store,
    cds: { ads: {} },
    ads: {
      api_type: "GRPC",
      grpc_services: [{
        google_grpc: {
          target_uri: `localhost:${cp.port}`,
          stat_prefix: "cp",
          channel_credentials: {
            ssl_credentials: { root_certs: { filename: `${TLS_DIR}ca.pem` } },
          },
        },
      }],
    },
  });
  try {
    await cm.start();
    assert.deepEqual(cm.get("web")?.hosts().map((h) => h.port), [a.addr.port]);
    assert.equal(store.counter("grpc.cp.streams_total").value(), 1);
  } finally {
    await cm.close();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("core.ConfigSource.api_config_source: google_grpc ssl_credentials without root_certs verifies the server against the system's roots (a test CA's certificate is refused)", async () => {
  const dir = await Deno.makeTempDir();
  write(dir, "all.yaml", [edsCluster("web"), assignment("web", 1)]);
  const cp = await startXdsServer({ dir, port: 0, tls: SERVER_TLS, watch: false, log: () => {} });
  const store = new Store();
  const cm = new ClusterManager([], {
    stats: store,
    cds: { ads: {}, initial_fetch_timeout: "0.5s" },
    ads: {
      api_type: "GRPC",
      grpc_services: [{
        google_grpc: {
          target_uri: `localhost:${cp.port}`,
          stat_prefix: "cp",
          channel_credentials: { ssl_credentials: {} },
        },
      }],
    },
    xdsBackoffMs: 50,
  });
  try {
    await cm.start();
    assert.equal(cm.get("web"), undefined, "nothing came from an unverified server");
    await until(
      () => store.counter("cluster_manager.cds.update_failure").value() >= 1,
      "the connection failure to be counted",
    );
  } finally {
    await cm.close();
    await cp.close();
    await Deno.remove(dir, { recursive: true });
  }
});
