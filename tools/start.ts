/**
 * `deno task start`: runs two demo origins (127.0.0.1:10001 and :10002) and the proxy on
 * `fixtures/default.yaml` (admin on 127.0.0.1:9901, HTTP listener on 127.0.0.1:10000 routing `/`
 * to cluster `demo`). `curl 127.0.0.1:10000/` then alternates between the origins, and
 * `curl 127.0.0.1:9901/clusters` and `/stats` show the traffic. Ctrl-C (or SIGTERM) stops every
 * child by its PID; if one child exits, the others are stopped too.
 *
 * @example
 * ```sh
 * deno task start
 * curl 127.0.0.1:10000/
 * ```
 * @module
 */

import { proxyRunArgs } from "./proxy_run_flags.ts";

const root = new URL("..", import.meta.url);
const here = (p: string) => new URL(p, root).pathname;

/** One child process. */
interface Child {
  name: string;
  proc: Deno.ChildProcess;
}

function spawn(name: string, args: string[]): Child {
  const proc = new Deno.Command(Deno.execPath(), {
    args,
    cwd: here("."),
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  return { name, proc };
}

/** Starts the origins and the proxy; resolves with the exit code when everything stopped. */
export async function start(config = "fixtures/default.yaml"): Promise<number> {
  const children: Child[] = [
    spawn("origin-1", ["run", "-A", here("tools/demo_origin.ts"), "10001", "origin-1"]),
    spawn("origin-2", ["run", "-A", here("tools/demo_origin.ts"), "10002", "origin-2"]),
    spawn("proxy", [...await proxyRunArgs(), "-c", here(config)]),
  ];
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const c of children) {
      try {
        Deno.kill(c.proc.pid, "SIGTERM");
      } catch { /* already gone */ }
    }
  };
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  console.error(
    `proxy pid ${children[2].proc.pid}: try  curl 127.0.0.1:10000/   curl 127.0.0.1:9901/clusters` +
      `   (Ctrl-C stops everything)`,
  );
  let code = 0;
  await Promise.all(children.map(async (c) => {
    const st = await c.proc.status;
    if (!stopping) {
      console.error(`${c.name} exited with code ${st.code}; stopping the others`);
      code = st.code || 1;
      stop();
    }
  }));
  for (const s of signals) Deno.removeSignalListener(s, stop);
  return code;
}

if (import.meta.main) Deno.exit(await start(Deno.args[0]));
