/**
 * Where the proxy allocates per request: runs the proxy of a checkout (this one, or `--tree DIR`)
 * with one worker in front of a local Deno origin, puts `wrk -c64` load on it, and samples its
 * heap allocations through the V8 inspector (`HeapProfiler.startSampling`, objects collected by
 * either garbage collector included, so short-lived per-request garbage counts). Prints bytes
 * allocated per request, in all and per function (self), the top entries first. Allocation is what
 * the young generation's collections and RSS under load are made of; the profile says which code
 * makes it.
 *
 * Run: `deno task bench alloc [--seconds 5] [--interval 512] [--top 30] [--tree DIR]
 * [--promoted]`.
 *
 * @example
 * ```sh
 * deno task bench alloc --seconds 5 --top 25
 * ```
 * @module
 */

import { benchBootstrap, oneWorkerProxyArgs } from "./proxy.ts";
import { waitPort } from "./wrk_runs.ts";
import { argText } from "./bench_args.ts";

/** A node of V8's sampling heap profile (the parts read here). */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/** Adds each node's self size to `out` under "function url:line", and returns the tree's sum. */
export function selfSizes(node: ProfileNode, out: Map<string, number>, caller = ""): number {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^file:\/\/.*?\/(src|node_modules|ext)\//, "$1/");
  let key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
  // A builtin (no script: Map#set, Promise, subarray) is named with the function that called it.
  if (url === "") key = `${functionName || "(anonymous)"} <- ${caller}`;
  if (node.selfSize > 0) out.set(key, (out.get(key) ?? 0) + node.selfSize);
  let sum = node.selfSize;
  for (const c of node.children) sum += selfSizes(c, out, key);
  return sum;
}

/** A minimal inspector client: one WebSocket, commands answered by id. */
export class Inspector {
  #ws: WebSocket;
  #next = 1;
  #waiting = new Map<number, (r: Record<string, unknown>) => void>();
  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.method !== undefined) this.onEvent?.(m.method, m.params);
      const w = this.#waiting.get(m.id);
      if (w !== undefined) {
        this.#waiting.delete(m.id);
        w(m.error ? { error: m.error } : m.result);
      }
    };
  }
  /** Told of each event the inspector sends (`HeapProfiler.addHeapSnapshotChunk`, ...). */
  onEvent?: (method: string, params: Record<string, unknown>) => void;
  /** Connects to the inspector at `url` (a `webSocketDebuggerUrl`). */
  static async open(url: string): Promise<Inspector> {
    const ws = new WebSocket(url);
    await new Promise((ok, fail) => {
      ws.onopen = ok;
      ws.onerror = fail;
    });
    return new Inspector(ws);
  }
  /** Sends a command; its result (or `{ error }`). */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#next++;
    this.#ws.send(JSON.stringify({ id, method, params }));
    return new Promise((ok) => this.#waiting.set(id, ok));
  }
  /** Closes the connection. */
  close(): void {
    this.#ws.close();
  }
}

/** Polls `f` until it gives a value (about 10 s at most). */
async function waitFor<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    try {
      const v = await f();
      if (v !== undefined) return v;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Starts the proxy of checkout `tree` (one worker, as `deno task proxy` runs it) on bootstrap
 * `cfg` with its V8 inspector on `inspectPort` (`fromSources`: `mod.ts` rather than the bundle,
 * with the same flags); resolves once `listen` accepts and the inspector
 * answers, with the process and the inspector's WebSocket address.
 */
export async function inspectedProxy(
  tree: string,
  cfg: string,
  listen: number,
  inspectPort: number,
  fromSources = false,
): Promise<{ proxy: Deno.ChildProcess; wsUrl: string }> {
  const args = await oneWorkerProxyArgs(tree, cfg);
  args.splice(1, 0, `--inspect=127.0.0.1:${inspectPort}`);
  // The same flags on the sources' entry: code locations name the source files.
  if (fromSources) args[args.indexOf("-c") - 1] = `${tree}mod.ts`;
  const proxy = new Deno.Command(Deno.execPath(), { args, stdout: "null", stderr: "null" })
    .spawn();
  try {
    await waitPort(listen);
    const wsUrl = await waitFor("the inspector", async () => {
      const list = await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json();
      return list[0]?.webSocketDebuggerUrl as string | undefined;
    });
    return { proxy, wsUrl };
  } catch (e) {
    proxy.kill("SIGKILL");
    await proxy.status;
    throw e;
  }
}

if (import.meta.main) {
  const seconds = Number(argText("seconds", "5"));
  const interval = Number(argText("interval", "512"));
  const top = Number(argText("top", "30"));
  const tree = argText("tree", new URL("..", import.meta.url).pathname).replace(/\/?$/, "/");
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("x".repeat(2048)),
  );
  const listen = 19391;
  const inspectPort = 19392;
  const cfg = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(cfg, benchBootstrap(listen, origin.addr.port));
  const { proxy, wsUrl } = await inspectedProxy(tree, cfg, listen, inspectPort);
  try {
    const wrk = (s: number) =>
      new Deno.Command("wrk", {
        args: ["-t1", "-c64", `-d${s}s`, `http://127.0.0.1:${listen}/`],
        stdout: "piped",
      }).output().then((o) => {
        const text = new TextDecoder().decode(o.stdout);
        return Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN);
      });
    await wrk(2); // warm-up: the JIT's first tiers and the pools settle
    const inspector = await Inspector.open(wsUrl);
    await inspector.send("HeapProfiler.enable");
    await inspector.send("HeapProfiler.startSampling", {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      // With --promoted, only what outlived the young generation: what old-generation growth is
      // made of between full collections.
      includeObjectsCollectedByMinorGC: !Deno.args.includes("--promoted"),
    });
    const requests = await wrk(seconds);
    const result = await inspector.send("HeapProfiler.stopSampling");
    inspector.close();
    const profile = result.profile as { head: ProfileNode } | undefined;
    if (profile === undefined) throw new Error(`no profile: ${JSON.stringify(result)}`);
    const by = new Map<string, number>();
    const total = selfSizes(profile.head, by);
    console.log(
      `${requests} requests in ${seconds}s; sampled allocation ${(total / requests).toFixed(0)} ` +
        `bytes per request (sampling interval ${interval} B)`,
    );
    const rows = [...by].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [where, bytes] of rows) {
      console.log(`${(bytes / requests).toFixed(0).padStart(7)} B/req  ${where}`);
    }
  } finally {
    try {
      proxy.kill("SIGTERM");
    } catch {
      // already gone
    }
    await proxy.status;
    await origin.shutdown();
    await Deno.remove(cfg);
  }
}
