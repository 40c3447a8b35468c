/**
 * A route's `idle_timeout` over real sockets: it replaces the connection manager's
 * `stream_idle_timeout` for the requests of the route (shorter or longer), and 0 turns it off.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

const routes: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [
      { match: { prefix: "/short" }, route: { cluster: "o", timeout: "0s", idle_timeout: "0.1s" } },
      { match: { prefix: "/long" }, route: { cluster: "o", timeout: "0s", idle_timeout: "30s" } },
      { match: { prefix: "/off" }, route: { cluster: "o", timeout: "0s", idle_timeout: "0s" } },
      { match: { prefix: "/" }, route: { cluster: "o", timeout: "0s" } },
    ],
  }],
};

Deno.test("route idle_timeout replaces the connection manager's stream_idle_timeout; 0 turns it off", async () => {
  // The origin answers after the delay the path names (ms).
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const ms = Number(new URL(r.url).searchParams.get("ms"));
    await new Promise((res) => setTimeout(res, ms));
    return new Response("ok");
  });
  const p = await startTestProxy(
    [httpListener(routes, { stream_idle_timeout: "0.3s" })],
    [testCluster("o", [["127.0.0.1", o.addr.port]])],
  );
  const get = (path: string) =>
    rawExchange(p.port(), `GET ${path} HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n`);
  const idle = p.store.counter("http.test.downstream_rq_idle_timeout");
  try {
    // Shorter than the connection manager's: the route's fires first.
    assert.match(await get("/short?ms=200"), /^HTTP\/1\.1 504 [^]*stream timeout$/);
    assert.equal(idle.value(), 1);
    // The connection manager's own still applies to other routes.
    assert.match(await get("/?ms=600"), /^HTTP\/1\.1 504 [^]*stream timeout$/);
    assert.equal(idle.value(), 2);
    // Longer than the connection manager's, and off: the upstream's slow answer comes through.
    assert.match(await get("/long?ms=600"), /^HTTP\/1\.1 200 [^]*ok$/);
    assert.match(await get("/off?ms=600"), /^HTTP\/1\.1 200 [^]*ok$/);
    assert.equal(idle.value(), 2);
  } finally {
    await p.close();
    await o.shutdown();
  }
});

Deno.test("route idle_timeout applies to HTTP/2 (h2c) streams too", async () => {
  const http2 = await import("node:http2");
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const ms = Number(new URL(r.url).searchParams.get("ms"));
    await new Promise((res) => setTimeout(res, ms));
    return new Response("ok");
  });
  const p = await startTestProxy(
    [httpListener(routes, { stream_idle_timeout: "0.3s" })],
    [testCluster("o", [["127.0.0.1", o.addr.port]])],
  );
  const client = http2.connect(`http://127.0.0.1:${p.port()}`);
  const status = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const s = client.request({ ":path": path, ":authority": "a" });
      let code = 0;
      s.on("response", (h) => code = Number(h[":status"]));
      s.on("data", () => {});
      s.on("end", () => resolve(code));
      s.on("error", reject);
      s.end();
    });
  try {
    assert.equal(await status("/short?ms=200"), 504);
    assert.equal(await status("/long?ms=600"), 200);
    assert.equal(await status("/off?ms=600"), 200);
    assert.equal(p.store.counter("http.test.downstream_rq_idle_timeout").value(), 1);
  } finally {
    client.close();
    await p.close();
    await o.shutdown();
  }
});
