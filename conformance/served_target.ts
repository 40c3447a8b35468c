/**
 * A target the suite starts itself to check behaviour through traffic: the `--command` binary
 * serving a bootstrap a case writes (one HTTP listener routing to the case's clusters, the admin
 * interface on a free port), with origins the suite runs (`origin.ts`). The case sends requests
 * through the listener and reads the admin interface; the process is stopped when the case ends.
 *
 * Every target gets `--concurrency 1` (one worker, so per-worker balancer state is one state)
 * and `--disable-hot-restart` (so it can run beside another instance of the same binary).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpBootstrap, originCluster } from "./served_target.ts";
 * const b = httpBootstrap(10000, [{ prefix: "/", cluster: "c" }], [originCluster("c", [])]);
 * assert.equal(
 *   (b.static_resources as { clusters: unknown[] }).clusters.length,
 *   1,
 * );
 * ```
 * @module
 */
import { HttpClient } from "./http_client.ts";
import { freePort } from "./origin.ts";
import type { Origin } from "./origin.ts";
import { keepTail, waitForAddress } from "./admin_address.ts";
import { type CaseContext, CaseFailure, NotApplicable } from "./types.ts";
import { supervise } from "./supervise.ts";

/** A JSON object. */
export type Obj = Record<string, unknown>;

/** One route of the case's listener. */
export interface RouteSpec {
  prefix: string;
  cluster: string;
  /** Route `hash_policy` on this request header (for hashing load balancers). */
  hashHeader?: string;
  /** The route's `timeout` (a Duration string such as `"0.5s"`). */
  timeout?: string;
  /** The route's `metadata_match` criteria under `envoy.lb` (subset load balancing). */
  subset?: Record<string, string>;
}

/**
 * A STATIC cluster whose members are the given origins.
 *
 * @param name cluster name
 * @param origins its members, in order
 * @param extra more Cluster fields (proto3 JSON)
 * @param weights per-member `load_balancing_weight`, when set
 * @returns the cluster
 */
export function originCluster(
  name: string,
  origins: readonly Pick<Origin, "port">[],
  extra: Obj = {},
  weights?: readonly number[],
): Obj {
  return {
    name,
    type: "STATIC",
    connect_timeout: "2s",
    load_assignment: {
      cluster_name: name,
      endpoints: [{
        lb_endpoints: origins.map((o, i) => ({
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: o.port } } },
          ...(weights ? { load_balancing_weight: weights[i] } : {}),
        })),
      }],
    },
    ...extra,
  };
}

/**
 * A bootstrap with the admin interface on a free port and one HTTP listener on `port`.
 *
 * @param port the listener's port
 * @param routes prefix routes, first match wins
 * @param clusters the clusters
 * @returns a proto3 JSON Bootstrap
 */
export function httpBootstrap(
  port: number,
  routes: readonly RouteSpec[],
  clusters: readonly Obj[],
): Obj {
  return {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: [{
        name: "behaviour",
        address: { socket_address: { address: "127.0.0.1", port_value: port } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "behaviour",
              route_config: {
                name: "behaviour",
                virtual_hosts: [{
                  name: "behaviour",
                  domains: ["*"],
                  routes: routes.map((r) => ({
                    match: { prefix: r.prefix },
                    route: {
                      cluster: r.cluster,
                      ...(r.hashHeader
                        ? { hash_policy: [{ header: { header_name: r.hashHeader } }] }
                        : {}),
                      ...(r.timeout ? { timeout: r.timeout } : {}),
                      ...(r.subset
                        ? { metadata_match: { filter_metadata: { "envoy.lb": r.subset } } }
                        : {}),
                    },
                  })),
                }],
              },
              http_filters: [{
                name: "envoy.filters.http.router",
                typed_config: {
                  "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router",
                },
              }],
            },
          }],
        }],
      }],
      clusters,
    },
  };
}

