import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { ListenerManager } from "./listener_manager.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { validateListeners } from "./validate_listeners.ts";
import { ConfigLoadError } from "../config/errors.ts";

const rc = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, direct_response: { status: 200 } }],
  }],
};

Deno.test("listener port 0 binds a free port that ListenerView.port shows", async () => {
  const p = await startTestProxy([httpListener(rc)], []);
  try {
    const v = p.lm.listeners()[0];
    assert.equal(v.name, "test_http");
    assert.equal(v.address, "127.0.0.1");
    assert.ok(v.port > 0);
    const r = await fetch(`http://127.0.0.1:${v.port}/`);
    await r.body?.cancel();
    assert.equal(r.status, 200);
  } finally {
    await p.close();
  }
});

Deno.test("listener without a name gets a generated (UUID) name, as Envoy does", async () => {
  const l = httpListener(rc);
  delete l.name;
  const p = await startTestProxy([l], []);
  try {
    assert.match(p.lm.listeners()[0].name, /^[0-9a-f-]{36}$/);
  } finally {
    await p.close();
  }
});

Deno.test("admin.states.drain-listeners: drain stops listeners; inboundonly only INBOUND ones", async () => {
  const inbound = { ...httpListener(rc), name: "in", traffic_direction: "INBOUND" };
  const outbound = { ...httpListener(rc), name: "out", traffic_direction: "OUTBOUND" };
  const p = await startTestProxy([inbound, outbound], []);
  try {
    await p.lm.drain({ inboundOnly: true, graceful: false });
    const [i, o] = p.lm.listeners();
    assert.equal(i.stopped, true);
    assert.equal(o.stopped, false);
    assert.deepEqual([...p.lm.stoppedDirections()], ["INBOUND"]);
    await assert.rejects(() => fetch(`http://127.0.0.1:${i.port}/`));
    const r = await fetch(`http://127.0.0.1:${o.port}/`);
    await r.body?.cancel();
    assert.equal(r.status, 200);
    await p.lm.drain({ inboundOnly: false, graceful: false });
    assert.equal(p.lm.listeners()[1].stopped, true);
    assert.ok(p.lm.stoppedDirections().has("ALL"));
    assert.equal(p.store.counter("listener_manager.listener_stopped").value(), 2);
  } finally {
    await p.close();
  }
});

Deno.test("admin.states.drain-listeners limits.drain-time-s: graceful drain asks clients to close at once with the immediate strategy", async () => {
  const store = new Store();
  const cm = new ClusterManager([], { stats: store });
  const lm = new ListenerManager([httpListener(rc)], {
    clusters: cm,
    stats: store,
    hooks: {
      healthCheckFailed: () => false,
      localAddressIpVersion: "v4",
      drainTimeS: 600,
      drainStrategy: "immediate",
      log: () => {},
    },
  });
  await lm.start();
  try {
    await lm.drain({ inboundOnly: false, graceful: true });
    assert.equal(lm.listeners()[0].stopped, false);
    const r = await fetch(`http://127.0.0.1:${lm.listeners()[0].port}/`);
    await r.body?.cancel();
    assert.equal(r.headers.get("connection"), "close");
    assert.equal(store.gauge("listener_manager.total_listeners_draining").value(), 1);
  } finally {
    await lm.close();
    await cm.close();
  }
});

Deno.test("listener validation reports errors with paths: address, port, cluster, filters", () => {
  const errs = validateListeners(
    [
      { address: { socket_address: { address: "not-an-ip", port_value: 80 } }, filter_chains: [] },
      {
        address: { socket_address: { address: "127.0.0.1", port_value: 70000 } },
        filter_chains: [{
          filters: [{ name: "envoy.tcp_proxy", config: { stat_prefix: "t", cluster: "missing" } }],
        }],
      },
      {
        address: { socket_address: { address: "127.0.0.1", port_value: 1 } },
        filter_chains: [{
          filters: [{ name: "envoy.filters.network.redis_proxy", typed_config: {} }],
        }],
      },
      httpListener({
        virtual_hosts: [{
          domains: ["*"],
          routes: [{ match: { safe_regex: { regex: "(" } }, route: { cluster: "c" } }],
        }],
      }),
    ],
    "static_resources.listeners",
    new Set(["c"]),
  );
  const paths = errs.map((e) => e.path);
  assert.deepEqual(paths, [
    "static_resources.listeners[0].address.socket_address.address",
    "static_resources.listeners[0].filter_chains",
    "static_resources.listeners[1].address.socket_address.port_value",
    "static_resources.listeners[1].filter_chains[0].filters[0].config.cluster",
    "static_resources.listeners[2].filter_chains[0].filters[0].name",
    "static_resources.listeners[3].filter_chains[0].filters[0].typed_config.route_config.virtual_hosts[0].routes[0].match.safe_regex.regex",
  ]);
});

Deno.test("listener manager constructor throws ConfigLoadError for an unknown route cluster", () => {
  const store = new Store();
  const cm = new ClusterManager([testCluster("c", [])], { stats: store });
  assert.throws(
    () =>
      new ListenerManager([
        httpListener({
          virtual_hosts: [{
            domains: ["*"],
            routes: [{ match: { prefix: "/" }, route: { cluster: "nope" } }],
          }],
        }),
      ], {
        clusters: cm,
        stats: store,
        hooks: {
          healthCheckFailed: () => false,
          localAddressIpVersion: "v4",
          drainTimeS: 1,
          drainStrategy: "gradual",
          log: () => {},
        },
      }),
    (e: unknown) => e instanceof ConfigLoadError && /unknown cluster "nope"/.test(e.message),
  );
});
