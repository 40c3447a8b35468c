/**
 * Idle memory benchmark: the resident set (VmRSS) of the proxy serving the default bootstrap
 * (`fixtures/default.yaml`, its ports replaced by 0 so that nothing else on the machine is
 * disturbed), read a few seconds after the server says it is LIVE, beside a bare `Deno.serve`
 * process measured in the same run, with their ratio. The proxy is measured with the default
 * `--concurrency` (the hardware threads: one isolate per worker plus the main thread's) and with
 * `--concurrency 1`. With `--baseline <checkout>`, the same figures for another checkout of the
 * project (another revision) are measured interleaved with this tree's. Each checkout's proxy
 * runs as its own `deno task proxy` runs it, flags and entry (`tools/proxy_run_flags.ts`). Target: 70 MiB
 * idle. A report, not a test.
 *
 * Run: `deno run -A bench/idle_rss_bench.ts [--rounds <n>] [--settle <s>] [--baseline <dir>]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { portsToZero, vmRssKb } from "./idle_rss_bench.ts";
 * assert.equal(portsToZero("socket_address: { address: 127.0.0.1, port_value: 9901 }"),
 *   "socket_address: { address: 127.0.0.1, port_value: 0 }");
 * assert.equal(vmRssKb("Name:\tdeno\nVmRSS:\t   54048 kB\n"), 54048);
 * ```
 * @module
 */
import { loadNote } from "./load_note.ts";
import { proxyRunArgs } from "../tools/proxy_run_flags.ts";

/** The bootstrap text with the admin's and the listeners' ports set to 0 (any free port). */
export function portsToZero(yaml: string): string {
  // The origins' ports (10001, 10002) stay: nothing connects to them while idle.
  return yaml.replace(/port_value: (9901|10000)\b/g, "port_value: 0");
}

/** The VmRSS line of a `/proc/<pid>/status` text, in kB (NaN when absent). */
export function vmRssKb(status: string): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) : NaN;
}

const BARE = `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {
  console.log("LIVE");
} }, () => new Response("ok"));
`;

/**
 * Starts `args` under `deno`, waits until its output says `ready` (at most 30 s), then `settle`
 * seconds more, reads its VmRSS and stops it. Returns kB, or NaN when it never got ready.
 */
async function idleRss(args: string[], ready: RegExp, settle: number): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  let seen = "";
  let live = false;
  const watch = async (s: ReadableStream<Uint8Array>) => {
    for await (const chunk of s.pipeThrough(new TextDecoderStream())) {
      if (!live) {
        seen = (seen + chunk).slice(-4096);
        live = ready.test(seen);
      }
    }
  };
  const streams = Promise.all([watch(child.stdout), watch(child.stderr)]);
  try {
    for (let waited = 0; !live && waited < 30_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!live) return NaN;
    await new Promise((r) => setTimeout(r, settle * 1000));
    return vmRssKb(await Deno.readTextFile(`/proc/${child.pid}/status`));
  } finally {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await child.status;
    await streams;
  }
}

const mib = (kb: number) => (kb / 1024).toFixed(1);
const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
};

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i < 0 ? undefined : args.splice(i, 2)[1];
  };
  const baseline = flag("--baseline");
  const rounds = Number(flag("--rounds") ?? 3);
  const settle = Number(flag("--settle") ?? 4);
  const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const dir = await Deno.makeTempDir({ prefix: "idle_rss_bench_" });
  try {
    const bootstrap = `${dir}/default.yaml`;
    await Deno.writeTextFile(
      bootstrap,
      portsToZero(await Deno.readTextFile(`${here}/fixtures/default.yaml`)),
    );
    const bare = `${dir}/bare.ts`;
    await Deno.writeTextFile(bare, BARE);
    const liveLine = /server is LIVE/;
    const cases: Array<[string, string[], RegExp]> = [[
      "bare Deno.serve",
      ["run", "-A", bare],
      /LIVE/,
    ]];
    const trees = baseline ? [["this tree", here], ["baseline", baseline]] : [["this tree", here]];
    for (const [label, root] of trees) {
      // Each checkout runs as its `deno task proxy` does (tools/proxy_run_flags.ts).
      const run = await proxyRunArgs(new URL(`file://${root}/`));
      console.log(`${label}: deno ${run.join(" ").replaceAll(`${root}/`, "")}`);
      cases.push([
        `${label}, default concurrency`,
        [...run, "-c", bootstrap],
        liveLine,
      ]);
      cases.push([
        `${label}, --concurrency 1`,
        [...run, "-c", bootstrap, "--concurrency", "1"],
        liveLine,
      ]);
    }
    console.log(
      `idle VmRSS, ${settle} s after LIVE, ${rounds} interleaved rounds (${loadNote()})`,
    );
    const got = new Map<string, number[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const [label, cmd, ready] of cases) {
        const kb = await idleRss(cmd, ready, settle);
        got.set(label, [...(got.get(label) ?? []), kb]);
        console.log(`round ${round}: ${label}: ${mib(kb)} MiB`);
      }
    }
    const bareKb = median(got.get("bare Deno.serve") ?? []);
    console.log(`median: bare Deno.serve ${mib(bareKb)} MiB`);
    for (const [label] of cases.slice(1)) {
      const kb = median(got.get(label) ?? []);
      console.log(
        `median: ${label} ${mib(kb)} MiB, ${(kb / bareKb).toFixed(2)}× bare Deno.serve, ${
          (kb / 1024 / 70).toFixed(2)
        }× the 70 MiB target`,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
