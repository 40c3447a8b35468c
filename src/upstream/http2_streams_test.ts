import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { ServerHttp2Stream } from "node:http2";

/**
 * An h2c origin that holds every request until `release()` and counts how many it holds at
 * once (the most seen) and in all.
 */
function holdingOrigin() {
  let held = 0;
  let most = 0;
  let seen = 0;
  const waiting: (() => void)[] = [];
  let arrived: () => void = () => {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    held++;
    seen++;
    most = Math.max(most, held);
    arrived();
    await new Promise<void>((r) => waiting.push(r));
    held--;
    return new Response("ok");
  });
  return {
    port: server.addr.port,
    stats: () => ({ most, seen }),
    /** Resolves once `n` requests arrived in all. */
    until: (n: number) =>
      new Promise<void>((r) => {
        arrived = () => seen >= n && r();
        arrived();
      }),
    release: () => waiting.splice(0).forEach((w) => w()),
    close: () => server.shutdown(),
  };
}

async function three(c: EffectiveCluster, expectHeld: number) {
  const o = holdingOrigin();
  const store = new Store();
  const cm = new ClusterManager([{ ...c, hosts: [{ ...c.hosts[0], port: o.port }] }], {
    stats: store,
  });
  try {
    const req = () =>
      forwardResponse(cm.get(c.name)!, testRequest({ path: "/" })).then((r) => r.text());
    const answers = [req(), req(), req()];
    // Release in rounds: each round lets the held requests finish.
    while (o.stats().seen < 3) {
      await o.until(Math.min(3, o.stats().seen + expectHeld));
      o.release();
    }
    o.release();
    assert.deepEqual(await Promise.all(answers), ["ok", "ok", "ok"]);
    return { origin: o.stats(), store };
  } finally {
    await cm.close();
    await o.close();
  }
}

Deno.test("cluster.rules.http2-max-concurrent-streams-in-range: a full upstream HTTP/2 connection (max_concurrent_streams) makes the next stream open another connection", async () => {
  const c = testCluster("h2", [["127.0.0.1", 1]], {
    http2: true,
    http2Settings: { maxConcurrentStreams: 1 },
  });
  const { origin, store } = await three(c, 3);
  assert.equal(origin.most, 3);
  assert.equal(store.counter("cluster.h2.upstream_cx_http2_total").value(), 3);
});

Deno.test("cluster.rules.http2-max-concurrent-streams-in-range: without the setting, one connection carries the concurrent streams", async () => {
  const c = testCluster("h2", [["127.0.0.1", 1]], { http2: true });
  const { origin, store } = await three(c, 3);
  assert.equal(origin.most, 3);
  assert.equal(store.counter("cluster.h2.upstream_cx_http2_total").value(), 1);
});

Deno.test("cluster.rules.http2-max-concurrent-streams-in-range: with max_connections reached, a stream waits for a free stream of an open connection", async () => {
  const base = testCluster("h2", [["127.0.0.1", 1]], {
    http2: true,
    http2Settings: { maxConcurrentStreams: 1 },
  });
  const c = {
    ...base,
    thresholds: base.thresholds.map((t) => ({
      ...t,
      max_connections: 1,
    })) as typeof base.thresholds,
  };
  const { origin, store } = await three(c, 1);
  assert.equal(origin.most, 1);
  assert.equal(origin.seen, 3);
  assert.equal(store.counter("cluster.h2.upstream_cx_http2_total").value(), 1);
  assert.ok(store.counter("cluster.h2.upstream_cx_overflow").value() >= 1);
});

Deno.test("cluster http2_protocol_options: without initial_connection_window_size an upstream connection's window is Envoy's default (256 MiB); the stream window stays 65535", async () => {
  const http2 = (await import("node:http2")).default;
  const seen: { window?: number; streamWindow?: number } = {};
  const server = http2.createServer();
  server.on("stream", (stream: ServerHttp2Stream) => {
    seen.window = stream.session!.state.remoteWindowSize;
    seen.streamWindow = stream.session!.remoteSettings.initialWindowSize;
    stream.respond({ ":status": 200 });
    stream.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const c = testCluster("h2", [["127.0.0.1", port]], { http2: true });
  const cm = new ClusterManager([c], { stats: new Store() });
  try {
    const r = await forwardResponse(cm.get("h2")!, testRequest({ path: "/" }));
    assert.equal(await r.text(), "ok");
    assert.equal(seen.window, 268435456);
    assert.equal(seen.streamWindow, 65535);
  } finally {
    await cm.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
