/**
 * What the TypeScript benchmarks that drive `wrk` themselves share: waiting for a port, one `wrk`
 * run parsed into its figures, and the CPU time a process group used (a peer started with
 * `setsid` is its own group, so nginx's master and workers count together).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseWrk } from "./wrk_runs.ts";
 * const out = "    50%  120.00us\n    99%    2.10ms\nRequests/sec:  15000.50\n";
 * assert.deepEqual(parseWrk(out), { rps: 15000.5, p50Ms: 0.12, p99Ms: 2.1, errors: false });
 * ```
 * @module
 */

/** The figures of one `wrk --latency` run. */
export interface WrkFigures {
  rps: number;
  /** Latency percentiles in milliseconds (NaN when wrk did not print them). */
  p50Ms: number;
  p99Ms: number;
  /** wrk counted non-2xx answers or socket errors. */
  errors: boolean;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function percentile(text: string, p: string): number {
  const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : NaN;
}

/** Parses `wrk --latency`'s output. */
export function parseWrk(text: string): WrkFigures {
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0),
    p50Ms: percentile(text, "50"),
    p99Ms: percentile(text, "99"),
    errors: /Non-2xx|Socket errors: (connect|read|write|timeout) [1-9]/.test(text),
  };
}

/** Runs `wrk -t1 --latency` against `url` for `seconds` with `connections` connections. */
export async function runWrk(url: string, seconds: number, connections: number) {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const figures = parseWrk(text);
  if (figures.errors) console.error(text);
  return figures;
}

/**
 * Resolves once something accepts connections on 127.0.0.1:`port` (`seconds` at most, about;
 * default 10). The bound is an option, so `ports.map(waitPort)` keeps the default.
 */
export async function waitPort(port: number, opts: { seconds?: number } = {}): Promise<void> {
  for (let i = 0; i < (opts.seconds ?? 10) * 20; i++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

const TICKS_PER_S = 100; // USER_HZ on Linux

/**
 * The process group and the user and system CPU clock ticks of a `/proc/<pid>/stat` line. The
 * fields are counted after the command name's closing parenthesis (the name may hold spaces):
 * state ppid pgrp ... utime(14) stime(15).
 */
function statTicks(stat: string): { pgrp: number; user: number; sys: number } {
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pgrp: Number(f[2]), user: Number(f[11]), sys: Number(f[12]) };
}

/** User and system CPU clock ticks (1/100 s) of process `pid` so far, all its threads (0 when gone). */
export function processTicks(pid: number): { user: number; sys: number } {
  try {
    const { user, sys } = statTicks(Deno.readTextFileSync(`/proc/${pid}/stat`));
    return { user, sys };
  } catch {
    return { user: 0, sys: 0 };
  }
}

/** The resident set of process `pid` in KiB (0 when gone). */
export function rssKb(pid: number): number {
  try {
    const s = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** User and system CPU seconds used so far by every live process of process group `pgid`. */
export function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
    } catch {
      continue; // exited meanwhile
    }
    const t = statTicks(stat);
    if (t.pgrp === pgid) ticks += t.user + t.sys;
  }
  return ticks / TICKS_PER_S;
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
