/**
 * LDS changes drain: a listener that LDS changes stops accepting, its successor serves new
 * connections on the same address at once, and its requests in flight finish; the draining
 * listener is counted and shown by `/config_dump` until its connections are gone.
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

function listener(cluster: string, port = 0): JsonObject {
  return {
    "@type": "type.googleapis.com/envoy.config.listener.v3.Listener",
    name: "front",
    address: { socket_address: { address: "127.0.0.1", port_value: port } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type": HCM,
          stat_prefix: "front",
          route_config: {
            virtual_hosts: [{
              name: "all",
              domains: ["*"],
              routes: [{ match: { prefix: "/" }, route: { cluster } }],
            }],
          },
          http_filters: [{ name: "envoy.filters.http.router" }],
        },
      }],
    }],
  };
}

Deno.test("listener_manager: a listener changed by LDS drains its old version (requests in flight finish) while the new one serves new connections; draining is counted and dumped", async () => {
  let release = () => {};
  const held = new Promise<void>((r) => release = r);
  const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await held;
    return new Response("slow");
  });
  const b = origin("b");
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("ca"), edsCluster("cb")]);
  write(dir, "endpoints.yaml", [
    assignment("ca", slow.addr.port),
    assignment("cb", b.addr.port),
  ]);
  write(dir, "listeners.yaml", [listener("ca", port)]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const proxy = await startTestProxy(adsBootstrap(cp.port, { lds: true }), [
    "--drain-time-s",
    "60",
  ]);
  const client = Deno.createHttpClient({});
  try {
    assert.equal(proxy.portOf("front"), port);
    // A request in flight on the first version of the listener.
    const inFlight = fetch(`http://127.0.0.1:${port}/`, { client });
    await until(async () => (await proxy.stat("cluster.ca.upstream_rq_active")) === "1", "rq");
    write(dir, "listeners.yaml", [listener("cb", port)]);
    await cp.reload();
    await until(
      async () => (await proxy.stat("listener_manager.listener_modified")) === "1",
      "the change applied",
    );
    await until(async () => {
      const c = Deno.createHttpClient({});
      try {
        return (await body2(`http://127.0.0.1:${port}/`, c)) === "200 b";
      } finally {
        c.close();
      }
    }, "the new version serving on the same port");
    assert.equal(await proxy.stat("listener_manager.total_listeners_draining"), "1");
    assert.equal(await proxy.stat("listener_manager.total_listeners_active"), "1");
    assert.equal(await proxy.stat("listener_manager.listener_modified"), "1");
    const dump = await (await fetch(`${proxy.admin}/config_dump?resource=dynamic_listeners`))
      .json();
    assert.equal(dump.configs.length, 1);
    assert.equal(dump.configs[0].active_state.version_info, "2");
    assert.equal(dump.configs[0].draining_state.version_info, "1");
    // The old version's request is answered, not dropped; then the old version is gone.
    release();
    const r = await inFlight;
    assert.equal(`${r.status} ${await r.text()}`, "200 slow");
    await until(
      async () => (await proxy.stat("listener_manager.total_listeners_draining")) === "0",
      "the drain to end",
    );
    const after = await (await fetch(`${proxy.admin}/config_dump?resource=dynamic_listeners`))
      .json();
    assert.equal(after.configs[0].draining_state, undefined);
    // Removed: it drains too, and its port closes.
    write(dir, "listeners.yaml", []);
    await cp.reload();
    await until(() => proxy.portOf("front") === 0, "the listener removed");
    assert.equal(await proxy.stat("listener_manager.listener_removed"), "1");
    await assert.rejects(body(`http://127.0.0.1:${port}/`));
  } finally {
    release();
    client.close();
    await proxy.close();
    await cp.close();
    await slow.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

async function body2(url: string, client: Deno.HttpClient): Promise<string> {
  try {
    const r = await fetch(url, { client });
    return `${r.status} ${await r.text()}`;
  } catch {
    return "";
  }
}

Deno.test("listener_manager: a TCP-proxy listener removed by LDS drains: its open connection keeps flowing and is counted draining until it closes", async () => {
  const echo = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  (async () => {
    for await (const c of echo) c.readable.pipeTo(c.writable).catch(() => {});
  })();
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("echo")]);
  write(dir, "endpoints.yaml", [assignment("echo", (echo.addr as Deno.NetAddr).port)]);
  write(dir, "listeners.yaml", [{
    "@type": "type.googleapis.com/envoy.config.listener.v3.Listener",
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.tcp_proxy",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
          stat_prefix: "t",
          cluster: "echo",
        },
      }],
    }],
  }]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const proxy = await startTestProxy(adsBootstrap(cp.port, { lds: true }), [
    "--drain-time-s",
    "60",
  ]);
  const enc = new TextEncoder();
  const roundTrip = async (c: Deno.Conn, text: string) => {
    await c.write(enc.encode(text));
    const b = new Uint8Array(64);
    const n = await c.read(b);
    return n === null ? "" : new TextDecoder().decode(b.subarray(0, n));
  };
  let conn: Deno.Conn | null = null;
  try {
    await until(() => proxy.portOf("tcp") > 0, "the listener");
    conn = await Deno.connect({ hostname: "127.0.0.1", port: proxy.portOf("tcp") });
    assert.equal(await roundTrip(conn, "one"), "one");
    write(dir, "listeners.yaml", []);
    await cp.reload();
    await until(() => proxy.portOf("tcp") === 0, "the listener removed");
    assert.equal(await proxy.stat("listener_manager.total_listeners_draining"), "1");
    assert.equal(await roundTrip(conn, "two"), "two", "the open connection still flows");
    conn.close();
    conn = null;
    await until(
      async () => (await proxy.stat("listener_manager.total_listeners_draining")) === "0",
      "the drain to end with its last connection",
    );
  } finally {
    conn?.close();
    await proxy.close();
    await cp.close();
    echo.close();
    await Deno.remove(dir, { recursive: true });
  }
});
