import assert from "node:assert/strict";
import { join } from "node:path";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "../upstream/cluster_manager.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import type { ListenerView } from "../listener/types.ts";
import { WorkerLds } from "./worker_listeners.ts";
import type { ListenerChange } from "./worker_protocol.ts";

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

/**
 * A {@linkcode WorkerLds} on an LDS file, with two fake workers: `answer(index, token)` is what
 * each says to `listener_prepare` (an error, or null for "bound").
 */
async function setUp(answer: (index: number) => string | null) {
  const dir = await Deno.makeTempDir();
  const file = join(dir, "lds.json");
  const store = new Store();
  const cm = new ClusterManager([testCluster("c", [])], { stats: store });
  const sent: Array<[number | "all", ListenerChange]> = [];
  const logs: string[] = [];
  let lds: WorkerLds | null = null;
  let started = false;
  const live: ListenerView[] = [];
  lds = new WorkerLds({ path_config_source: { path: file } }, {
    clusters: cm,
    store,
    log: (level, msg) => logs.push(`${level} ${msg}`),
    workers: {
      running: () => [0, 1],
      send: (i, m) => {
        sent.push([i, m]);
        if (m.type === "listener_prepare") {
          const error = answer(i);
          queueMicrotask(() =>
            lds!.answered(i, {
              type: "listener_prepared",
              id: m.id,
              port: error === null ? m.port : null,
              error,
            })
          );
        }
      },
      broadcast: (m) => sent.push(["all", m]),
    },
    routes: () => null,
    live: () => live,
    stopped: () => new Set(),
    staticNames: new Set(),
    answerMs: 5_000,
  });
  return {
    store,
    sent,
    logs,
    /**
     * Writes an update; the first call starts the subscription, later ones wait until the
     * workers heard `last` (the message type that ends the update).
     */
    async load(resources: unknown[], version = "1", last = "") {
      await Deno.writeTextFile(`${file}.tmp`, JSON.stringify({ version_info: version, resources }));
      await Deno.rename(`${file}.tmp`, file);
      if (!started) {
        started = true;
        await lds!.start();
        return;
      }
      for (let i = 0; i < 1000 && !sent.some(([, m]) => m.type === last); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      await lds!.close();
      await cm.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("cli.options.concurrency: LDS with workers, a listener every worker bound is put in service everywhere (listener_commit) and counted added once", async () => {
  const t = await setUp(() => null);
  try {
    await t.load([tcpListener("t", 0)]);
    const prepares = t.sent.filter(([, m]) => m.type === "listener_prepare");
    assert.deepEqual(prepares.map(([i]) => i), [0, 1]);
    const port = (prepares[0][1] as { port: number }).port;
    assert.ok(port > 0, "the main thread chose the port of a port-0 listener for every worker");
    assert.equal((prepares[1][1] as { port: number }).port, port);
    assert.deepEqual(t.sent.filter(([, m]) => m.type === "listener_commit").map(([i]) => i), [
      "all",
    ]);
    assert.equal(t.store.counter("listener_manager.listener_added").value(), 1);
    assert.equal(t.store.counter("listener_manager.listener_create_failure").value(), 0);
  } finally {
    await t.close();
  }
});

Deno.test("cli.options.concurrency: LDS with workers, a listener one worker cannot bind is closed on every worker (listener_abort), counted once in listener_create_failure and listener_removed, and logged critical with its address", async () => {
  const t = await setUp((i) => i === 1 ? "cannot bind '127.0.0.1:1': Address in use" : null);
  try {
    await t.load([tcpListener("t", 0)]);
    const kinds = t.sent.map(([i, m]) => `${i} ${m.type}`);
    assert.deepEqual(kinds, ["0 listener_prepare", "1 listener_prepare", "all listener_abort"]);
    assert.equal(t.store.counter("listener_manager.listener_create_failure").value(), 1);
    assert.equal(t.store.counter("listener_manager.listener_removed").value(), 1);
    assert.ok(
      t.logs.some((l) =>
        /^critical listener 't' failed to listen on address '127\.0\.0\.1:\d+' on worker: worker 1:/
          .test(l)
      ),
      t.logs.join("\n"),
    );
  } finally {
    await t.close();
  }
});

Deno.test("cli.options.concurrency: LDS with workers, when one worker cannot bind a listener's new version the listener is removed by name on every worker (the version in service too), as Envoy's listener manager does", async () => {
  let failOn: number | null = null;
  const t = await setUp((i) => i === failOn ? "cannot bind '127.0.0.1:1': Address in use" : null);
  try {
    await t.load([tcpListener("t", 0)]);
    assert.equal(t.store.counter("listener_manager.listener_added").value(), 1);
    t.sent.length = 0;
    failOn = 0;
    const changed = { ...tcpListener("t", 0), per_connection_buffer_limit_bytes: 65536 };
    await t.load([changed], "2", "listener_remove");
    const kinds = t.sent.map(([i, m]) =>
      `${i} ${m.type}${m.type === "listener_remove" ? ` ${m.name}` : ""}`
    );
    assert.deepEqual(kinds, [
      "0 listener_prepare",
      "1 listener_prepare",
      "all listener_abort",
      "all listener_remove t",
    ]);
    assert.equal(t.store.counter("listener_manager.listener_modified").value(), 1);
    assert.equal(t.store.counter("listener_manager.listener_create_failure").value(), 1);
    assert.equal(t.store.counter("listener_manager.listener_removed").value(), 1);
    // The same configuration again is a new listener (nothing of that name is left).
    t.sent.length = 0;
    failOn = null;
    await t.load([changed], "3", "listener_commit");
    assert.deepEqual(t.sent.map(([i, m]) => `${i} ${m.type}`), [
      "0 listener_prepare",
      "1 listener_prepare",
      "all listener_commit",
    ]);
    assert.equal(t.store.counter("listener_manager.listener_added").value(), 2);
  } finally {
    await t.close();
  }
});

Deno.test("cli.options.concurrency: LDS with workers, an address another socket holds refuses the whole LDS update before any worker hears of it", async () => {
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (held.addr as Deno.NetAddr).port;
  const t = await setUp(() => null);
  try {
    await t.load([tcpListener("ok", 0), tcpListener("busy", port)]);
    assert.deepEqual(t.sent, []);
    assert.equal(t.store.counter("listener_manager.lds.update_rejected").value(), 1);
    assert.equal(t.store.counter("listener_manager.listener_added").value(), 0);
  } finally {
    held.close();
    await t.close();
  }
});
