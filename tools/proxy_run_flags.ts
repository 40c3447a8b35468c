/**
 * How the proxy runs, in one place: as the `proxy` task in `deno.json` runs it, its Deno flags
 * (between its last `deno run` and the entry) and its entry: `mod.ts`, or the bundle
 * `.build/serve/mod.js` (`tools/bundle.ts`, which the task builds first when stale). `deno task
 * start` and the benchmarks start the proxy of a checkout this way, so what is measured is what
 * runs; a checkout from before the bundle runs its `mod.ts`. The task passes `--no-code-cache`: V8's
 * code cache deserializes the bytecode of every function an earlier run compiled, which keeps
 * about 3 MiB more resident in an idle isolate (measured on the default bootstrap) for a start-up
 * that is at most a few hundred milliseconds faster.
 *
 * Its V8 flags are for RSS under load (measured with `wrk -c64` on the 2-core development
 * machine, 2 KB answers): `--max-semi-space-size=4` keeps the young generation at 2 x 4 MiB
 * (V8's default lets it grow to 2 x 16 MiB; smaller sizes promote more short-lived objects and
 * end larger); `--no-concurrent-recompilation` optimizes functions on the isolate's own thread,
 * so the optimizing compiler's working memory comes from the main malloc arena and is reused,
 * not from the arenas of background threads that keep it resident (about 10 MiB under load;
 * no CPU cost per request that the same runs could see, since after warm-up little is compiled;
 * `deno task bench ab` put it at 0.92x the CPU of background compilation and 8 MiB less RSS). The
 * price is latency while functions get hot: a compilation stalls every connection, so the first
 * seconds of load after start-up had p99s of 40-80 ms against 16-18 with background compilation.
 * `--invocation-count-for-maglev=3000` (V8's default 400; TurboFan's is 3000) keeps start-up
 * from compiling anything: reading the bootstrap and the bundle's module set-up called a few
 * functions (js-yaml's scanner, the bundle's name helper) often enough for Maglev, whose first
 * compilation faults in about 2.3 MiB of the runtime's compiler code that an idle proxy then
 * keeps resident (72.8 to 70.4 MiB idle, three runs each). Under traffic the request path's
 * functions reach either count within a fraction of a second.
 * `--heap-growing-percent=50` fixes the old generation's growth between full collections at 1.5x
 * what the last one left: V8 picks the factor from its collection speed, up to 4x for a small and
 * fast heap, so a proxy with 15 MiB live let garbage pile up to 40-55 MiB before collecting
 * (`/memory` under `wrk -c64`; RSS 98-127 MiB over 30 s runs, 94-99 with the fixed factor, four
 * runs each; CPU per request the same within the runs' noise).
 * `--no-memory-reducer` keeps V8 from collecting and shrinking the heap when the process goes
 * quiet: each burst of traffic after a quiet spell then paid for it in latency. Four 5-s
 * `wrk -c64` runs 15 s apart, twice: p99 of 18-47 ms in the runs after the first with it, 5-9 ms
 * without; `deno task bench proxy`'s interleaved runs, p99 at 64 connections 14.7 ms against
 * 27.5, the CPU per request the same (`deno task bench ab`: 0.975x). Idle RSS after start-up is
 * the same (68.5 against 68.8 MiB); what it costs is that a proxy idle after a burst stays at
 * the size the burst left (99 MiB 40 s after a 10-s run, 80 with the reducer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyRunFlags, runFlagsOf } from "./proxy_run_flags.ts";
 * assert.deepEqual(runFlagsOf("deno run -A --no-code-cache mod.ts"), ["-A", "--no-code-cache"]);
 * assert.deepEqual(runFlagsOf("something else"), ["-A"]);
 * assert.deepEqual(
 *   runEntryOf("deno run -A tools/bundle.ts --quiet && deno run -A --no-code-cache .build/serve/mod.js"),
 *   ".build/serve/mod.js",
 * );
 * assert.equal(runEntryOf("deno run -A mod.ts"), "mod.ts");
 * assert.ok(proxyRunFlags().includes("-A"));
 * ```
 * @module
 */

/** The last `deno run <flags> <entry>` of a task line, the entry being `mod.ts` or `mod.js`. */
const RUN_LINE = /\bdeno run\s+((?:-\S+\s+)*)(\S*\bmod\.[jt]s)\b(?![\s\S]*\bdeno run\b)/;

/** The flags of a task line's `deno run <flags> mod.ts` (`-A` when it is not one). */
export function runFlagsOf(task: string): string[] {
  const m = RUN_LINE.exec(task);
  const flags = m ? m[1].split(/\s+/).filter((f) => f !== "") : [];
  return flags.length > 0 ? flags : ["-A"];
}

/** The entry a task line runs (root-relative; `mod.ts` when it is not a `deno run` line). */
export function runEntryOf(task: string): string {
  return RUN_LINE.exec(task)?.[2] ?? "mod.ts";
}

function proxyTask(root: URL): string {
  try {
    const json = JSON.parse(Deno.readTextFileSync(new URL("deno.json", root)));
    return typeof json?.tasks?.proxy === "string" ? json.tasks.proxy : "";
  } catch {
    return ""; // no readable deno.json: the plain flags
  }
}

const HERE = new URL("..", import.meta.url);

/** The flags of the `proxy` task of the `deno.json` in `root` (this checkout by default). */
export function proxyRunFlags(root: URL = HERE): string[] {
  return runFlagsOf(proxyTask(root));
}

/**
 * `deno` arguments that start the proxy of the checkout at `root` (a directory URL) as its
 * `proxy` task does: `run`, the flags, the entry's path; the proxy's own arguments follow. When
 * the entry is a bundle, it is built first if stale (by the checkout's `tools/bundle.ts`).
 */
export async function proxyRunArgs(root: URL = HERE): Promise<string[]> {
  const task = proxyTask(root);
  const entry = runEntryOf(task);
  if (entry.endsWith(".js")) {
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("tools/bundle.ts", root).pathname, "--quiet"],
      cwd: root.pathname,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!built.success) throw new Error(`building the bundle of ${root.pathname} failed`);
  }
  return ["run", ...runFlagsOf(task), new URL(entry, root).pathname];
}
