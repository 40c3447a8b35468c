/**
 * `/cpuprofiler` and `/heapprofiler` (POST, `?enable=y|n`) through a `node:inspector` session.
 * The CPU profile (`.cpuprofile` JSON, for Chrome DevTools) is written to `admin.profile_path`
 * when the profiler stops; the heap profiler is V8's sampling heap profiler, written to
 * `<profile_path>.heapprofile`. Answers and error texts follow Envoy's: missing or bad `enable`
 * -> 400 `?enable=<y|n>\n`; heap profiler already started / not started -> 400.
 *
 * @example Not run: it starts the CPU profiler of a running server (`req`, `server`).
 * ```ts ignore
 * import { PROFILING_HANDLERS, stopProfilers } from "./profiling_handler.ts";
 * await PROFILING_HANDLERS["/cpuprofiler"](req, server);
 * await stopProfilers(server);
 * ```
 * @module
 */
import type { Session } from "node:inspector";
import { LazyModule } from "../platform/lazy_module.ts";

/** `node:inspector`, loaded by the first profiler request (the serving isolate goes without). */
const INSPECTOR = new LazyModule("node:inspector", () => import("node:inspector"));
import type { ServerContext } from "../server/context.ts";
import type { Handler } from "./types.ts";
import { textResponse } from "../config/proto_json.ts";

/** Where profiles go when the bootstrap sets no `admin.profile_path` (Envoy's default, renamed). */
export const DEFAULT_PROFILE_PATH = "/var/log/proxy/proxy.prof";

interface Profilers {
  session?: Session;
  cpu: boolean;
  heap: boolean;
}

const STATE = new WeakMap<ServerContext, Profilers>();

function profilers(server: ServerContext): Profilers {
  let p = STATE.get(server);
  if (!p) STATE.set(server, p = { cpu: false, heap: false });
  return p;
}

function post<T>(s: Session, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) =>
    s.post(
      method,
      params,
      (err: Error | null, res: unknown) => err ? reject(err) : resolve(res as T),
    )
  );
}

function session(p: Profilers): Session {
  if (!p.session) {
    p.session = new (INSPECTOR.get().Session)();
    p.session.connect();
  }
  return p.session;
}

function release(p: Profilers): void {
  if (!p.cpu && !p.heap && p.session) {
    p.session.disconnect();
    p.session = undefined;
  }
}

/** The profile output path of a server. */
export function profilePath(server: ServerContext): string {
  return server.bootstrap.admin?.profile_path || DEFAULT_PROFILE_PATH;
}

function enableParam(params: ReadonlyMap<string, string>): "y" | "n" | null {
  if (params.size !== 1) return null;
  const v = params.get("enable");
  return v === "y" || v === "n" ? v : null;
}

const cpuProfiler: Handler = async (req, server) => {
  const enable = enableParam(req.params);
  if (!enable) return textResponse("?enable=<y|n>\n", 400);
  if (!INSPECTOR.loaded) await INSPECTOR.load();
  const p = profilers(server);
  if (enable === "y") {
    if (p.cpu) return textResponse("OK\n");
    try {
      const s = session(p);
      await post(s, "Profiler.enable");
      await post(s, "Profiler.start");
      p.cpu = true;
    } catch {
      release(p);
      return textResponse("failure to start the profiler", 500);
    }
    return textResponse("OK\n");
  }
  if (!p.cpu) return textResponse("OK\n");
  const s = session(p);
  p.cpu = false;
  try {
    const { profile } = await post<{ profile: unknown }>(s, "Profiler.stop");
    await Deno.writeTextFile(profilePath(server), JSON.stringify(profile));
  } catch (e) {
    return textResponse(`failure to write the CPU profile to ${profilePath(server)}: ${e}`, 500);
  } finally {
    release(p);
  }
  return textResponse("OK\n");
};

const heapProfiler: Handler = async (req, server) => {
  const enable = enableParam(req.params);
  if (!enable) return textResponse("?enable=<y|n>\n", 400);
  if (!INSPECTOR.loaded) await INSPECTOR.load();
  const p = profilers(server);
  if (enable === "y") {
    if (p.heap) return textResponse("Fail to start heap profiler: already started", 400);
    try {
      const s = session(p);
      await post(s, "HeapProfiler.enable");
      await post(s, "HeapProfiler.startSampling", { samplingInterval: 32768 });
      p.heap = true;
    } catch (e) {
      release(p);
      return textResponse(`Fail to start heap profiler: ${e}`, 500);
    }
    return textResponse("Starting heap profiler");
  }
  if (!p.heap) return textResponse("Fail to stop heap profiler: not started", 400);
  const s = session(p);
  p.heap = false;
  const path = `${profilePath(server)}.heapprofile`;
  try {
    const { profile } = await post<{ profile: unknown }>(s, "HeapProfiler.stopSampling");
    await Deno.writeTextFile(path, JSON.stringify(profile));
  } catch (e) {
    return textResponse(`failure to write the heap profile to ${path}: ${e}`, 500);
  } finally {
    release(p);
  }
  return textResponse(
    `Heap profiler stopped and data written to ${path}. ` +
      "Open it in Chrome DevTools (Memory tab) for details.",
  );
};

/** Stops any running profiler of a server without writing (used at shutdown). */
export async function stopProfilers(server: ServerContext): Promise<void> {
  const p = STATE.get(server);
  if (!p?.session) return;
  try {
    if (p.cpu) await post(p.session, "Profiler.stop");
    if (p.heap) await post(p.session, "HeapProfiler.stopSampling");
  } catch {
    // the session is going away anyway
  }
  p.cpu = p.heap = false;
  release(p);
}

/** Handlers of this family, by path. */
export const PROFILING_HANDLERS = {
  "/cpuprofiler": cpuProfiler,
  "/heapprofiler": heapProfiler,
} satisfies Record<string, Handler>;
