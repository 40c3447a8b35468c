/**
 * Builds side by side: two or more proxy builds (checkouts, or one checkout with other Deno
 * flags) forward to one nginx origin, each with one worker, and take turns under `wrk -t2 -c64`
 * (`-t1` at one connection) in short runs, many rounds, the order reversed every other round.
 * Each round's CPU per request of a build is divided by the first build's in the same round, and
 * the median of those paired ratios is printed: on a machine whose speed drifts by a quarter
 * within a minute (the 2-core development VM), the ratio of runs seconds apart holds where
 * figures from separate runs do not. Also printed: medians of req/s, CPU per request split into
 * user and system time, p99, and the largest RSS seen after a run.
 *
 * Run: `deno task bench ab -- [--rounds 24] [--duration 2] [--conns 64] NAME=DIR[+FLAGS] ...`,
 * `DIR` a checkout run as its `proxy` task runs it (`tools/proxy_run_flags.ts`), or a program
 * (`.ts`, e.g. `floor=bench/deno_floor.ts`, the least a Deno proxy does) run with this tree's
 * `proxy` task flags; `+FLAGS` the Deno flags to run the entry with instead, separated by spaces
 * (e.g. `'plain=.+-A'`). Bounded by rounds x builds x (duration + 1) seconds, printed first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pairedRatio, parseBuild } from "./proxy_ab.ts";
 * assert.deepEqual(parseBuild("old=/tmp/old"), { name: "old", dir: "/tmp/old", flags: null });
 * assert.deepEqual(parseBuild("plain=.+-A --no-code-cache"), {
 *   name: "plain",
 *   dir: ".",
 *   flags: ["-A", "--no-code-cache"],
 * });
 * // Round by round against the first build: 1.2, 1.1, 1.5 -> the median 1.2.
 * assert.equal(pairedRatio([10, 20, 10], [12, 22, 15]), 1.2);
 * ```
 * @module
 */

import { benchBootstrap, ensurePackages } from "./proxy.ts";
import { median, parseWrk, processTicks, rssKb, waitPort } from "./wrk_runs.ts";
import { proxyRunArgs, proxyRunFlags } from "../tools/proxy_run_flags.ts";

/** One build: its label, its checkout, and Deno flags replacing its `proxy` task's (or null). */
export interface Build {
  name: string;
  dir: string;
  flags: string[] | null;
}

/** `NAME=DIR` or `NAME=DIR+FLAGS` (flags separated by spaces). */
export function parseBuild(spec: string): Build {
  const eq = spec.indexOf("=");
  if (eq <= 0) throw new Error(`'${spec}': expected NAME=DIR or NAME=DIR+FLAGS`);
  const rest = spec.slice(eq + 1);
  const plus = rest.indexOf("+");
  return {
    name: spec.slice(0, eq),
    dir: plus < 0 ? rest : rest.slice(0, plus),
    flags: plus < 0 ? null : rest.slice(plus + 1).split(" ").filter((f) => f !== ""),
  };
}

/** The median over rounds of `other[i] / first[i]`, to three decimals. */
export function pairedRatio(first: readonly number[], other: readonly number[]): number {
  return Math.round(median(other.map((x, i) => x / first[i])) * 1000) / 1000;
}

/** The origin: nginx answering 2,048 bytes to every request, keep-alive, one worker. */
function originConf(dir: string, port: number): string {
  return `worker_processes 1; daemon off; pid ${dir}/origin.pid; error_log ${dir}/origin.err warn;
events { worker_connections 8192; }
http {
  access_log off; client_body_temp_path ${dir}/b; proxy_temp_path ${dir}/p;
  fastcgi_temp_path ${dir}/f; uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
  keepalive_requests 1000000; keepalive_timeout 120s;
  server {
    listen 127.0.0.1:${port} backlog=4096;
    location / { default_type text/plain; return 200 "${"x".repeat(2048)}"; }
  }
}
`;
}

interface Running extends Build {
  port: number;
  child: Deno.ChildProcess;
  us: number[];
  user: number[];
  sys: number[];
  rps: number[];
  p99: number[];
  rss: number;
}

const TICK_US = 10_000; // a clock tick is 1/100 s on Linux

async function wrk(port: number, seconds: number, conns: number) {
  const out = await new Deno.Command("wrk", {
    // wrk needs a connection per thread.
    args: [
      `-t${Math.min(2, conns)}`,
      `-c${conns}`,
      `-d${seconds}s`,
      "--latency",
      `http://127.0.0.1:${port}/`,
    ],
    stdout: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1] ?? 0);
  if (requests === 0) throw new Error(`wrk on port ${port} made no requests:\n${text}`);
  return { ...parseWrk(text), requests };
}

