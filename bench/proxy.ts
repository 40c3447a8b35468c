/**
 * Proxy benchmark: our proxy (run as `deno task proxy` runs it), nginx and haproxy in front of
 * the same local nginx origin, measured interleaved in one run with `wrk` by
 * `bench/proxy_peers.sh` (a copy of the shared peer arrangement), then an RSS-flatness run of our proxy under constant load (and the
 * baseline's after it when there is one). Missing Debian
 * packages (nginx, haproxy, wrk) are installed with apt-get. Bounded to about three minutes.
 *
 * Run: `deno run -A bench/proxy.ts [--rounds 2] [--duration 5] [--rss-seconds 60]
 * [--baseline DIR | --floor]`. With `--baseline DIR` (a checkout of another revision, e.g. made with
 * `git worktree add`), that revision's proxy runs as a second candidate (`baseline`) in the
 * same interleaved run, so two builds are compared beside the same peers. With `--floor`
 * instead, the second candidate is `deno-floor` (`bench/deno_floor.ts`, run with the proxy task's
 * flags): the least a Deno program does to proxy these requests, so the table shows how much of
 * the gap to nginx is Deno's I/O and how much the proxy's own work.
 * Targets (one worker each, issue 19): req/s at 64 connections at least 0.85x nginx's (column
 * `xngx_w1`), CPU per request at most 1.4x nginx's (`cpu_us/r`), p50 at one connection at most
 * 1.25x nginx's and p99 at 64 connections at most 1.3x (`p50xn1`, `p99xn1`); RSS flat over the
 * RSS run. On a shared machine compare ratios from one run, never figures from two.
 *
 * @example
 * ```sh
 * deno run -A bench/proxy.ts --rounds 2 --duration 5
 * ```
 * @module
 */

import { proxyRunArgs, proxyRunFlags } from "../tools/proxy_run_flags.ts";
import { processTicks, rssKb } from "./wrk_runs.ts";
import { argNumber, argText } from "./bench_args.ts";

/** The user and system CPU ticks of process `pid` so far. */
function cpuTicks(pid: number): number {
  const t = processTicks(pid);
  return t.user + t.sys;
}

const here = new URL(".", import.meta.url).pathname;
const root = new URL("..", import.meta.url).pathname;

async function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const p = new Deno.Command(cmd, { args, env, stdout: "inherit", stderr: "inherit" }).spawn();
  return (await p.status).code;
}

async function has(bin: string): Promise<boolean> {
  const o = await new Deno.Command("sh", { args: ["-c", `command -v ${bin}`], stdout: "null" })
    .output();
  return o.success;
}

/** Installs the peers' Debian packages when missing. */
export async function ensurePackages(): Promise<void> {
  const missing: string[] = [];
  for (const [bin, pkg] of [["nginx", "nginx"], ["haproxy", "haproxy"], ["wrk", "wrk"]]) {
    if (!await has(bin)) missing.push(pkg);
  }
  if (missing.length === 0) return;
  console.error(`installing ${missing.join(" ")} with apt-get`);
  const sudo = Deno.uid() === 0 ? [] : ["sudo"];
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  const apt = (a: string[]) =>
    sudo.length ? run("sudo", ["apt-get", ...a], env) : run("apt-get", a, env);
  await apt(["update", "-qq"]);
  if (await apt(["install", "-y", "-qq", ...missing]) !== 0) {
    throw new Error("apt-get install failed");
  }
}

/** A bootstrap with one listener on `listen` forwarding to `origin` (both on 127.0.0.1). */
export function benchBootstrap(listen: number, origin: number): string {
  return JSON.stringify({
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: [{
        name: "bench",
        address: { socket_address: { address: "127.0.0.1", port_value: listen } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "bench",
              generate_request_id: false,
              route_config: {
                virtual_hosts: [{
                  name: "all",
                  domains: ["*"],
                  routes: [{ match: { prefix: "/" }, route: { cluster: "origin" } }],
                }],
              },
              http_filters: [{ name: "envoy.filters.http.router" }],
            },
          }],
        }],
      }],
      clusters: [{
        name: "origin",
        type: "STATIC",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "origin",
          endpoints: [{
            lb_endpoints: [{
              endpoint: {
                address: { socket_address: { address: "127.0.0.1", port_value: origin } },
              },
            }],
          }],
        },
      }],
    },
  });
}

/**
 * `deno` arguments for the proxy of the tree at `tree` (ending in `/`) on bootstrap `cfg` with
 * one worker, run as its `proxy` task runs it (its flags; its bundle, built when stale): what the
 * benchmarks run.
 */
export async function oneWorkerProxyArgs(tree: string, cfg: string): Promise<string[]> {
  const run = await proxyRunArgs(new URL(`file://${tree}`));
  return [...run, "-c", cfg, "-l", "error", "--concurrency", "1"];
}

