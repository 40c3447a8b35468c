/**
 * Stats across a hot restart add up exactly: the parent (two workers, a stats flush every
 * 100 ms, so its own flushes fall between the child's pulls) hands over every counter increment
 * and histogram value, the last ones in its answer to `terminate`.
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  type ProxyProcess,
  startProxyProcess,
  statsOf,
  waitFor,
} from "./testing_proxy_process.ts";
import { pickDynamicBaseId } from "./hot_restart_socket.ts";

/**
 * One GET on a fresh connection: its status, 0 when the connection failed or was reset, -1
 * when no answer came within 5 s.
 */
async function getOnce(port: number): Promise<number> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return 0;
  }
  const timer = setTimeout(() => conn.close(), 5_000);
  let text = "";
  try {
    await conn.write(
      new TextEncoder().encode("GET / HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n"),
    );
    const buf = new Uint8Array(16 * 1024);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
  } catch (e) {
    if (e instanceof Deno.errors.BadResource) return -1;
    return 0;
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed */ }
  }
  const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
  return m ? Number(m[1]) : 0;
}

/** Sample counts of the histograms `name` (Prometheus `_count` lines, summed). */
async function samples(admin: string, name: string): Promise<number> {
  const text = await (await fetch(`${admin}/stats/prometheus`)).text();
  let n = 0;
  for (const m of text.matchAll(new RegExp(`^${name}_count(?:\\{[^}]*\\})? (\\d+)$`, "gm"))) {
    n += Number(m[1]);
  }
  return n;
}

Deno.test("cli.options.restart-epoch: counters and histogram samples add up exactly across a hot restart under a steady load (the parent's own stats flushes and its last requests included)", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const id = String(pickDynamicBaseId("@proxy_domain_socket"));
  const flags = [
    ...["--base-id", id, "--concurrency", "2"],
    ...["--drain-time-s", "1", "--parent-shutdown-time-s", "3"],
  ];
  const bootstrap = { ...proxyBootstrap(origin.addr.port), stats_flush_interval: "0.1s" };
  const parent = await startProxyProcess(bootstrap, flags);
  let child: ProxyProcess | null = null;
  try {
    const port = await listenerPort(parent.admin);
    const statuses: number[] = [];
    let loading = true;
    // Two clients, each a request every 10 ms on a fresh connection, until the parent exits.
    const load = Promise.all(Array.from({ length: 2 }, async () => {
      while (loading) {
        statuses.push(await getOnce(port));
        await new Promise((r) => setTimeout(r, 10));
      }
    }));
    await new Promise((r) => setTimeout(r, 500));
    const fixed = structuredClone(bootstrap) as typeof bootstrap & {
      static_resources: { listeners: { address: { socket_address: { port_value: number } } }[] };
    };
    fixed.static_resources.listeners[0].address.socket_address.port_value = port;
    child = await startProxyProcess(fixed, [...flags, "--restart-epoch", "1"]);
    assert.equal((await parent.exited).code, 0);
    // A little load on the child alone, then stop.
    await new Promise((r) => setTimeout(r, 300));
    loading = false;
    await load;
    const n = statuses.filter((s) => s === 200).length;
    const { stderr } = await parent.exited;
    assert.deepEqual(
      statuses.filter((s) => s !== 200 && s !== 0),
      [],
      `${statuses.length} requests; the parent's log:\n${stderr}`,
    );
    const c = child;
    const stats = await statsOf(c.admin);
    assert.equal(stats.get("http.ingress_http.downstream_rq_total"), n);
    assert.equal(stats.get("http.ingress_http.downstream_rq_2xx"), n);
    assert.equal(stats.get("cluster.demo.upstream_rq_total"), n);
    assert.equal(stats.get("cluster.demo.upstream_rq_200"), n);
    const histograms = async () => [
      await samples(c.admin, "proxy_http_downstream_rq_time"),
      await samples(c.admin, "proxy_cluster_upstream_rq_time"),
    ];
    await waitFor(
      async () => (await histograms()).every((x) => x === n) || undefined,
      10_000,
      `${n} samples in each request-time histogram`,
    ).catch(async (e) => assert.fail(`${e.message}: ${await histograms()}`));
    // The new process steers new connections to its own sockets, so the kernel has nothing to
    // reset in the parent's accept queues whatever net.ipv4.tcp_migrate_req says: no notice.
    await c.stop();
    const log = (await c.exited).stderr;
    assert.match(log, /new connections to 127\.0\.0\.1:\d+ go to this process's 2 sockets/);
    assert.ok(!log.includes("net.ipv4.tcp_migrate_req is 0"), log);
  } finally {
    await child?.stop();
    await parent.stop();
    await origin.shutdown();
  }
});
