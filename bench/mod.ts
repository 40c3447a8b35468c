/**
 * `deno task bench <name> [args...]`: runs one benchmark in its own process, so each gets a
 * fresh heap and its own V8 flags. With no name, lists them. Benchmarks print figures and
 * ratios; none is a test (no test asserts on time).
 *
 * @example
 * ```sh
 * deno task bench validate 10000
 * deno task bench proxy --duration 10
 * ```
 * @module
 */

import { proxyRunFlags } from "../tools/proxy_run_flags.ts";

/**
 * `--v8-flags` with the V8 flags the proxy runs with (those of the `proxy` task, e.g. its young
 * generation size) and `extra`: benchmarks that hold a proxy's state in their own process (the
 * stats store) measure it under the same heap settings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyV8Flags } from "./mod.ts";
 * assert.match(proxyV8Flags(["--expose-gc"]), /^--v8-flags=(.+,)?--expose-gc$/);
 * ```
 */
export function proxyV8Flags(extra: readonly string[]): string {
  const own = proxyRunFlags().filter((f) => f.startsWith("--v8-flags="))
    .flatMap((f) => f.slice("--v8-flags=".length).split(","));
  return `--v8-flags=${[...own, ...extra].join(",")}`;
}

/** The benchmarks: script, extra Deno flags, and what each measures. */
export const BENCHMARKS: Readonly<
  Record<string, { script: string; flags: readonly string[]; measures: string }>
> = {
  validate: {
    script: "validate_bench.ts",
    flags: [],
    measures:
      "--mode validate on a generated 10,000-cluster bootstrap (target 1 s); --baseline <dir> for a ratio",
  },
  memory: {
    script: "idle_rss_bench.ts",
    flags: [],
    measures:
      "idle RSS on the default bootstrap beside a bare Deno.serve, with the ratio (target 70 MiB); --baseline <dir>",
  },
  stats: {
    script: "stats_bench.ts",
    flags: [proxyV8Flags(["--expose-gc"])],
    measures:
      "memory per cluster and each /stats format's first request at 10,000 clusters (targets 20 KB, 1 s), later renders, /ready latency during them",
  },
  stats_phases: {
    script: "stats_phases.ts",
    flags: [proxyV8Flags(["--expose-gc"])],
    measures:
      "in process at 10,000 clusters: memory per stat kind; build, name order, Prometheus index and each render timed alone",
  },
  conformance: {
    script: "conformance_bench.ts",
    flags: [],
    measures: "the whole conformance suite against our proxy (target under 60 s)",
  },
  lb: {
    script: "lb_bench.ts",
    flags: [],
    measures: "one pick per policy at 10..10,000 hosts; ring and Maglev build time at 10,000 hosts",
  },
  lb_proxy: {
    script: "lb_proxy_bench.ts",
    flags: [],
    measures:
      "req/s through the proxy with RING_HASH versus ROUND_ROBIN, interleaved, with the ratio",
  },
  health: {
    script: "health_bench.ts",
    flags: [],
    measures:
      "CPU share of health checking 1,000 hosts every 1 s; request cost with outlier detection on versus off",
  },
  tls: {
    script: "tls.ts",
    flags: [],
    measures: "req/s through our TLS listener beside nginx terminating TLS, with the ratio",
  },
  upstream: {
    script: "upstream_protocols.ts",
    flags: [],
    measures:
      "req/s, CPU per request and p50/p99 forwarding to a TLS and to an HTTP/2 origin, beside nginx and haproxy doing the same, with ratios",
  },
  lifecycle: {
    script: "lifecycle.ts",
    flags: [],
    measures: "req/s at 1 and 2 workers (ratio); failed requests through a drain and a hot restart",
  },
  reliability: {
    script: "reliability.ts",
    flags: [],
    measures:
      "upstream fault matrix, slowloris, connection limit, soak and drain under load: failures, 5xx by cause, RSS, descriptors; worst /ready and proxied latency during 10,000-cluster admin renders",
  },
  xds: {
    script: "xds_bench.ts",
    flags: [],
    measures:
      "10,000 clusters and 100,000 endpoints over ADS: time to apply, RSS, CPU; time to follow a change",
  },
  proxy: {
    script: "proxy.ts",
    flags: [],
    measures:
      "req/s, p50/p99 and RSS beside nginx and haproxy (and, with --floor, the Deno floor), interleaved, with ratios",
  },
  ab: {
    script: "proxy_ab.ts",
    flags: [],
    measures:
      "two or more builds (checkouts, Deno flags, or a program such as bench/deno_floor.ts) in turns of short runs; CPU per request as paired ratios to the first, req/s, p99, RSS",
  },
  alloc: {
    script: "alloc_profile.ts",
    flags: [],
    measures:
      "bytes the proxy allocates per request under wrk, in all and per function (--promoted: what outlives the young generation)",
  },
  inflight: {
    script: "inflight_heap.ts",
    flags: [],
    measures:
      "heap objects and bytes one request waiting upstream keeps alive on a kept-alive connection, by kind and by holder (two heap snapshots)",
  },
};

async function main(args: string[]): Promise<number> {
  const [name, ...given] = args;
  // `deno task bench <name> -- <args>` hands the separator on: it is not an argument.
  const rest = given[0] === "--" ? given.slice(1) : given;
  const bench = name ? BENCHMARKS[name] : undefined;
  if (!bench) {
    if (name) console.error(`unknown benchmark '${name}'`);
    console.log("usage: deno task bench <name> [args...]\n");
    for (const [n, b] of Object.entries(BENCHMARKS)) console.log(`  ${n.padEnd(12)} ${b.measures}`);
    return name ? 2 : 0;
  }
  const script = new URL(bench.script, import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...bench.flags, script, ...rest],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return (await child.status).code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
