import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
  statsOf,
} from "./testing_proxy_process.ts";

const enc = new TextEncoder();

/** Sends one keep-alive request on `c`; true when a response came back (the connection stays open). */
async function served(c: Deno.Conn): Promise<boolean> {
  try {
    await c.write(enc.encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n"));
    const n = await c.read(new Uint8Array(1024));
    return n !== null && n > 0;
  } catch {
    return false;
  }
}

Deno.test("cli.options.concurrency: overload.global_downstream_max_connections holds across workers (one shared count), refusals counted downstream_global_cx_overflow", async () => {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const LIMIT = 12;
  const N = 48;
  const bootstrap = {
    ...proxyBootstrap(o.addr.port),
    layered_runtime: {
      layers: [{
        name: "static",
        static_layer: { overload: { global_downstream_max_connections: LIMIT } },
      }],
    },
  };
  const p = await startProxyProcess(bootstrap, ["--concurrency", "2"]);
  const conns: Deno.Conn[] = [];
  try {
    const port = await listenerPort(p.admin);
    // One connection after the other, each asked whether it is served before the next opens: the
    // kernel spreads them over the workers' sockets, so the served ones are on both workers
    // whichever worker is quicker to accept (all at once, a worker that lags behind found the
    // count used up by the other and refused every one of its connections).
    const results: boolean[] = [];
    for (let i = 0; i < N; i++) {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(c);
      results.push(await served(c));
    }
    assert.equal(results.filter((x) => x).length, LIMIT, "connections served across both workers");
    const stats = await statsOf(p.admin);
    const l = `listener.127.0.0.1_${port}`;
    assert.equal(stats.get(`${l}.downstream_global_cx_overflow`), N - LIMIT);
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `connections reached both workers: ${w0} and ${w1}`);
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed */ }
    }
    await p.stop();
    await o.shutdown();
  }
});

Deno.test("cli.options.concurrency: the overload manager acts on every worker: stop_accepting_requests answers 503 on both workers while the fixed-heap monitor (main thread and workers together) is over its threshold", async () => {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const HEAP = "envoy.resource_monitors.fixed_heap";
  const ACTION = "envoy.overload_actions.stop_accepting_requests";
  const bootstrap = {
    ...proxyBootstrap(o.addr.port),
    overload_manager: {
      refresh_interval: "0.05s",
      // Far below what any isolate holds: the monitor is saturated from the first refresh.
      resource_monitors: [{ name: HEAP, typed_config: { max_heap_size_bytes: 1024 } }],
      actions: [{ name: ACTION, triggers: [{ name: HEAP, threshold: { value: 0.9 } }] }],
    },
  };
  const p = await startProxyProcess(bootstrap, ["--concurrency", "2"]);
  try {
    const port = await listenerPort(p.admin);
    const N = 20;
    const statuses: number[] = [];
    for (let i = 0; i < N; i++) statuses.push(await requestOnce(port, "/"));
    assert.deepEqual(statuses, new Array(N).fill(503), "every request refused, on either worker");
    const stats = await statsOf(p.admin);
    assert.equal(stats.get(`overload.${ACTION}.active`), 1);
    assert.equal(stats.get("http.ingress_http.downstream_rq_overload_close"), N);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `connections reached both workers: ${w0} and ${w1}`);
  } finally {
    await p.stop();
    await o.shutdown();
  }
});
