import assert from "node:assert/strict";
import http2 from "node:http2";
import {
  listenerPort,
  proxyBootstrap,
  startProxyProcess,
  waitFor,
} from "./testing_proxy_process.ts";

/** One GET on `session`; resolves with the status. */
function get(session: http2.ClientHttp2Session): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = session.request({ ":path": "/", ":method": "GET" });
    req.on("response", (h) => resolve(Number(h[":status"])));
    req.on("error", reject);
    req.resume();
    req.end();
  });
}

/** An h2c session that records whether a GOAWAY arrived. */
function connect(port: number): { session: http2.ClientHttp2Session; goaway: () => boolean } {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  let seen = false;
  session.on("goaway", () => seen = true);
  session.on("error", () => {});
  return { session, goaway: () => seen };
}

Deno.test("admin.states.drain-listeners: stopping a listener sends HTTP/2 clients a GOAWAY (h2c prior knowledge)", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const p = await startProxyProcess(proxyBootstrap(origin.addr.port), ["--concurrency", "1"]);
  const { session, goaway } = connect(await listenerPort(p.admin));
  try {
    assert.equal(await get(session), 200);
    await (await fetch(`${p.admin}/drain_listeners`, { method: "POST" })).body?.cancel();
    await waitFor(() => goaway() || undefined, 10_000, "a GOAWAY");
    assert.ok(goaway());
  } finally {
    session.destroy();
    await p.stop();
    await origin.shutdown();
  }
});

Deno.test("cli.options.drain-strategy: during a graceful drain an HTTP/2 response sends its connection a GOAWAY while the listener still accepts", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const p = await startProxyProcess(proxyBootstrap(origin.addr.port), [
    "--concurrency",
    "1",
    "--drain-strategy",
    "immediate",
    "--drain-time-s",
    "600",
  ]);
  const port = await listenerPort(p.admin);
  const a = connect(port);
  let b: ReturnType<typeof connect> | null = null;
  try {
    // Before the drain, responses leave the connection alone.
    assert.equal(await get(a.session), 200);
    assert.equal(await get(a.session), 200);
    assert.equal(a.goaway(), false);
    const r = await fetch(`${p.admin}/drain_listeners?graceful`, { method: "POST" });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    // The next response on the connection brings the GOAWAY (immediate: every response).
    assert.equal(await get(a.session), 200);
    await waitFor(() => a.goaway() || undefined, 10_000, "a GOAWAY during the drain");
    // The listener is still open for the drain period: a new connection is served, then told to go.
    b = connect(port);
    assert.equal(await get(b.session), 200);
    await waitFor(() => b!.goaway() || undefined, 10_000, "a GOAWAY on a new connection");
    const stats = await (await fetch(`${p.admin}/stats?filter=listener_manager.total_listeners_`))
      .text();
    assert.match(stats, /total_listeners_draining: 1/);
  } finally {
    a.session.destroy();
    b?.session.destroy();
    await p.stop();
    await origin.shutdown();
  }
});
