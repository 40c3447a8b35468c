import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { namedOrigin, routeAllTo } from "./test_origins.ts";

const routes = routeAllTo("dst");

async function get(port: number, headers: Record<string, string>) {
  const r = await fetch(`http://127.0.0.1:${port}/`, { headers });
  return { status: r.status, body: await r.text() };
}

Deno.test("cluster.enums.discovery-type: ORIGINAL_DST with use_http_header reaches the origin the header names; unused hosts go after cleanup_interval", async () => {
  const a = namedOrigin("a");
  const b = namedOrigin("b");
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("dst", [], {
      type: "ORIGINAL_DST",
      lbPolicy: "ORIGINAL_DST_LB",
      useHttpHeader: true,
      cleanupIntervalMs: 3_600_000,
    }),
  ]);
  try {
    const port = p.port();
    const cluster = p.cm.get("dst")!;
    assert.equal(cluster.hosts().length, 0, "no host before a request names one");
    for (let k = 0; k < 3; k++) {
      const ra = await get(port, { "x-proxy-original-dst-host": `127.0.0.1:${a.addr.port}` });
      assert.deepEqual(ra, { status: 200, body: "a" });
      const rb = await get(port, { "x-envoy-original-dst-host": `127.0.0.1:${b.addr.port}` });
      assert.deepEqual(rb, { status: 200, body: "b" });
    }
    assert.deepEqual(
      cluster.hosts().map((h) => h.port).sort(),
      [a.addr.port, b.addr.port].sort(),
      "one host per destination, created on demand",
    );
    // A destination that is not ip:port is no host: 503, counted.
    const bad = await get(port, { "x-proxy-original-dst-host": "origin.example:80" });
    assert.equal(bad.status, 503);
    assert.equal(p.store.counter("cluster.dst.original_dst_host_invalid").value(), 1);
    // Clean-up: a host chosen since the last sweep stays; one unused for a whole interval goes.
    cluster.originalDst!.cleanup();
    assert.equal(cluster.hosts().length, 2);
    await get(port, { "x-proxy-original-dst-host": `127.0.0.1:${a.addr.port}` });
    cluster.originalDst!.cleanup();
    assert.deepEqual(cluster.hosts().map((h) => h.port), [a.addr.port]);
    cluster.originalDst!.cleanup();
    assert.equal(cluster.hosts().length, 0);
  } finally {
    await p.close();
    await a.shutdown();
    await b.shutdown();
  }
});

Deno.test("cluster.fields.cleanup-interval: the ORIGINAL_DST clean-up timer removes an unused host by itself", async () => {
  const a = namedOrigin("a");
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("dst", [], {
      type: "ORIGINAL_DST",
      lbPolicy: "CLUSTER_PROVIDED",
      useHttpHeader: true,
      cleanupIntervalMs: 20,
    }),
  ]);
  try {
    const r = await get(p.port(), { "x-proxy-original-dst-host": `127.0.0.1:${a.addr.port}` });
    assert.deepEqual(r, { status: 200, body: "a" });
    const cluster = p.cm.get("dst")!;
    for (let i = 0; i < 500 && cluster.hosts().length > 0; i++) {
      await new Promise((ok) => setTimeout(ok, 10));
    }
    assert.equal(cluster.hosts().length, 0);
  } finally {
    await p.close();
    await a.shutdown();
  }
});

Deno.test("cluster.objects.original-dst-lb-config.use-http-header: without use_http_header the header is not read", async () => {
  const a = namedOrigin("a");
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("dst", [], { type: "ORIGINAL_DST", lbPolicy: "ORIGINAL_DST_LB" }),
  ]);
  try {
    // The destination is the downstream connection's own (local) address: the header is ignored.
    const cluster = p.cm.get("dst")!;
    const host = cluster.lb.choose({
      headers: [["x-proxy-original-dst-host", `127.0.0.1:${a.addr.port}`]],
      downstreamLocal: { hostname: "127.0.0.9", port: 4321 },
    });
    assert.equal(host?.key, "127.0.0.9:4321");
  } finally {
    await p.close();
    await a.shutdown();
  }
});
