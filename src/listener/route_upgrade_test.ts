import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function wsOrigin() {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (r) => {
    if (r.headers.get("upgrade") !== "websocket") return new Response("plain", { status: 426 });
    const { socket, response } = Deno.upgradeWebSocket(r);
    socket.onmessage = (e) => socket.send(`echo:${e.data}`);
    return response;
  });
}

function open(url: string): Promise<WebSocket | string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => resolve("error");
  });
}

function reply(ws: WebSocket, msg: string): Promise<string> {
  return new Promise((resolve) => {
    ws.onmessage = (e) => resolve(String(e.data));
    ws.send(msg);
  });
}

function closed(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    ws.onclose = () => resolve();
    ws.close();
  });
}

Deno.test("route upgrade_configs websocket: the upgrade is forwarded and messages flow both ways; a route can turn it off", async () => {
  const o = wsOrigin();
  const rc: JsonObject = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/off" },
          route: { cluster: "c", upgrade_configs: [{ upgrade_type: "websocket", enabled: false }] },
        },
        { match: { prefix: "/" }, route: { cluster: "c" } },
      ],
    }],
  };
  const p = await startTestProxy(
    [httpListener(rc, { upgrade_configs: [{ upgrade_type: "websocket" }] })],
    [testCluster("c", [["127.0.0.1", o.addr.port]])],
  );
  try {
    const ws = await open(`ws://127.0.0.1:${p.port()}/chat`);
    assert.ok(ws instanceof WebSocket);
    assert.equal(await reply(ws, "one"), "echo:one");
    assert.equal(await reply(ws, "two".repeat(10000)), "echo:" + "two".repeat(10000));
    await closed(ws);
    assert.equal(p.store.counter("cluster.c.upstream_rq_101").value(), 1);
    assert.equal(await open(`ws://127.0.0.1:${p.port()}/off`), "error");
    // Without the upgrade the origin saw a plain request.
    const plain = await fetch(`http://127.0.0.1:${p.port()}/off`, {
      headers: { upgrade: "websocket", connection: "upgrade" },
    });
    assert.equal(plain.status, 426);
    await plain.body?.cancel();
  } finally {
    await p.close();
    await o.shutdown();
  }
});

Deno.test("route upgrade_configs: without the connection manager's upgrade_configs an upgrade is not forwarded", async () => {
  const o = wsOrigin();
  const rc: JsonObject = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c" } }],
    }],
  };
  const p = await startTestProxy([httpListener(rc)], [
    testCluster("c", [["127.0.0.1", o.addr.port]]),
  ]);
  try {
    assert.equal(await open(`ws://127.0.0.1:${p.port()}/chat`), "error");
  } finally {
    await p.close();
    await o.shutdown();
  }
});
