import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";

const req = testRequest;

function origin(
  handler: Deno.ServeHandler<Deno.NetAddr>,
  extra: Partial<Deno.ServeTcpOptions> = {},
) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...extra }, handler);
}

async function withCluster(
  c: EffectiveCluster,
  fn: (cm: ClusterManager, store: Store) => Promise<void>,
) {
  const store = new Store();
  const cm = new ClusterManager([c], { stats: store });
  await cm.start();
  try {
    await fn(cm, store);
  } finally {
    await cm.close();
  }
}

function counter(store: Store, name: string): number {
  return store.counter(name).value();
}

Deno.test("cluster.fields.max-requests-per-connection admin.resources.host-stat.rq_success admin.resources.host-stat.success_rate: keep-alive reuses one connection (cx_total 1), host stats count, success_rate -1 at low volume", async () => {
  const o = origin(() => new Response("hi"));
  await withCluster(testCluster("c", [["127.0.0.1", o.addr.port]]), async (cm, store) => {
    const cl = cm.get("c")!;
    for (let i = 0; i < 5; i++) {
      const r = await forwardResponse(cl, req());
      assert.equal(r.status, 200);
      assert.equal(await r.text(), "hi");
    }
    assert.equal(counter(store, "cluster.c.upstream_cx_total"), 1);
    assert.equal(counter(store, "cluster.c.upstream_cx_http1_total"), 1);
    assert.equal(counter(store, "cluster.c.upstream_rq_total"), 5);
    assert.equal(counter(store, "cluster.c.upstream_rq_200"), 5);
    assert.equal(counter(store, "cluster.c.upstream_rq_2xx"), 5);
    assert.equal(counter(store, "cluster.c.upstream_rq_completed"), 5);
    assert.ok(counter(store, "cluster.c.upstream_cx_rx_bytes_total") > 0);
    const h = cl.hosts()[0];
    assert.equal(h.stats.cx_total.value(), 1);
    assert.equal(h.stats.rq_total.value(), 5);
    assert.equal(h.stats.rq_success.value(), 5);
    assert.equal(h.stats.rq_active.value(), 0);
    assert.equal(h.successRate(), -1);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.max-requests-per-connection limits.max-requests-per-connection: value 1 disables keep-alive (cx_total per request)", async () => {
  const o = origin(() => new Response("hi"));
  const c = testCluster("c", [["127.0.0.1", o.addr.port]], { maxRequestsPerConnection: 1 });
  await withCluster(c, async (cm, store) => {
    for (let i = 0; i < 4; i++) {
      assert.equal(await (await forwardResponse(cm.get("c")!, req())).text(), "hi");
    }
    assert.equal(counter(store, "cluster.c.upstream_cx_total"), 4);
    assert.equal(counter(store, "cluster.c.upstream_cx_max_requests"), 4);
    assert.equal(store.gauge("cluster.c.upstream_cx_active").value(), 0);
  });
  await o.shutdown();
});

Deno.test("upstream connect failure answers 503 with Envoy's body and counts cx_connect_fail", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = l.addr.port;
  l.close();
  await withCluster(testCluster("c", [["127.0.0.1", port]]), async (cm, store) => {
    const r = await forwardResponse(cm.get("c")!, req());
    assert.equal(r.status, 503);
    assert.equal(
      await r.text(),
      "upstream connect error or disconnect/reset before headers. reset reason: connection failure",
    );
    assert.equal(counter(store, "cluster.c.upstream_cx_connect_fail"), 1);
    assert.equal(cm.get("c")!.hosts()[0].stats.cx_connect_fail.value(), 1);
    assert.equal(cm.get("c")!.hosts()[0].stats.rq_error.value(), 1);
    assert.equal(store.gauge("cluster.c.upstream_cx_active").value(), 0);
  });
});

Deno.test("upstream route timeout answers 504 'upstream request timeout' and counts rq_timeout", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const o = origin(async () => {
    await gate;
    return new Response("late");
  });
  await withCluster(testCluster("c", [["127.0.0.1", o.addr.port]]), async (cm, store) => {
    const r = await forwardResponse(cm.get("c")!, req({ timeoutMs: 50 }));
    assert.equal(r.status, 504);
    assert.equal(await r.text(), "upstream request timeout");
    assert.equal(counter(store, "cluster.c.upstream_rq_timeout"), 1);
    assert.equal(counter(store, "cluster.c.upstream_rq_504"), 1);
    assert.equal(cm.get("c")!.hosts()[0].stats.rq_timeout.value(), 1);
  });
  release();
  await o.shutdown();
});

Deno.test("upstream no hosts: 503 'no healthy upstream' and upstream_cx_none_healthy", async () => {
  await withCluster(testCluster("c", []), async (cm, store) => {
    const r = await forwardResponse(cm.get("c")!, req());
    assert.equal(r.status, 503);
    assert.equal(await r.text(), "no healthy upstream");
    assert.equal(counter(store, "cluster.c.upstream_cx_none_healthy"), 1);
    assert.equal(store.gauge("cluster.c.membership_total").value(), 0);
  });
});