/** `exec deno <args>` for `bash -c`, each argument single-quoted. */
function shellCommand(args: string[]): string {
  const q = (a: string) => `'${a.replaceAll("'", `'\\''`)}'`;
  return `exec ${q(Deno.execPath())} ${args.map(q).join(" ")}`;
}

/**
 * Runs the proxy of checkout `dir` alone against a Deno origin for `seconds` under wrk and
 * samples its RSS; prints its CPU time per request too. The proxy runs with the flags of that
 * checkout's `deno task proxy` (`tools/proxy_run_flags.ts`), as `deno task start` runs it.
 */
async function rssRun(seconds: number, dir: string, label: string): Promise<void> {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x".repeat(2048)),
  );
  const listen = 19290;
  const cfg = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(cfg, benchBootstrap(listen, origin.addr.port));
  const proxy = new Deno.Command(Deno.execPath(), {
    args: await oneWorkerProxyArgs(`${dir}/`, cfg),
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let i = 0; i < 100; i++) {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port: listen })).close();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const wrk = new Deno.Command("wrk", {
      args: ["-t1", "-c64", `-d${seconds}s`, `http://127.0.0.1:${listen}/`],
      stdout: "piped",
    }).spawn();
    const samples: number[] = [];
    const ticks0 = cpuTicks(proxy.pid);
    const timer = setInterval(() => samples.push(rssKb(proxy.pid)), 5000);
    const out = new TextDecoder().decode((await wrk.output()).stdout);
    clearInterval(timer);
    const ticks = cpuTicks(proxy.pid) - ticks0;
    const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
    const mb = samples.map((k) => (k / 1024).toFixed(1));
    console.log(
      `\n== ${label}: RSS of the proxy under wrk -t1 -c64 for ${seconds}s (${rps} req/s) ==`,
    );
    // Clock ticks are 1/100 s on Linux.
    console.log(`CPU per request: ${(ticks * 10_000 / requests).toFixed(1)} us`);
    console.log(`samples every 5 s (MiB): ${mb.join(" ")}`);
    if (samples.length >= 4) {
      const early = samples[1];
      const late = samples[samples.length - 1];
      console.log(
        `growth after warm-up: ${((late - early) / 1024).toFixed(1)} MiB (${
          ((100 * (late - early)) / early).toFixed(1)
        }%)`,
      );
    }
  } finally {
    try {
      Deno.kill(proxy.pid, "SIGTERM");
    } catch { /* gone */ }
    await proxy.status;
    await origin.shutdown();
    await Deno.remove(cfg);
  }
}

if (import.meta.main) {
  await ensurePackages();
  const rounds = argNumber("rounds", 2);
  const duration = argNumber("duration", 5);
  const rssSeconds = argNumber("rss-seconds", 60);
  const listen = 19189;
  const cfg = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(cfg, benchBootstrap(listen, 19180));
  const baseline = argText("baseline", undefined);
  const floor = Deno.args.includes("--floor");
  if (floor && baseline !== undefined) {
    console.error("--baseline and --floor both name the second candidate: give one");
    Deno.exit(2);
  }
  // The second candidate's bootstrap (the baseline's or the floor's): its own port.
  const secondCfg = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(secondCfg, benchBootstrap(19190, 19180));
  const second = baseline !== undefined
    ? { name: "baseline", args: await oneWorkerProxyArgs(`${baseline}/`, secondCfg) }
    : floor
    ? {
      name: "deno-floor",
      args: ["run", ...proxyRunFlags(), `${here}deno_floor.ts`, "-c", secondCfg],
    }
    : null;
  const code = await run("bash", [`${here}proxy_peers.sh`], {
    PEERS: "direct nginx-w1 haproxy-t1",
    CANDIDATE_NAME: "proxyspec",
    // One worker, as the peers run one (nginx-w1, haproxy-t1): the figures are per worker.
    // Each build runs with its own `proxy` task's flags, as `deno task start` runs it.
    CANDIDATE_CMD: shellCommand(await oneWorkerProxyArgs(root, cfg)),
    ...(second === null ? {} : {
      CANDIDATE2_NAME: second.name,
      CANDIDATE2_CMD: shellCommand(second.args),
    }),
    ROUNDS: String(rounds),
    DURATION: String(duration),
    WARMUP: "3",
    QUIET_PCT: "0",
    BASE_PORT: "19180",
    DENO: Deno.execPath(),
  });
  await Deno.remove(cfg);
  await Deno.remove(secondCfg);
  if (rssSeconds > 0) {
    await rssRun(rssSeconds, root.replace(/\/$/, ""), "this tree");
    if (baseline !== undefined) await rssRun(rssSeconds, baseline.replace(/\/$/, ""), "baseline");
  }
  Deno.exit(code);
}
