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

const ROUTES = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

/** An RDS file body: route configuration `r` sending `/` to `cluster`. */
function rdsBody(version: string, cluster: string): string {
  return JSON.stringify({
    version_info: version,
    resources: [{
      "@type": ROUTES,
      name: "r",
      virtual_hosts: [{
        name: "all",
        domains: ["*"],
        routes: [{ match: { prefix: "/" }, route: { cluster } }],
      }],
    }],
  });
}

/** An origin answering `name`. */
function origin(name: string) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response(name));
}

Deno.test("cli.options.concurrency: with --concurrency 2 the main thread holds RDS and every worker takes each route configuration; the subscription's stats count once", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_rds_" });
  const file = join(dir, "rds.json");
  const write = async (body: string) => {
    await Deno.writeTextFile(join(dir, "rds.tmp"), body);
    await Deno.rename(join(dir, "rds.tmp"), file);
  };
  await Deno.writeTextFile(file, rdsBody("1", "demo"));
  const boot = proxyBootstrap(a.addr.port) as {
    static_resources: {
      listeners: Array<Record<string, unknown>>;
      clusters: Array<Record<string, unknown>>;
    };
  };
  const second = JSON.parse(
    JSON.stringify(boot.static_resources.clusters[0])
      .replaceAll('"demo"', '"other"')
      .replace(`"port_value":${a.addr.port}`, `"port_value":${b.addr.port}`),
  );
  boot.static_resources.clusters.push(second);
  const hcm = JSON.parse(JSON.stringify(boot.static_resources.listeners[0]));
  const tc = hcm.filter_chains[0].filters[0].typed_config;
  delete tc.route_config;
  tc.rds = { route_config_name: "r", config_source: { path_config_source: { path: file } } };
  boot.static_resources.listeners[0] = hcm;
  const p = await startProxyProcess(boot, ["--concurrency", "2"]);
  try {
    const port = await listenerPort(p.admin);
    assert.deepEqual(await burst(port, 24), new Array(24).fill(200));
    let stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster.demo.upstream_rq_total"), 24);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.ok(w0 > 0 && w1 > 0, `connections spread over both workers: ${w0} and ${w1}`);
    assert.equal(stats.get("server.concurrency"), 2);
    // Version 2 sends / to the other cluster, on every worker.
    await write(rdsBody("2", "other"));
    await waitFor(
      async () => {
        const s = await statsOf(p.admin);
        return s.get("http.ingress_http.rds.r.update_success") === 2 ? true : undefined;
      },
      30_000,
      "RDS version 2",
    );
    assert.deepEqual(await burst(port, 24), new Array(24).fill(200));
    stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster.other.upstream_rq_total"), 24, "no worker kept the old routes");
    assert.equal(stats.get("cluster.demo.upstream_rq_total"), 24);
    const dump = await (await fetch(`${p.admin}/config_dump?resource=dynamic_route_configs`))
      .json();
    assert.equal(dump.configs[0].version_info, "2");
  } finally {
    await p.stop();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