Deno.test("cluster.fields.circuit-breakers: max_connections 1, max_pending_requests 1: the third request overflows with 503", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  let arrived!: () => void;
  const first = new Promise<void>((r) => arrived = r);
  const o = origin(async () => {
    arrived();
    await gate;
    return new Response("ok");
  });
  const c = testCluster("c", [["127.0.0.1", o.addr.port]]);
  c.thresholds[0] = { ...c.thresholds[0], max_connections: 1, max_pending_requests: 1 };
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("c")!;
    const a = forwardResponse(cl, req());
    await first;
    assert.equal(store.gauge("cluster.c.circuit_breakers.default.cx_open").value(), 1);
    const waiting = forwardResponse(cl, req());
    assert.equal(store.gauge("cluster.c.circuit_breakers.default.rq_pending_open").value(), 1);
    assert.equal(counter(store, "cluster.c.upstream_cx_overflow"), 1);
    const b = await forwardResponse(cl, req());
    assert.equal(b.status, 503);
    assert.match(await b.text(), /reset reason: overflow/);
    assert.equal(b.headers.get("x-proxy-overloaded"), "true");
    assert.equal(counter(store, "cluster.c.upstream_rq_pending_overflow"), 1);
    release();
    assert.equal(await (await a).text(), "ok");
    assert.equal(await (await waiting).text(), "ok");
    assert.equal(counter(store, "cluster.c.upstream_cx_total"), 1);
    assert.equal(store.gauge("cluster.c.circuit_breakers.default.rq_pending_open").value(), 0);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.circuit-breakers: a request waits (pending) for the only connection", async () => {
  const o = origin(() => new Response("ok"));
  const c = testCluster("c", [["127.0.0.1", o.addr.port]]);
  c.thresholds[0] = { ...c.thresholds[0], max_connections: 1 };
  await withCluster(c, async (cm, store) => {
    const cl = cm.get("c")!;
    const rs = await Promise.all([1, 2, 3, 4].map(() => forwardResponse(cl, req())));
    for (const r of rs) assert.equal(await r.text(), "ok");
    assert.equal(counter(store, "cluster.c.upstream_cx_total"), 1);
    assert.ok(counter(store, "cluster.c.upstream_cx_overflow") >= 1);
    assert.ok(counter(store, "cluster.c.upstream_rq_pending_total") >= 2);
    assert.equal(store.gauge("cluster.c.upstream_rq_pending_active").value(), 0);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.circuit-breakers: max_requests overflow counts upstream_rq_pending_overflow", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const o = origin(async () => {
    await gate;
    return new Response("ok");
  });
  const c = testCluster("c", [["127.0.0.1", o.addr.port]]);
  c.thresholds[0] = { ...c.thresholds[0], max_requests: 1 };
  await withCluster(c, async (cm, store) => {
    const a = forwardResponse(cm.get("c")!, req());
    const b = await forwardResponse(cm.get("c")!, req());
    assert.equal(b.status, 503);
    assert.equal(store.gauge("cluster.c.circuit_breakers.default.rq_open").value(), 1);
    assert.equal(counter(store, "cluster.c.upstream_rq_pending_overflow"), 1);
    release();
    assert.equal((await a).status, 200);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.lb-policy: ROUND_ROBIN alternates between two equal hosts", async () => {
  const a = origin(() => new Response("a"));
  const b = origin(() => new Response("b"));
  const c = testCluster("c", [["127.0.0.1", a.addr.port], ["127.0.0.1", b.addr.port]]);
  await withCluster(c, async (cm) => {
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      seen.push(await (await forwardResponse(cm.get("c")!, req())).text());
    }
    assert.deepEqual(seen, ["a", "b", "a", "b", "a", "b"]);
  });
  await a.shutdown();
  await b.shutdown();
});

Deno.test("upstream a slow upstream does not stall other requests", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const o = origin(async (r) => {
    if (new URL(r.url).pathname === "/slow") await gate;
    return new Response("done");
  });
  await withCluster(testCluster("c", [["127.0.0.1", o.addr.port]]), async (cm) => {
    const slow = forwardResponse(cm.get("c")!, req({ path: "/slow" }));
    const fast = await forwardResponse(cm.get("c")!, req({ path: "/fast" }));
    assert.equal(await fast.text(), "done");
    release();
    assert.equal(await (await slow).text(), "done");
  });
  await o.shutdown();
});

Deno.test("upstream request and response bodies stream both ways (POST echo, 5 MiB)", async () => {
  const o = origin((r) => new Response(r.body));
  await withCluster(testCluster("c", [["127.0.0.1", o.addr.port]]), async (cm) => {
    const size = 5 * 1024 * 1024;
    const body = new Uint8Array(size).map((_, i) => i % 251);
    const r = await forwardResponse(
      cm.get("c")!,
      req({
        method: "POST",
        body: new Blob([body]).stream(),
        contentLength: -1,
      }),
    );
    const got = new Uint8Array(await r.arrayBuffer());
    assert.equal(got.length, size);
    assert.equal(got[size - 1], (size - 1) % 251);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.per-connection-buffer-limit-bytes limits.per-connection-buffer-limit-bytes: a large response is read ahead by a bounded amount only", async () => {
  let produced = 0;
  const chunk = new Uint8Array(64 * 1024);
  const o = origin(() =>
    new Response(
      new ReadableStream({
        pull(c) {
          if (produced >= 256 * 1024 * 1024) return c.close();
          produced += chunk.length;
          c.enqueue(chunk);
        },
      }, { highWaterMark: 0 }),
    )
  );
  await withCluster(testCluster("c", [["127.0.0.1", o.addr.port]]), async (cm) => {
    const r = await forwardResponse(cm.get("c")!, req());
    const rd = r.body!.getReader();
    await rd.read();
    // The client stops reading; give the origin every chance to run ahead.
    for (let i = 0; i < 50; i++) await new Promise((res) => setTimeout(res, 2));
    const ahead = produced;
    assert.ok(ahead < 32 * 1024 * 1024, `origin ran ${ahead} bytes ahead of a stalled client`);
    await rd.cancel();
  });
  await o.shutdown();
});