/** A started target: its admin interface and its listener, both as recorded clients. */
export interface Served {
  admin: HttpClient;
  traffic: HttpClient;
  /** The listener's port on 127.0.0.1. */
  port: number;
}

/**
 * Starts the `--command` binary on a bootstrap built for a fresh listener port, waits until it
 * is ready (`/ready` answers 200 and the listener accepts), and stops it when the case ends.
 * A target that refuses the configuration makes the case NOT_APPLICABLE with its message (it
 * does not claim a setting it does not honour); one that does not start fails the case.
 *
 * @param ctx the case's context
 * @param build the bootstrap for a listener port
 * @param args more command-line arguments (e.g. `--drain-strategy immediate`)
 * @returns clients for the admin interface and the listener, and the listener's port
 */
export async function serveBootstrap(
  ctx: CaseContext,
  build: (listenerPort: number) => Obj,
  args: readonly string[] = [],
): Promise<Served> {
  // The listener's port is picked free, then bound by the target: another process may take it
  // in between. A target that exits for that reason is started again on another port.
  for (let attempt = 1;; attempt++) {
    const started = await startOnce(ctx, build, args);
    if (started.served) return started.served;
    if (attempt >= 3 || !/in use|cannot bind|AddrInUse/i.test(started.stderr)) {
      throw new CaseFailure(`${started.failure}; its stderr ended with:\n${started.stderr}`);
    }
  }
}

/** One start of the target; `served` when it became ready, else why not. */
async function startOnce(
  ctx: CaseContext,
  build: (listenerPort: number) => Obj,
  args: readonly string[],
): Promise<{ served?: Served; failure: string; stderr: string }> {
  const dir = await ctx.tempDir();
  const port = freePort();
  const file = `${dir}/bootstrap.json`;
  const addressFile = `${dir}/admin-address.txt`;
  await Deno.writeTextFile(file, JSON.stringify(build(port), null, 2));
  const { child } = ctx.command.spawn([
    "-c",
    file,
    "--admin-address-path",
    addressFile,
    "--concurrency",
    "1",
    "--disable-hot-restart",
    ...args,
  ]);
  const tail = keepTail(child.stderr, 4000);
  const run = supervise(child);
  const status = run.status;
  ctx.onUndo(async () => {
    await run.stop();
    await tail.ended;
  });
  const gone = async (failure: string) => {
    await tail.ended;
    const code = (await status).code;
    const why = tail.text();
    // A target that refuses what it does not honour, at load, is honest: the case does not
    // apply to it. Anything else that ends the process is a failure.
    if (code === 1 && /not supported|unsupported|not implemented/i.test(why)) {
      throw new NotApplicable(`the target refused the configuration: ${lastLine(why)}`);
    }
    return { failure, stderr: why };
  };
  const waited = await waitForAddress(addressFile, child, 20_000, "the target");
  if (waited.address === null) {
    if (waited.exited) return await gone(waited.failure ?? "the target exited");
    throw new CaseFailure(waited.failure ?? "the target did not start");
  }
  const admin = new HttpClient(`http://${waited.address}`);
  const traffic = new HttpClient(`http://127.0.0.1:${port}`);
  admin.signal = traffic.signal = ctx.signal;
  admin.log = traffic.log = ctx.command.log;
  await until(ctx, "the target to be ready and its listener to accept", async () => {
    if (run.exited()) return true;
    try {
      const r = await admin.request("GET", "/ready");
      if (r.status !== 200) return false;
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return true;
    } catch {
      return false;
    }
  }, 20_000);
  if (run.exited()) return await gone("the target exited after writing its admin address");
  return { served: { admin, traffic, port }, failure: "", stderr: "" };
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}

/**
 * Polls `check` until it returns true; fails the case naming `what` when `ms` pass first. Used
 * where the rule allows time (a health-check interval, an ejection) but not an outcome.
 *
 * @param ctx the case's context (its abort ends the wait)
 * @param what what is awaited, for the failure message
 * @param check the condition
 * @param ms the longest wait: long enough that a target on a loaded machine (a CI runner shared
 *   with other jobs) is not failed for slowness; a correct target ends the wait within a few of
 *   its intervals
 */
