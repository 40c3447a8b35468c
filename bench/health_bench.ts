/**
 * Host health at scale, in one run: the CPU share (of one core) this process spends health
 * checking 1,000 hosts over HTTP/1.1 every 1 s (reused connections, first round spread by
 * `initial_jitter`; the origins answer from another process on 20 ports), then the CPU cost and rate of requests forwarded by a cluster with outlier
 * detection off and on (defaults), interleaved. Prints figures; no targets are asserted.
 *
 * Run: `deno task bench health [--hosts 1000] [--seconds 10] [--requests 20000]`.
 *
 * @example
 * ```sh
 * deno run -A bench/health_bench.ts --hosts 200 --seconds 3 --requests 2000
 * ```
 * @module
 */
import process from "node:process";
import { Store } from "../src/stats/store.ts";
import { HealthChecker } from "../src/upstream/health_check/health_checker.ts";
import { healthCheckConfig } from "../src/upstream/health_check/health_check_config.ts";
import { Host } from "../src/upstream/host.ts";
import { Cluster } from "../src/upstream/cluster.ts";
import { testCluster, testRequest } from "../src/upstream/test_cluster.ts";
import { toResponse } from "../src/http/proxy_response.ts";
import { waitPort } from "./wrk_runs.ts";
import { argNumber } from "./bench_args.ts";

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = l.addr.port;
  l.close();
  return p;
}

const ORIGIN = `
for (const port of JSON.parse(Deno.args[0])) {
  Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response("ok"));
}
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const nHosts = argNumber("hosts", 1000);
const seconds = argNumber("seconds", 10);
const requests = argNumber("requests", 20000);
const dir = await Deno.makeTempDir({ prefix: "health-bench-" });
const ports = Array.from({ length: 20 }, freePort);
await Deno.writeTextFile(`${dir}/origin.ts`, ORIGIN);
const origin = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", `${dir}/origin.ts`, JSON.stringify(ports)],
  stdout: "null",
  stderr: "inherit",
}).spawn();
try {
  for (const p of ports) await waitPort(p, { seconds: 30 });

  // 1. Health checking 1,000 hosts every second.
  const store = new Store();
  const hosts = Array.from({ length: nHosts }, (_, i) =>
    new Host({
      address: "127.0.0.1",
      port: ports[i % ports.length],
      hostname: "",
      weight: 1,
      priority: 0,
      region: "",
      zone: "",
      sub_zone: "",
      metadata: {},
    }));
  const hc = new HealthChecker(
    { name: "hc", effective: testCluster("hc", []), hadTraffic: () => true, healthChanged() {} },
    healthCheckConfig({
      timeout: "1s",
      interval: "1s",
      // The first round spreads over one interval, as deployments with many hosts set it.
      initial_jitter: "1s",
      unhealthy_threshold: 2,
      healthy_threshold: 1,
      reuse_connection: true,
      http_health_check: { path: "/healthz" },
    } as never),
    store.scope("cluster").scope("hc"),
  );
  const attempts = () => store.counter("cluster.hc.health_check.attempt").value();
  const failures = () => store.counter("cluster.hc.health_check.failure").value();
  const netFailures = () => store.counter("cluster.hc.health_check.network_failure").value();
  hc.addHosts(hosts);
  await sleep(3000); // connections open, first rounds done
  const a0 = attempts();
  const f0 = failures();
  const c0 = cpuMs();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const cpu = cpuMs() - c0;
  const wall = performance.now() - t0;
  const checks = attempts() - a0;
  hc.close();
  console.log(`health checking ${nHosts} hosts (HTTP/1.1, 1 s interval, reused connections)`);
  console.log(
    `  checks/s ${(checks * 1000 / wall).toFixed(0)}; failures: ${f0} while starting, ${
      failures() - f0
    } while measured (network ${netFailures()} in all)`,
  );
  console.log(
    `  CPU ${(100 * cpu / wall).toFixed(1)}% of one core, ${
      (cpu * 1000 / checks).toFixed(0)
    } µs per check`,
  );

  // 2. Requests with outlier detection off and on.
  const run = async (outlier: boolean) => {
    const c = new Cluster(
      testCluster("o", ports.slice(0, 4).map((p) => ["127.0.0.1", p]), {
        outlierDetection: outlier ? {} : null,
      }),
      new Store(),
    );
    let next = 0;
    const worker = async () => {
      while (next++ < requests) await (await toResponse(await c.forward(testRequest()))).text();
    };
    await Promise.all(Array.from({ length: 16 }, worker)); // warm-up round
    next = 0;
    const c1 = cpuMs();
    const t1 = performance.now();
    await Promise.all(Array.from({ length: 32 }, worker));
    const w = performance.now() - t1;
    const used = cpuMs() - c1;
    c.close();
    return { rps: requests * 1000 / w, usPerReq: used * 1000 / requests };
  };
  const results: Record<string, { rps: number; usPerReq: number }[]> = { off: [], on: [] };
  for (let r = 0; r < 2; r++) {
    results.off.push(await run(false));
    results.on.push(await run(true));
  }
  console.log(`requests through a cluster (${requests} per run, 32 concurrent, 2 runs each)`);
  for (const [k, xs] of Object.entries(results)) {
    const rps = xs.reduce((s, x) => s + x.rps, 0) / xs.length;
    const us = xs.reduce((s, x) => s + x.usPerReq, 0) / xs.length;
    console.log(
      `  outlier detection ${k.padEnd(3)} ${rps.toFixed(0).padStart(7)} req/s ${
        us.toFixed(1).padStart(6)
      } µs CPU per request (client side included)`,
    );
  }
  const avg = (xs: { usPerReq: number }[]) => xs.reduce((s, x) => s + x.usPerReq, 0) / xs.length;
  console.log(`  CPU per request on / off = ${(avg(results.on) / avg(results.off)).toFixed(2)}`);
} finally {
  origin.kill("SIGTERM");
  await origin.status;
  await Deno.remove(dir, { recursive: true });
}
