/**
 * The Deno flags the proxy runs with, in one place: those of the `proxy` task in `deno.json`
 * (between `deno run` and `mod.ts`). `deno task start` and the idle memory benchmark start the
 * proxy with them, so what is measured is what runs. The task passes `--no-code-cache`: V8's
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
 * no CPU cost per request that the same runs could see, since after warm-up little is compiled).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyRunFlags, runFlagsOf } from "./proxy_run_flags.ts";
 * assert.deepEqual(runFlagsOf("deno run -A --no-code-cache mod.ts"), ["-A", "--no-code-cache"]);
 * assert.deepEqual(runFlagsOf("something else"), ["-A"]);
 * assert.ok(proxyRunFlags().includes("-A"));
 * ```
 * @module
 */

/** The flags of a `deno run <flags> mod.ts` task line (`-A` when it is not one). */
export function runFlagsOf(task: string): string[] {
  const m = /\bdeno run\s+(.*?)\s*\bmod\.ts\b/.exec(task);
  const flags = m ? m[1].split(/\s+/).filter((f) => f !== "") : [];
  return flags.length > 0 ? flags : ["-A"];
}

/** The flags of the `proxy` task of the `deno.json` in `root` (this checkout by default). */
export function proxyRunFlags(root: URL = new URL("..", import.meta.url)): string[] {
  let task = "";
  try {
    const json = JSON.parse(Deno.readTextFileSync(new URL("deno.json", root)));
    task = typeof json?.tasks?.proxy === "string" ? json.tasks.proxy : "";
  } catch {
    // no readable deno.json: the plain flags
  }
  return runFlagsOf(task);
}
