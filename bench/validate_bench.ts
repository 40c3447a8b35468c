/**
 * Benchmark of Cluster validation at scale: writes a 10,000-cluster bootstrap YAML to a temp
 * directory, then times (1) reading it as the command line does (`loadYamlBounded`) plus
 * `validateClusters` in this process and (2) the whole command line
 * `deno run -A mod.ts --mode validate -c <file>` end to end, when the command line answers that
 * mode. Target: 1 s end to end. With `--baseline <checkout>`, the end-to-end runs
 * alternate between this tree and that checkout of the project (another revision), and the
 * ratio of their CPU times (user plus system, less disturbed by other load than wall time) is
 * printed, of the best runs and of the medians. Every figure is printed with the load average,
 * since the machine may be shared. A report, not a test.
 *
 * Run: `deno run -A bench/validate_bench.ts [clusters] [--baseline <dir>] [--rounds <n>]`.
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
import { loadYamlBounded } from "../src/config/yaml_limits.ts";

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

/** One `--mode validate` run of the `mod.ts` in `root`: wall and CPU time, exit and output. */
async function endToEnd(
  file: string,
  root: string,
): Promise<{ ms: number; cpuMs: number; code: number; out: string }> {
  const t0 = performance.now();
  // The shell's `times`, after the run, reports the child's CPU time without another tool.
  const script = '"$0" run -A "$1" --mode validate -c "$2"; c=$?; times >&2; exit $c';
  const p = await new Deno.Command("sh", {
    args: ["-c", script, Deno.execPath(), `${root}/mod.ts`, file],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t0;
  const out = new TextDecoder().decode(p.stdout) + new TextDecoder().decode(p.stderr);
  return { ms, cpuMs: childCpuMs(out), code: p.code, out };
}

/**
 * The children's user plus system time from the output of the shell's `times` (its last line,
 * `0m1.234s 0m0.456s`), in milliseconds; NaN when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { childCpuMs } from "./validate_bench.ts";
 * assert.equal(childCpuMs("OK\n0m0.001s 0m0.002s\n0m1.250s 0m0.500s\n"), 1750);
 * ```
 */
export function childCpuMs(out: string): number {
  const m = out.trim().split("\n").at(-1)?.match(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/);
  if (!m) return NaN;
  return Math.round((Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000);
}

/**
 * The median of some figures (the lower middle one of an even count).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { median } from "./validate_bench.ts";
 * assert.equal(median([3, 1, 2]), 2);
 * assert.equal(median([4, 1, 3, 2]), 2);
 * ```
 */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** The 1-minute load average and the CPU count, for printing beside a figure. */
export function loadNote(): string {
  return `load ${Deno.loadavg()[0].toFixed(2)} on ${navigator.hardwareConcurrency} CPUs`;
}

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i < 0 ? undefined : args.splice(i, 2)[1];
  };
  const baseline = flag("--baseline");
  const rounds = Number(flag("--rounds") ?? 3);
  const n = Number(args[0] ?? 10000);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`validate_bench: the cluster count must be a positive integer, not '${args[0]}'`);
    Deno.exit(2);
  }
  const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const dir = await Deno.makeTempDir({ prefix: "validate_bench_" });
  try {
    const file = `${dir}/bootstrap.yaml`;
    const text = bootstrapYaml(n);
    await Deno.writeTextFile(file, text);
    console.log(`${n} clusters, ${(text.length / 1e6).toFixed(1)} MB of YAML (${loadNote()})`);
    for (let run = 1; run <= 3; run++) {
      const t0 = performance.now();
      // Read as the command line reads a bootstrap file (the plain block subset without js-yaml).
      const doc = loadYamlBounded(text) as { static_resources: { clusters: unknown[] } };
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
    const trees = baseline ? [["this tree", here], ["baseline", baseline]] : [["this tree", here]];
    const best = new Map<string, { ms: number; cpuMs: number }>();
    const all = new Map<string, { ms: number[]; cpuMs: number[] }>();
    for (let round = 1; round <= rounds; round++) {
      for (const [label, root] of trees) {
        const e2e = await endToEnd(file, root);
        if (e2e.code !== 0 || !/OK/.test(e2e.out)) {
          console.log(
            `${label}: end to end not measured: exit ${e2e.code}: ${e2e.out.trim().split("\n")[0]}`,
          );
          continue;
        }
        console.log(
          `${label} round ${round}: end to end (mod.ts --mode validate -c) ${
            e2e.ms.toFixed(0)
          } ms wall, ${e2e.cpuMs} ms CPU (${loadNote()})`,
        );
        const b = best.get(label) ?? { ms: Infinity, cpuMs: Infinity };
        best.set(label, { ms: Math.min(b.ms, e2e.ms), cpuMs: Math.min(b.cpuMs, e2e.cpuMs) });
        const runs = all.get(label) ?? { ms: [], cpuMs: [] };
        runs.ms.push(e2e.ms);
        runs.cpuMs.push(e2e.cpuMs);
        all.set(label, runs);
      }
    }
    const mine = best.get("this tree");
    if (mine) {
      console.log(
        `best: ${mine.ms.toFixed(0)} ms wall (${
          (mine.ms / 1000).toFixed(2)
        }× the 1 s target), ${mine.cpuMs} ms CPU`,
      );
    }
    const base = best.get("baseline");
    if (mine && base) {
      console.log(
        `baseline best: ${
          base.ms.toFixed(0)
        } ms wall, ${base.cpuMs} ms CPU; CPU ratio this/baseline ${
          (mine.cpuMs / base.cpuMs).toFixed(2)
        }, wall ratio ${(mine.ms / base.ms).toFixed(2)}`,
      );
    }
    // Medians too: on a shared machine one lucky round makes a best, not a trend.
    const m = all.get("this tree");
    const b = all.get("baseline");
    if (m && b) {
      const [mw, mc, bw, bc] = [median(m.ms), median(m.cpuMs), median(b.ms), median(b.cpuMs)];
      console.log(
        `medians: this tree ${mw.toFixed(0)} ms wall, ${mc} ms CPU; baseline ${
          bw.toFixed(0)
        } ms wall, ${bc} ms CPU; CPU ratio ${(mc / bc).toFixed(2)}, wall ratio ${
          (mw / bw).toFixed(2)
        }`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
