import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
  statsOf,
  waitFor,
} from "./testing_proxy_process.ts";

function origin(
  handler: (req: Request) => Response | Promise<Response> = () => new Response("ok\n"),
) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { server, port: server.addr.port };
}

Deno.test("cli.options.concurrency: with --concurrency 2, connections land on both workers and every stats output adds up to the requests sent", async () => {
  const o = origin();
  const p = await startProxyProcess(proxyBootstrap(o.port), ["--concurrency", "2"]);
  try {
    const port = await listenerPort(p.admin);
    const N = 40;
    const statuses = await Promise.all(Array.from({ length: N }, () => requestOnce(port, "/")));
    assert.deepEqual(statuses, new Array(N).fill(200));
    const stats = await statsOf(p.admin);
    assert.equal(stats.get("http.ingress_http.downstream_rq_total"), N);
    assert.equal(stats.get("http.ingress_http.downstream_rq_2xx"), N);
    assert.equal(stats.get("cluster.demo.upstream_rq_total"), N);
    assert.equal(stats.get("server.concurrency"), 2);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.equal(w0 + w1, N);
    assert.ok(w0 > 0 && w1 > 0, `connections spread over both workers: ${w0} and ${w1}`);
    assert.equal(stats.get(`${l}.downstream_cx_total`), N);
    const clusters = await (await fetch(`${p.admin}/clusters`)).text();
    assert.match(clusters, new RegExp(`demo::127\\.0\\.0\\.1:${o.port}::rq_total::${N}\\n`));
    // /reset_counters reaches the totals the workers feed.
    await (await fetch(`${p.admin}/reset_counters`, { method: "POST" })).body?.cancel();
    assert.equal((await statsOf(p.admin)).get("http.ingress_http.downstream_rq_total"), 0);
    assert.equal(await requestOnce(port, "/"), 200);
    assert.equal((await statsOf(p.admin)).get("http.ingress_http.downstream_rq_total"), 1);
    // /drain_listeners stops every worker's listener.
    await (await fetch(`${p.admin}/drain_listeners`, { method: "POST" })).body?.cancel();
    assert.equal(await requestOnce(port, "/"), 0);
    assert.equal(await p.stop(), 0);
  } finally {
    await p.stop();
    await o.server.shutdown();
  }
});

Deno.test("cli.options.concurrency: circuit breakers count per cluster across workers (max_requests 1 admits one request in flight, whichever worker has it)", async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  const o = origin(async () => {
    await held;
    return new Response("slow\n");
  });
  const p = await startProxyProcess(
    proxyBootstrap(o.port, {
      circuit_breakers: { thresholds: [{ priority: "DEFAULT", max_requests: 1 }] },
    }),
    ["--concurrency", "2"],
  );
  try {
    const port = await listenerPort(p.admin);
    const pending: Promise<number>[] = [];
    for (let i = 0; i < 12; i++) {
      pending.push(requestOnce(port, "/"));
      await new Promise((r) => setTimeout(r, 30));
    }
    // Every request but the first has been answered (503, overflow) before the origin answers.
    const l = `listener.127.0.0.1_${port}`;
    await waitFor(
      async () => {
        const s = await statsOf(p.admin);
        return (s.get("cluster.demo.upstream_rq_pending_overflow") ?? 0) >= 11 ? true : undefined;
      },
      20_000,
      "11 overflows",
    );
    release();
    const statuses = await Promise.all(pending);
    assert.equal(statuses.filter((s) => s === 200).length, 1, String(statuses));
    assert.equal(statuses.filter((s) => s === 503).length, 11, String(statuses));
    const s = await statsOf(p.admin);
    assert.ok((s.get(`${l}.worker_0.downstream_cx_total`) ?? 0) > 0);
    assert.ok((s.get(`${l}.worker_1.downstream_cx_total`) ?? 0) > 0);
  } finally {
    release();
    await p.stop();
    await o.server.shutdown();
  }
});

Deno.test("cli.options.concurrency: health checking runs on the main thread and the workers follow its host health", async () => {
  let healthy = true;
  let checks = 0;
  const o = origin((req) => {
    if (new URL(req.url).pathname === "/health") {
      checks++;
      return new Response(null, { status: healthy ? 200 : 503 });
    }
    return new Response("ok\n");
  });
  const p = await startProxyProcess(
    proxyBootstrap(o.port, {
      // No panic routing: with its only host unhealthy the cluster answers 503.
      // and no merge window: the health change reaches the balancers at once.
      common_lb_config: { healthy_panic_threshold: { value: 0 }, update_merge_window: "0s" },
      health_checks: [{
        timeout: "1s",
        interval: "0.1s",
        no_traffic_interval: "0.1s",
        unhealthy_threshold: 1,
        healthy_threshold: 1,
        http_health_check: { path: "/health" },
      }],
    }),
    ["--concurrency", "2"],
  );
  try {
    const port = await listenerPort(p.admin);
    const statuses = await Promise.all(Array.from({ length: 10 }, () => requestOnce(port, "/")));
    assert.deepEqual(statuses, new Array(10).fill(200));
    healthy = false;
    await waitFor(
      async () => {
        const s = await statsOf(p.admin);
        return s.get("cluster.demo.membership_healthy") === 0 ? true : undefined;
      },
      20_000,
      "the host to fail its checks",
    );
    // The workers take the main thread's host health from a message: on a busy machine it can
    // arrive after /stats showed the change, so the requests are retried until it has.
    await waitFor(
      async () => {
        const after = await Promise.all(Array.from({ length: 10 }, () => requestOnce(port, "/")));
        return after.every((x) => x === 503) ? true : undefined;
      },
      20_000,
      "every worker to answer 503 for the failed host",
    );
    const s = await statsOf(p.admin);
    // One checker (the main thread's): the attempts counted are the checks the origin saw (give
    // or take the one in flight); checkers in the workers would have tripled them.
    const attempts = s.get("cluster.demo.health_check.attempt") ?? 0;
    assert.ok(Math.abs(attempts - checks) <= 1, `${attempts} attempts, ${checks} checks`);
  } finally {
    await p.stop();
    await o.server.shutdown();
  }
});
