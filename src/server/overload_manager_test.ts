import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "../listener/test_proxy.ts";
import { OverloadManager, parseOverloadManager } from "./overload_manager.ts";
import { checkConfiguration } from "./full_configuration_check.ts";
import { Store } from "../stats/store.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();
const HEAP = "envoy.resource_monitors.fixed_heap";
const GET = "GET / HTTP/1.1\r\nhost: a\r\n\r\n";

const routes = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

/** An overload_manager block with the fixed-heap monitor (1000 bytes) and `actions`. */
function block(actions: [string, JsonObject][]): JsonObject {
  return {
    refresh_interval: "0.1s",
    resource_monitors: [{ name: HEAP, typed_config: { max_heap_size_bytes: 1000 } }],
    actions: actions.map(([name, trigger]) => ({
      name: `envoy.overload_actions.${name}`,
      triggers: [{ name: HEAP, ...trigger }],
    })),
  };
}

interface Rig {
  p: TestProxy;
  om: OverloadManager;
  heap: { bytes: number };
  runtime: Map<string, string>;
}

async function withRig(cfg: JsonObject, fn: (r: Rig) => Promise<void>) {
  const { config, errors } = parseOverloadManager(cfg, "overload_manager");
  assert.deepEqual(errors.map((e) => e.message), []);
  const heap = { bytes: 0 };
  const runtime = new Map<string, string>();
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  const store = new Store();
  const om = new OverloadManager(config, store, (k) => runtime.get(k), () => heap.bytes);
  const p = await startTestProxy(
    [httpListener(routes)],
    [testCluster("o", [["127.0.0.1", o.addr.port]])],
    { overload: om },
  );
  // The manager's stats go to the proxy's store in a server; here they have their own.
  Object.assign(p, { overloadStore: store });
  try {
    await fn({ p, om, heap, runtime });
  } finally {
    om.stop();
    await p.close();
    await o.shutdown();
  }
}

