/**
 * xDS at scale, in one process: `tools/xds_server.ts` serves N clusters (default 10,000), each
 * a STATIC cluster with E endpoints (default 10: 100,000 endpoints), over ADS to a cluster
 * manager subscribed to CDS. Prints the time from subscribing to every cluster applied, the
 * wire size of the update, RSS before and after, the CPU time spent (the process's: the control
 * plane runs in it too), and the time and CPU from a control-plane change (every cluster's
 * endpoints replaced) to the manager following it. No
 * targets are asserted.
 *
 * Run: `deno task bench xds [--clusters 10000] [--endpoints 10]`.
 *
 * @example
 * ```sh
 * deno run -A bench/xds_bench.ts --clusters 1000 --endpoints 2
 * ```
 * @module
 */
import process from "node:process";
import { join } from "node:path";
import { Store } from "../src/stats/store.ts";
import { ClusterManager } from "../src/upstream/cluster_manager.ts";
import { testCluster } from "../src/upstream/test_cluster.ts";
import { startXdsServer } from "../tools/xds_server.ts";
import { argNumber } from "./bench_args.ts";

const CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

function cluster(i: number, endpoints: number, base: number) {
  return {
    "@type": CLUSTER,
    name: `c${i}`,
    type: "STATIC",
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: `c${i}`,
      endpoints: [{
        lb_endpoints: Array.from({ length: endpoints }, (_, j) => ({
          endpoint: {
            address: {
              socket_address: { address: "127.0.0.1", port_value: base + ((i + j) % 50000) },
            },
          },
        })),
      }],
    },
  };
}

const mib = (b: number) => `${(b / 1048576).toFixed(1)} MiB`;
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main() {
  const n = argNumber("clusters", 10000);
  const e = argNumber("endpoints", 10);
  const dir = await Deno.makeTempDir();
  const write = (base: number) =>
    Deno.writeTextFileSync(
      join(dir, "clusters.json"),
      JSON.stringify(Array.from({ length: n }, (_, i) => cluster(i, e, base))),
    );
  write(10000);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const wire = JSON.stringify(JSON.parse(Deno.readTextFileSync(join(dir, "clusters.json"))))
    .length;
  const store = new Store();
  const rss0 = Deno.memoryUsage().rss;
  const cm = new ClusterManager([testCluster("xds", [["127.0.0.1", cp.port]])], {
    stats: store,
    cds: { ads: {}, initial_fetch_timeout: "600s" },
    ads: { api_type: "GRPC", grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }] },
  });
  try {
    const cpu0 = cpuMs();
    const t0 = performance.now();
    await cm.start();
    const applied = performance.now() - t0;
    const cpu = cpuMs() - cpu0;
    const got = cm.names().size - 1;
    const hosts = [...cm.clusters()].reduce((s, c) => s + c.hosts().length, 0) - 1;
    const rss1 = Deno.memoryUsage().rss;
    // A change: every cluster's endpoints move; time until the last cluster follows.
    write(20000);
    const cpu1 = cpuMs();
    const t1 = performance.now();
    await cp.reload();
    const last = `c${n - 1}`;
    while (cm.get(last)?.hosts()[0]?.port !== 20000 + ((n - 1) % 50000)) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const follow = performance.now() - t1;
    const followCpu = cpuMs() - cpu1;
    console.log(`xds: ${got} clusters, ${hosts} endpoints over ADS (JSON size ${mib(wire)})`);
    console.log(`  first update applied in ${applied.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms)`);
    console.log(`  RSS ${mib(rss0)} before, ${mib(rss1)} after (+${mib(rss1 - rss0)})`);
    console.log(
      `  every endpoint moved: followed in ${follow.toFixed(0)} ms (CPU ${
        followCpu.toFixed(0)
      } ms, control plane's re-read and encoding included)`,
    );
    console.log(
      `  cds update_success ${store.counter("cluster_manager.cds.update_success").value()}`,
    );
  } finally {
    await cm.close();
    await cp.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
