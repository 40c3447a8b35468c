import assert from "node:assert/strict";
import { join } from "node:path";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { ListenerManager } from "./listener_manager.ts";

const LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener";

/** A TCP proxy listener `name` on 127.0.0.1:`port` to cluster `c`. */
function tcpListener(name: string, port: number) {
  return {
    "@type": LISTENER,
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: port } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.tcp_proxy",
        typed_config: { stat_prefix: name, cluster: "c" },
      }],
    }],
  };
}

/** A port free when asked. */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

Deno.test("cli.options.concurrency: LDS in one process, a listener whose bind fails after its update was checked is removed by name, counted in listener_create_failure and listener_removed, and logged critical with its address", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "lds.json");
  const port = freePort();
  const other = freePort();
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      version_info: "1",
      resources: [tcpListener("busy", port), tcpListener("free", other)],
    }),
  );
  const store = new Store();
  const cm = new ClusterManager([testCluster("c", [])], { stats: store });
  const logs: string[] = [];
  let held: Deno.Listener | null = null;
  const lm = new ListenerManager([], {
    clusters: cm,
    stats: store,
    hooks: {
      healthCheckFailed: () => false,
      localAddressIpVersion: "v4",
      drainTimeS: 0,
      drainStrategy: "immediate",
      log: (level, msg) => logs.push(`${level} ${msg}`),
    },
    lds: { path_config_source: { path: file }, resource_api_version: "V3" },
    // Another socket takes the address between the update's check and the bind.
    beforeDynamicBind: (name, address, p) => {
      if (name === "busy") held = Deno.listen({ hostname: address, port: p });
    },
  });
  try {
    await lm.start();
    assert.ok(held !== null, "the hook ran before the bind");
    assert.deepEqual(lm.listeners().map((l) => [l.name, l.port]), [["free", other]]);
    const counter = (n: string) => store.counter(`listener_manager.${n}`).value();
    assert.equal(counter("listener_create_failure"), 1);
    assert.equal(counter("listener_removed"), 1);
    assert.equal(counter("listener_create_success"), 1);
    assert.equal(store.gauge("listener_manager.total_listeners_active").value(), 1);
    assert.ok(
      logs.some((l) =>
        l.startsWith(`critical lds: listener 'busy': cannot bind '127.0.0.1:${port}': `)
      ),
      logs.join("\n"),
    );
  } finally {
    (held as Deno.Listener | null)?.close();
    await lm.close();
    await cm.close();
    await Deno.remove(dir, { recursive: true });
  }
});
