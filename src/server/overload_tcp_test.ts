/**
 * The overload manager's `stop_accepting_connections` and the global downstream connection
 * limit apply to TCP proxy listeners too, both the single-chain kind and a listener that
 * chooses among filter chains. Through real sockets.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { startTestProxy, type TestProxy } from "../listener/test_proxy.ts";
import { OverloadManager, parseOverloadManager } from "./overload_manager.ts";
import { Store } from "../stats/store.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const HEAP = "envoy.resource_monitors.fixed_heap";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tcpListener(chains: "one" | "default"): JsonObject {
  const chain = {
    filters: [{
      name: "envoy.filters.network.tcp_proxy",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
        stat_prefix: "t",
        cluster: "echo",
      },
    }],
  };
  return {
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [
      chains === "one" ? chain : { ...chain, filter_chain_match: { destination_port: 1 } },
    ],
    ...(chains === "default" ? { default_filter_chain: chain } : {}),
  };
}

/** A TCP server that echoes what it reads. */
function echoServer(): { port: number; close(): void } {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  (async () => {
    for await (const c of l) {
      conns.add(c);
      c.readable.pipeTo(c.writable).catch(() => {}).finally(() => conns.delete(c));
    }
  })().catch(() => {});
  return {
    port: l.addr.port,
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

/** Writes `text` on a new connection and returns what comes back ("" when closed unanswered). */
async function echo(port: number, text: string): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await c.write(enc.encode(text));
    const buf = new Uint8Array(1024);
    const n = await c.read(buf).catch(() => null);
    return n === null ? "" : dec.decode(buf.subarray(0, n));
  } finally {
    c.close();
  }
}

interface Rig {
  p: TestProxy;
  om: OverloadManager;
  heap: { bytes: number };
  runtime: Map<string, string>;
  total(): number;
}

async function withRig(chains: "one" | "default", fn: (r: Rig) => Promise<void>) {
  const { config, errors } = parseOverloadManager({
    refresh_interval: "0.1s",
    resource_monitors: [{ name: HEAP, typed_config: { max_heap_size_bytes: 1000 } }],
    actions: [{
      name: "envoy.overload_actions.stop_accepting_connections",
      triggers: [{ name: HEAP, threshold: { value: 0.8 } }],
    }],
  }, "overload_manager");
  assert.deepEqual(errors.map((e) => e.message), []);
  const heap = { bytes: 0 };
  const runtime = new Map<string, string>();
  const upstream = echoServer();
  const om = new OverloadManager(config!, new Store(), (k) => runtime.get(k), () => heap.bytes);
  const p = await startTestProxy(
    [tcpListener(chains)],
    [testCluster("echo", [["127.0.0.1", upstream.port]])],
    { overload: om },
  );
  const total = () => p.store.counter(`listener.127.0.0.1_${p.port()}.downstream_cx_total`).value();
  try {
    await fn({ p, om, heap, runtime, total });
  } finally {
    om.stop();
    await p.close();
    upstream.close();
  }
}

for (const chains of ["one", "default"] as const) {
  Deno.test(`OverloadManager.actions: stop_accepting_connections holds TCP proxy connections (${chains} chain) until it ends`, async () => {
    await withRig(chains, async (r) => {
      r.heap.bytes = 900;
      r.om.refresh();
      assert.equal(r.om.value("stop_accepting_connections"), 1);
      // The listener may already be waiting in accept(): one connection goes through.
      assert.equal(await echo(r.p.port(), "first"), "first");
      const before = r.total();
      const waiting = echo(r.p.port(), "second");
      for (let i = 0; i < 20; i++) await pause(5);
      assert.equal(r.total(), before, "no connection accepted while stop_accepting_connections");
      r.heap.bytes = 100;
      r.om.refresh();
      assert.equal(await waiting, "second");
      assert.equal(r.total(), before + 1);
    });
  });

  Deno.test(`overload.global_downstream_max_connections refuses TCP proxy connections (${chains} chain), counted`, async () => {
    await withRig(chains, async (r) => {
      r.runtime.set("overload.global_downstream_max_connections", "1");
      const held = await Deno.connect({ hostname: "127.0.0.1", port: r.p.port() });
      await held.write(enc.encode("held"));
      await held.read(new Uint8Array(16));
      assert.equal(await echo(r.p.port(), "refused"), "");
      const ls = `listener.127.0.0.1_${r.p.port()}`;
      assert.equal(r.p.store.counter(`${ls}.downstream_global_cx_overflow`).value(), 1);
      held.close();
      for (let i = 0; i < 200 && r.om.connections > 0; i++) await pause(5);
      assert.equal(await echo(r.p.port(), "again"), "again");
    });
  });
}