async function main(args: string[]): Promise<void> {
  const num = (name: string, def: number) => {
    const i = args.indexOf(`--${name}`);
    if (i < 0) return def;
    const v = Number(args[i + 1]);
    if (!(v > 0)) throw new Error(`--${name}: expected a positive number, got '${args[i + 1]}'`);
    args.splice(i, 2);
    return v;
  };
  const rounds = num("rounds", 24);
  const seconds = num("duration", 2);
  const conns = num("conns", 64);
  const builds = args.map(parseBuild);
  if (builds.length < 2) throw new Error("name at least two builds: NAME=DIR[+FLAGS] ...");
  await ensurePackages();
  console.log(
    `${builds.length} builds, ${rounds} rounds of ${seconds} s each, wrk -t2 -c${conns}; ` +
      `about ${Math.ceil(rounds * builds.length * (seconds + 1) + builds.length * 4)} s`,
  );
  const tmp = await Deno.makeTempDir({ prefix: "proxy_ab_" });
  const originPort = 19480;
  await Deno.writeTextFile(`${tmp}/origin.conf`, originConf(tmp, originPort));
  const origin = new Deno.Command("nginx", {
    args: ["-p", `${tmp}/`, "-c", `${tmp}/origin.conf`],
    stderr: "null",
  }).spawn();
  const running: Running[] = [];
  try {
    await waitPort(originPort);
    for (const [i, b] of builds.entries()) {
      const port = originPort + 1 + i;
      const cfg = `${tmp}/${i}.json`;
      await Deno.writeTextFile(cfg, benchBootstrap(port, originPort));
      // A program (`.ts`) runs with this tree's proxy flags; a checkout as its proxy task runs.
      const run = b.dir.endsWith(".ts")
        ? ["run", ...proxyRunFlags(), await Deno.realPath(b.dir)]
        : await proxyRunArgs(new URL(`file://${await Deno.realPath(b.dir)}/`));
      // proxyRunArgs ends with the entry; other flags replace the ones before it.
      const argv = b.flags === null ? run : ["run", ...b.flags, run[run.length - 1]];
      console.log(`${b.name}: deno ${argv.join(" ")}`);
      const child = new Deno.Command(Deno.execPath(), {
        args: [...argv, "-c", cfg, "-l", "error", "--concurrency", "1"],
        stdout: "null",
        stderr: "inherit",
      }).spawn();
      running.push({ ...b, port, child, us: [], user: [], sys: [], rps: [], p99: [], rss: 0 });
      await waitPort(port, { seconds: 120 });
      await wrk(port, 3, conns); // warm-up
    }
    for (let r = 0; r < rounds; r++) {
      for (const b of r % 2 === 0 ? running : [...running].reverse()) {
        const t0 = processTicks(b.child.pid);
        const w = await wrk(b.port, seconds, conns);
        const t1 = processTicks(b.child.pid);
        const n = Math.max(1, w.requests);
        b.user.push((t1.user - t0.user) * TICK_US / n);
        b.sys.push((t1.sys - t0.sys) * TICK_US / n);
        b.us.push(b.user.at(-1)! + b.sys.at(-1)!);
        b.rps.push(w.rps);
        b.p99.push(w.p99Ms);
        b.rss = Math.max(b.rss, rssKb(b.child.pid) / 1024);
      }
    }
  } finally {
    for (const b of running) {
      try {
        b.child.kill("SIGTERM");
      } catch { /* gone */ }
      await b.child.status;
    }
    origin.kill("SIGTERM");
    await origin.status;
    await Deno.remove(tmp, { recursive: true });
  }
  const first = running[0];
  console.log(
    `\n${"build".padEnd(12)} ${"xcpu".padStart(6)} ${"req/s".padStart(7)} ${
      "us/req".padStart(7)
    } ` +
      `${"user".padStart(6)} ${"sys".padStart(6)} ${"p99_ms".padStart(7)} ${"rss_MiB".padStart(8)}`,
  );
  for (const b of running) {
    console.log(
      `${b.name.padEnd(12)} ${pairedRatio(first.us, b.us).toFixed(3).padStart(6)} ` +
        `${median(b.rps).toFixed(0).padStart(7)} ${median(b.us).toFixed(1).padStart(7)} ` +
        `${median(b.user).toFixed(1).padStart(6)} ${median(b.sys).toFixed(1).padStart(6)} ` +
        `${median(b.p99).toFixed(1).padStart(7)} ${b.rss.toFixed(1).padStart(8)}`,
    );
  }
  console.log(
    `xcpu: median over rounds of CPU per request / ${first.name}'s in the same round (medians of ${rounds} rounds)`,
  );
}

if (import.meta.main) await main([...Deno.args]);
