import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
  statsOf,
  waitFor,
} from "./testing_proxy_process.ts";

/** An origin answering `status`, counting the requests it got. */
function origin(status: number) {
  const o = { hits: 0, port: 0, server: null as unknown as Deno.HttpServer<Deno.NetAddr> };
  o.server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    o.hits++;
    return new Response(`${status}\n`, { status });
  });
  o.port = o.server.addr.port;
  return o;
}

const endpoint = (port: number) => ({
  endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
});

/** `requests` GETs on fresh connections, `parallel` at a time; their statuses. */
async function burst(port: number, requests: number, parallel = 8): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < requests; i += parallel) {
    const n = Math.min(parallel, requests - i);
    out.push(...await Promise.all(Array.from({ length: n }, () => requestOnce(port, "/"))));
  }
  return out;
}

Deno.test("cluster.fields.outlier-detection cli.options.concurrency: with --concurrency 2 one detector serves the whole process: an origin answering 503 is ejected after consecutive_5xx, no worker sends to it while ejected, it returns after the ejection time, and the event log has one line each", async () => {
  const good = origin(200);
  const bad = origin(503);
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_od_" });
  const eventLog = `${dir}/outlier.log`;
  const b = proxyBootstrap(good.port, {
    load_assignment: {
      cluster_name: "demo",
      endpoints: [{ lb_endpoints: [endpoint(good.port), endpoint(bad.port)] }],
    },
    outlier_detection: {
      consecutive_5xx: 3,
      interval: "1s",
      base_ejection_time: "5s",
      max_ejection_percent: 50,
      success_rate_minimum_hosts: 1,
      success_rate_request_volume: 10,
      enforcing_success_rate: 0,
      enforcing_consecutive_gateway_failure: 0,
    },
  });
  b.cluster_manager = { outlier_detection: { event_log_path: eventLog } };
  const p = await startProxyProcess(b, ["--concurrency", "2"]);
  const clusters = async () => await (await fetch(`${p.admin}/clusters`)).text();
  const badFlags = new RegExp(`demo::127\\.0\\.0\\.1:${bad.port}::health_flags::([^\\n]*)\\n`);
  const ejected = async () => badFlags.exec(await clusters())?.[1].includes("failed_outlier_check");
  try {
    const port = await listenerPort(p.admin);
    // Traffic on many connections (both workers serve) until the main thread's detector ejects.
    await waitFor(
      async () => {
        await burst(port, 8);
        return await ejected() ? true : undefined;
      },
      30_000,
      "the 503 origin to be ejected",
    );
    let stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster.demo.outlier_detection.ejections_active"), 1);
    assert.equal(stats.get("cluster.demo.outlier_detection.ejections_enforced_total"), 1);
    assert.equal(stats.get("cluster.demo.outlier_detection.ejections_enforced_consecutive_5xx"), 1);
    // While ejected, no worker routes to the origin.
    const before = bad.hits;
    const statuses = await burst(port, 40);
    assert.ok(await ejected(), "still ejected after the burst (the ejection time is 5 s)");
    assert.deepEqual(statuses, new Array(40).fill(200));
    assert.equal(bad.hits, before, "no request reached the ejected origin");
    stats = await statsOf(p.admin);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `connections spread over both workers: ${w0} and ${w1}`);
    // The success rate of the remaining host comes from every worker's answers.
    await waitFor(
      async () => {
        const text = await clusters();
        if (text.includes("demo::outlier::success_rate_average::100\n")) return true;
        await burst(port, 8);
        return undefined;
      },
      30_000,
      "a success rate average computed by the main thread's detector",
    );
    assert.match(
      await clusters(),
      new RegExp(`demo::127\\.0\\.0\\.1:${good.port}::success_rate::100\\n`),
    );
    // After the ejection time the host returns, on the main thread and on the workers.
    await waitFor(async () => await ejected() ? undefined : true, 30_000, "the host to return");
    assert.equal(
      (await statsOf(p.admin)).get("cluster.demo.outlier_detection.ejections_active"),
      0,
    );
    // One detector, one log: an ejection and a return of the 503 origin.
    const events = (await Deno.readTextFile(eventLog)).trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      events.map((e) => [e.action, e.type, e.upstream_url, e.cluster_name, e.enforced]),
      [
        ["EJECT", "CONSECUTIVE_5XX", `127.0.0.1:${bad.port}`, "demo", true],
        ["UNEJECT", "CONSECUTIVE_5XX", `127.0.0.1:${bad.port}`, "demo", false],
      ],
    );
    const back = bad.hits;
    await waitFor(
      async () => {
        await burst(port, 4);
        return bad.hits > back ? true : undefined;
      },
      30_000,
      "traffic to reach the returned host",
    );
    assert.equal(await p.stop(), 0);
  } finally {
    await p.stop();
    await good.server.shutdown();
    await bad.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
