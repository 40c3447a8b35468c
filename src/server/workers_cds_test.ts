import assert from "node:assert/strict";
import { join } from "node:path";
import {
  burst,
  listenerPort,
  proxyBootstrap,
  startProxyProcess,
  statsOf,
  waitFor,
} from "./testing_proxy_process.ts";

/** An origin answering 200, counting the requests it got. */
function origin() {
  const o = { hits: 0, port: 0, server: null as unknown as Deno.HttpServer<Deno.NetAddr> };
  o.server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    o.hits++;
    return new Response("ok\n");
  });
  o.port = o.server.addr.port;
  return o;
}

const CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

/** A CDS file body: cluster `dyn` on `port` (none when null). */
function cdsBody(version: string, port: number | null): string {
  const resources = port === null ? [] : [{
    "@type": CLUSTER,
    name: "dyn",
    connect_timeout: "1s",
    circuit_breakers: { thresholds: [{ priority: "DEFAULT", max_requests: 64 }] },
    load_assignment: {
      cluster_name: "dyn",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
  }];
  return JSON.stringify({ version_info: version, resources });
}

Deno.test("cli.options.concurrency: with --concurrency 2 CDS runs on the main thread and every worker takes its cluster additions, changes and removals", async () => {
  const a = origin();
  const b = origin();
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_cds_" });
  const file = join(dir, "cds.json");
  const write = async (body: string) => {
    await Deno.writeTextFile(join(dir, "cds.tmp"), body);
    await Deno.rename(join(dir, "cds.tmp"), file);
  };
  await Deno.writeTextFile(file, cdsBody("1", a.port));
  const boot = proxyBootstrap(a.port) as {
    static_resources: { listeners: Array<Record<string, unknown>> };
    dynamic_resources?: unknown;
  };
  const hcm = JSON.stringify(boot.static_resources.listeners[0])
    .replace('"route":{"cluster":"demo"}', '"route":{"cluster":"dyn"}')
    .replace('"route_config":{', '"route_config":{"validate_clusters":false,');
  boot.static_resources.listeners[0] = JSON.parse(hcm);
  boot.dynamic_resources = { cds_config: { path_config_source: { path: file } } };
  const p = await startProxyProcess(boot, ["--concurrency", "2"]);
  const versionIs = (v: string) => async () =>
    (await (await fetch(`${p.admin}/clusters`)).text()).startsWith(`version_info::${v}\n`)
      ? true
      : undefined;
  try {
    const port = await listenerPort(p.admin);
    // Version 1: dyn is origin a, on both workers.
    assert.deepEqual(await burst(port, 32), new Array(32).fill(200));
    assert.equal(a.hits, 32);
    let stats = await statsOf(p.admin);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `connections spread over both workers: ${w0} and ${w1}`);
    assert.equal(stats.get("cluster.dyn.upstream_rq_total"), 32);
    // Version 2 changes dyn to origin b: no worker keeps the old copy.
    await write(cdsBody("2", b.port));
    await waitFor(versionIs("2"), 30_000, "CDS version 2");
    assert.deepEqual(await burst(port, 32), new Array(32).fill(200));
    assert.equal(a.hits, 32);
    assert.equal(b.hits, 32);
    stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster_manager.cluster_modified"), 1);
    // Version 3 removes it: every worker answers 503 (no cluster), no origin is reached.
    await write(cdsBody("3", null));
    await waitFor(versionIs("3"), 30_000, "CDS version 3");
    assert.deepEqual(await burst(port, 16), new Array(16).fill(503));
    assert.equal(a.hits + b.hits, 64);
    stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster_manager.cluster_removed"), 1);
    assert.equal(stats.get("server.concurrency"), 2);
    assert.equal(await p.stop(), 0);
  } finally {
    await p.stop();
    await a.server.shutdown();
    await b.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
