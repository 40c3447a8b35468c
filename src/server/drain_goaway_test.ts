import assert from "node:assert/strict";
import http2 from "node:http2";
import {
  listenerPort,
  proxyBootstrap,
  startProxyProcess,
  waitFor,
} from "./testing_proxy_process.ts";

Deno.test("admin.endpoints.drain-listeners: stopping a listener sends HTTP/2 clients a GOAWAY (h2c prior knowledge)", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const p = await startProxyProcess(proxyBootstrap(origin.addr.port), ["--concurrency", "1"]);
  const session = http2.connect(`http://127.0.0.1:${await listenerPort(p.admin)}`);
  try {
    let goaway = false;
    session.on("goaway", () => goaway = true);
    session.on("error", () => {});
    const status = await new Promise<number>((resolve, reject) => {
      const req = session.request({ ":path": "/", ":method": "GET" });
      req.on("response", (h) => resolve(Number(h[":status"])));
      req.on("error", reject);
      req.resume();
      req.end();
    });
    assert.equal(status, 200);
    await (await fetch(`${p.admin}/drain_listeners`, { method: "POST" })).body?.cancel();
    await waitFor(() => goaway || undefined, 10_000, "a GOAWAY");
    assert.ok(goaway);
  } finally {
    session.destroy();
    await p.stop();
    await origin.shutdown();
  }
});
