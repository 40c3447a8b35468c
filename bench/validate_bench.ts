/**
 * Benchmark of Cluster validation at scale: writes a 10,000-cluster bootstrap YAML to a temp
 * directory, then times (1) parsing plus `validateClusters` in this process and (2) the whole
 * command line `deno run -A mod.ts --mode validate -c <file>` end to end, when the command line
 * answers that mode. Target: under 2 s end to end on a 2-core machine. A report, not a test.
 *
 * Run: `deno run -A bench/validate_bench.ts [clusters]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bootstrapYaml } from "./validate_bench.ts";
 * assert.equal(bootstrapYaml(2).includes("cluster_1"), true);
 * ```
 * @module
 */
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { validateClusters } from "../src/config/validate_cluster.ts";

/** A bootstrap YAML with `n` clusters of mixed types, policies and nested objects. */
export function bootstrapYaml(n: number): string {
  const clusters = [];
  for (let i = 0; i < n; i++) {
    const dns = i % 3 === 1;
    const name = `cluster_${i}`;
    const addr = dns ? `svc-${i}.internal` : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    clusters.push({
      name,
      type: dns ? "STRICT_DNS" : "STATIC",
      connect_timeout: "0.25s",
      lb_policy: i % 2 ? "RING_HASH" : "ROUND_ROBIN",
      ...(i % 2 ? { ring_hash_lb_config: { minimum_ring_size: 1024 } } : {}),
      load_assignment: {
        cluster_name: name,
        endpoints: [{
          lb_endpoints: [
            { endpoint: { address: { socket_address: { address: addr, port_value: 8080 } } } },
          ],
        }],
      },
      circuit_breakers: { thresholds: [{ max_connections: 100 }, { priority: "HIGH" }] },
      ...(i % 5 === 0
        ? {
          health_checks: [{
            timeout: "1s",
            interval: "5s",
            unhealthy_threshold: 2,
            healthy_threshold: 1,
            http_health_check: { path: "/healthz" },
          }],
        }
        : {}),
    });
  }
  return yaml.dump({
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: { clusters },
  }, { noRefs: true });
}

async function endToEnd(file: string): Promise<{ ms: number; code: number; out: string }> {
  const mod = new URL("../mod.ts", import.meta.url).pathname;
  const t0 = performance.now();
  const p = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", mod, "--mode", "validate", "-c", file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  const out = new TextDecoder().decode(p.stdout) + new TextDecoder().decode(p.stderr);
  return { ms, code: p.code, out };
}

if (import.meta.main) {
  const n = Number(Deno.args[0] ?? 10000);
  const dir = await Deno.makeTempDir({ prefix: "validate_bench_" });
  try {
    const file = `${dir}/bootstrap.yaml`;
    const text = bootstrapYaml(n);
    await Deno.writeTextFile(file, text);
    console.log(`${n} clusters, ${(text.length / 1e6).toFixed(1)} MB of YAML`);
    for (let run = 1; run <= 3; run++) {
      const t0 = performance.now();
      const doc = yaml.load(text) as { static_resources: { clusters: unknown[] } };
      const t1 = performance.now();
      const r = validateClusters(doc.static_resources.clusters, {
        path: "static_resources.clusters",
        allowUnknown: false,
      });
      const t2 = performance.now();
      console.log(
        `in-process run ${run}: parse ${(t1 - t0).toFixed(0)} ms, validate ${
          (t2 - t1).toFixed(0)
        } ms (${r.errors.length} errors, ${r.clusters.length} effective clusters)`,
      );
    }
    const e2e = await endToEnd(file);
    const ok = e2e.code === 0 && /OK/.test(e2e.out);
    console.log(
      ok
        ? `end to end (deno run -A mod.ts --mode validate -c): ${e2e.ms.toFixed(0)} ms`
        : `end to end not measured: the command line answered exit ${e2e.code}: ${
          e2e.out.trim().split("\n")[0]
        }`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