export async function until(
  ctx: Pick<CaseContext, "signal">,
  what: string,
  check: () => Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (true) {
    if (await check()) return;
    if (Date.now() > deadline || ctx.signal.aborted) {
      throw new CaseFailure(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Sends `n` requests one after another and counts which origin (`x-origin`) answered each.
 *
 * @param traffic the listener's client
 * @param path request path
 * @param n how many
 * @param headers request headers
 * @returns answers per origin name (`status <code>` for answers without `x-origin`)
 */
export async function spread(
  traffic: HttpClient,
  path: string,
  n: number,
  headers: Record<string, string> = {},
): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = await traffic.request("GET", path, { headers });
    const key = r.status === 200 ? r.headers.get("x-origin") ?? "?" : `status ${r.status}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return seen;
}

/**
 * The health string of each host of `cluster` in the target's `/clusters` (the `healthy` line the
 * specification names, or Envoy's `health_flags`), keyed by `ip:port`.
 *
 * @param admin the admin client
 * @param cluster the cluster name
 * @returns host address to health string
 */
export async function hostHealth(admin: HttpClient, cluster: string): Promise<Map<string, string>> {
  const r = await admin.request("GET", "/clusters");
  const out = new Map<string, string>();
  for (const line of r.body.split("\n")) {
    const parts = line.split("::");
    if (parts.length === 4 && parts[0] === cluster && /^(healthy|health_flags)$/.test(parts[2])) {
      if (!out.has(parts[1]) || parts[2] === "healthy") out.set(parts[1], parts[3]);
    }
  }
  return out;
}

/**
 * One per-host figure of `cluster` in the target's `/clusters` (`<cluster>::<host>::<name>::<v>`).
 *
 * @param admin the admin client
 * @param cluster the cluster name
 * @param host the host's `ip:port`
 * @param name the figure, e.g. `rq_timeout`
 * @returns its value (0 when absent)
 */
export async function hostStat(
  admin: HttpClient,
  cluster: string,
  host: string,
  name: string,
): Promise<number> {
  const r = await admin.request("GET", "/clusters");
  const line = r.body.split("\n").find((l) => l.startsWith(`${cluster}::${host}::${name}::`));
  return line ? Number(line.split("::")[3]) : 0;
}

/**
 * The value of one counter or gauge in the target's `/stats` text (0 when absent).
 *
 * @param admin the admin client
 * @param name the full stat name
 * @returns its value
 */
export async function statValue(admin: HttpClient, name: string): Promise<number> {
  const r = await admin.request("GET", `/stats?filter=${encodeURIComponent(`^${name}$`)}`);
  const m = r.body.split("\n").map((l) => l.split(": ")).find((p) => p[0] === name);
  return m ? Number(m[1]) : 0;
}

/**
 * Sends one HTTP/1.1 GET over a fresh raw connection and returns the response head (status line
 * and headers as sent, hop-by-hop headers included, which `fetch` hides).
 *
 * @param port the listener's port on 127.0.0.1
 * @param path request path
 * @returns the head, or null when the connection is refused
 */
export async function rawHead(port: number, path = "/"): Promise<string | null> {
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return null;
  }
  try {
    await conn.write(new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nhost: behaviour\r\n\r\n`));
    let text = "";
    const buf = new Uint8Array(8192);
    while (!text.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    return text.split("\r\n\r\n")[0];
  } catch {
    return "";
  } finally {
    try {
      conn.close();
    } catch { /* closed by the peer */ }
  }
}

/**
 * Tells whether the listener on `port` still accepts connections.
 *
 * @param port the port on 127.0.0.1
 * @returns true when a connection opens
 */
export async function accepts(port: number): Promise<boolean> {
  try {
    (await Deno.connect({ hostname: "127.0.0.1", port })).close();
    return true;
  } catch {
    return false;
  }
}
