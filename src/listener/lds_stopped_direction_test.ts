import assert from "node:assert/strict";
import { join } from "node:path";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { ListenerManager } from "./listener_manager.ts";
import { httpListener } from "./test_proxy.ts";

const LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener";
const rc = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, direct_response: { status: 200 } }],
  }],
};

function listener(name: string, direction: string, statPrefix = "test") {
  return {
    "@type": LISTENER,
    ...httpListener(rc, { stat_prefix: statPrefix }),
    name,
    traffic_direction: direction,
  };
}

async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(ok(), `timed out waiting for ${what}`);
}

Deno.test("admin.states.drain-listeners: once INBOUND listeners are stopped, LDS neither adds nor modifies INBOUND listeners; OUTBOUND ones still change", async () => {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "lds.json");
  const write = (version: string, resources: unknown[]) =>
    Deno.writeTextFile(file, JSON.stringify({ version_info: version, resources }));
  await write("1", [listener("in1", "INBOUND"), listener("out1", "OUTBOUND")]);
  const store = new Store();
  const logs: string[] = [];
  const cm = new ClusterManager([], { stats: store, fileDebounceMs: 10 });
  const lm = new ListenerManager([], {
    clusters: cm,
    stats: store,
    lds: { path: file },
    hooks: {
      healthCheckFailed: () => false,
      localAddressIpVersion: "v4",
      drainTimeS: 600,
      drainStrategy: "gradual",
      log: (level, msg) => logs.push(`${level} ${msg}`),
    },
  });
  const live = (name: string) => lm.listeners().find((l) => l.name === name && !l.stopped);
  try {
    await lm.start();
    await until(() => live("in1") !== undefined && live("out1") !== undefined, "LDS listeners");
    await lm.drain({ inboundOnly: true, graceful: false });
    assert.equal(live("in1"), undefined);
    await write("2", [
      listener("in1", "INBOUND", "changed"),
      listener("in2", "INBOUND"),
      listener("out1", "OUTBOUND", "changed"),
      listener("out2", "OUTBOUND"),
    ]);
    await until(() => live("out2") !== undefined, "the OUTBOUND listener added");
    assert.equal(lm.listeners().some((l) => l.name === "in2"), false);
    assert.equal(live("in1"), undefined);
    assert.equal(store.counter("listener_manager.listener_modified").value(), 1);
    assert.ok(
      logs.some((l) =>
        l.includes(
          "listener in2 can not be added because listeners in the traffic direction INBOUND are stopped",
        )
      ),
      logs.join("\n"),
    );
    assert.ok(logs.some((l) => l.includes("listener in1 can not be modified")), logs.join("\n"));
    // A full stop: OUTBOUND listeners are frozen too.
    await lm.drain({ inboundOnly: false, graceful: false });
    await write("3", [listener("out3", "OUTBOUND")]);
    await until(() => logs.some((l) => l.includes("listener out3 can not be added")), "refusal");
    assert.equal(lm.listeners().some((l) => l.name === "out3"), false);
  } finally {
    await lm.close();
    await cm.close();
    await Deno.remove(dir, { recursive: true });
  }
});