/** Sends `req` on a new connection and returns all the proxy sent until it closed. */
async function exchange(port: number, req: string): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await c.write(enc.encode(req.replace("\r\n\r\n", "\r\nconnection: close\r\n\r\n")));
    const buf = new Uint8Array(65536);
    let out = "";
    for (;;) {
      const n = await c.read(buf).catch(() => null);
      if (n === null) return out;
      out += dec.decode(buf.subarray(0, n));
    }
  } finally {
    c.close();
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("overload_manager: bad and refused configuration are errors with their paths, in validate and serve alike", () => {
  const { errors } = parseOverloadManager({
    resource_monitors: [
      { name: HEAP, typed_config: {} },
      { name: "envoy.resource_monitors.injected_resource" },
    ],
    actions: [
      { name: "envoy.overload_actions.reduce_timeouts", triggers: [] },
      { name: "envoy.overload_actions.reset_high_memory_stream", triggers: [] },
      {
        name: "envoy.overload_actions.stop_accepting_requests",
        triggers: [{ name: "nope", threshold: { value: 0.5 } }],
      },
    ],
  }, "overload_manager");
  assert.deepEqual(errors.map((e) => e.path), [
    "overload_manager.resource_monitors[0].typed_config.max_heap_size_bytes",
    "overload_manager.resource_monitors[1].name",
    "overload_manager.actions[0].name",
    "overload_manager.actions[1].triggers",
    "overload_manager.actions[2].triggers[0].name",
    "overload_manager.actions[1].name",
  ]);
  assert.match(errors[2].message, /reduce_timeouts is not supported by this build/);
  assert.match(errors[5].message, /reset_high_memory_stream needs buffer_factory_config/);
  const bad = parseOverloadManager({
    buffer_factory_config: { minimum_account_to_track_power_of_two: 9 },
  }, "overload_manager");
  assert.deepEqual(bad.errors.map((e) => e.path), [
    "overload_manager.buffer_factory_config.minimum_account_to_track_power_of_two",
  ]);
  const checked = checkConfiguration(
    { mode: "validate" } as never,
    {
      overload_manager: { actions: [{ name: "envoy.overload_actions.reset_high_memory_stream" }] },
    },
  );
  assert.ok(checked.errors.some((e) => e.path === "overload_manager.actions[0].name"));
});

Deno.test("overload_manager stop_accepting_requests: 503 'proxy overloaded' while the heap is over the threshold, counted", async () => {
  await withRig(block([["stop_accepting_requests", { threshold: { value: 0.9 } }]]), async (r) => {
    r.heap.bytes = 950;
    r.om.refresh();
    const over = await exchange(r.p.port(), GET);
    assert.match(over, /^HTTP\/1\.1 503 /);
    assert.ok(over.endsWith("proxy overloaded"));
    assert.equal(r.p.store.counter("http.test.downstream_rq_overload_close").value(), 1);
    const s = (r.p as unknown as { overloadStore: Store }).overloadStore;
    assert.equal(
      s.gauge("overload.envoy.overload_actions.stop_accepting_requests.active").value(),
      1,
    );
    assert.equal(s.gauge(`overload.${HEAP}.pressure`).value(), 95);
    r.heap.bytes = 100;
    r.om.refresh();
    assert.match(await exchange(r.p.port(), GET), /^HTTP\/1\.1 200 /);
  });
});

Deno.test("overload_manager disable_http_keepalive: responses close their connection while engaged, counted", async () => {
  await withRig(block([["disable_http_keepalive", { threshold: { value: 0.5 } }]]), async (r) => {
    r.heap.bytes = 600;
    r.om.refresh();
    const c = await Deno.connect({ hostname: "127.0.0.1", port: r.p.port() });
    await c.write(enc.encode(GET));
    const buf = new Uint8Array(65536);
    let out = "";
    for (;;) {
      const n = await c.read(buf).catch(() => null);
      if (n === null) break;
      out += dec.decode(buf.subarray(0, n));
    }
    c.close();
    assert.match(out, /^HTTP\/1\.1 200 /);
    assert.match(out, /connection: close/i);
    assert.equal(
      r.p.store.counter("http.test.downstream_cx_overload_disable_keepalive").value(),
      1,
    );
  });
});

Deno.test("overload_manager stop_accepting_connections: no connection is accepted while engaged; waiting clients are served after", async () => {
  await withRig(
    block([["stop_accepting_connections", {
      scaled: { scaling_threshold: 0.5, saturation_threshold: 0.8 },
    }]]),
    async (r) => {
      r.heap.bytes = 900;
      r.om.refresh();
      assert.equal(r.om.value("stop_accepting_connections"), 1);
      // The listener may already be waiting in accept(): let one connection through to park it.
      const total = () => r.p.store.counter("http.test.downstream_cx_total").value();
      const first = exchange(r.p.port(), GET);
      await first;
      const before = total();
      const waiting = exchange(r.p.port(), GET);
      for (let i = 0; i < 20; i++) await pause(5);
      assert.equal(total(), before, "no connection accepted while stop_accepting_connections");
      r.heap.bytes = 100;
      r.om.refresh();
      assert.match(await waiting, /^HTTP\/1\.1 200 /);
      assert.equal(total(), before + 1);
    },
  );
});

Deno.test("overload.global_downstream_max_connections and the listener connection_limit runtime keys refuse connections, counted", async () => {
  await withRig({}, async (r) => {
    const ls = `listener.127.0.0.1_${r.p.port()}`;
    r.runtime.set("overload.global_downstream_max_connections", "1");
    const held = await Deno.connect({ hostname: "127.0.0.1", port: r.p.port() });
    await held.write(enc.encode(GET));
    await held.read(new Uint8Array(4096));
    assert.equal(await exchange(r.p.port(), GET), "");
    assert.equal(r.p.store.counter(`${ls}.downstream_global_cx_overflow`).value(), 1);
    r.runtime.delete("overload.global_downstream_max_connections");
    r.runtime.set("envoy.resource_limits.listener.test_http.connection_limit", "1");
    assert.equal(await exchange(r.p.port(), GET), "");
    assert.equal(r.p.store.counter(`${ls}.downstream_cx_overflow`).value(), 1);
    held.close();
    await new Promise((res) => setTimeout(res, 0));
    for (let i = 0; i < 200 && r.om.connections > 0; i++) await pause(5);
    assert.match(await exchange(r.p.port(), GET), /^HTTP\/1\.1 200 /);
  });
});

Deno.test("overload_manager refresh_interval: the monitors are read again on that interval once started", async () => {
  const { config } = parseOverloadManager(
    {
      ...block([["stop_accepting_requests", { threshold: { value: 0.9 } }]]),
      refresh_interval: "0.01s",
    },
    "overload_manager",
  );
  let bytes = 0;
  const om = new OverloadManager(config, new Store(), () => undefined, () => bytes);
  om.start();
  try {
    assert.equal(om.value("stop_accepting_requests"), 0);
    bytes = 990;
    for (let i = 0; i < 400 && om.value("stop_accepting_requests") === 0; i++) await pause(5);
    assert.equal(om.value("stop_accepting_requests"), 1);
  } finally {
    om.stop();
  }
});

Deno.test("overload_manager shrink_heap: a full collection on the shrinker's timer while saturated, counted overload.<action>.shrink_count; none below", async () => {
  const { config, errors } = parseOverloadManager(
    block([["shrink_heap", { threshold: { value: 0.9 } }]]),
    "overload_manager",
  );
  assert.deepEqual(errors, []);
  assert.equal(
    checkConfiguration({ mode: "validate" } as never, {
      overload_manager: block([["shrink_heap", { threshold: { value: 0.9 } }]]),
    }).errors.filter((e) => e.path.startsWith("overload_manager")).length,
    0,
  );
  const heap = { bytes: 100 };
  const store = new Store();
  const om = new OverloadManager(config, store, () => undefined, () => heap.bytes, {
    intervalMs: 20,
  });
  const count = () =>
    store.counter("overload.envoy.overload_actions.shrink_heap.shrink_count").value();
  om.start();
  try {
    for (let i = 0; i < 5; i++) await pause(20);
    assert.equal(count(), 0, "no shrink while the action is off");
    // An object only a weak reference holds is gone once a full collection ran.
    let held: object | null = { payload: new Uint8Array(1 << 20) };
    const weak = new WeakRef(held);
    held = null;
    heap.bytes = 950;
    om.refresh();
    assert.equal(om.value("shrink_heap"), 1);
    for (let i = 0; i < 200 && count() < 2; i++) await pause(20);
    assert.ok(count() >= 2, `shrink_count ${count()}`);
    assert.equal(weak.deref(), undefined);
    heap.bytes = 100;
    om.refresh();
    const settled = count();
    for (let i = 0; i < 5; i++) await pause(20);
    assert.equal(count(), settled, "no shrink after the action ended");
  } finally {
    om.stop();
  }
});
