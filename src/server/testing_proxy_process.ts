/**
 * Test helpers that run the proxy as a real process (`deno run -A mod.ts`), as an operator
 * does: start it with a bootstrap and flags, wait for its admin address, read its stats, send
 * requests on fresh connections, and stop it. Every wait is bounded.
 *
 * @example Not run: it starts a proxy process.
 * ```ts ignore
 * const p = await startProxyProcess(bootstrap, ["--concurrency", "2"]);
 * const port = await listenerPort(p.admin);
 * console.log(await requestOnce(port, "/"));
 * await p.stop();
 * ```
 * @module
 */

/** A running proxy process. */
export interface ProxyProcess {
  /** The admin base URL, `http://ip:port`. */
  admin: string;
  child: Deno.ChildProcess;
  dir: string;
  /** Resolves with the exit code (and stderr) once the process ended. */
  exited: Promise<{ code: number; stderr: string }>;
  /** POSTs /quitquitquit (SIGKILL after `graceMs`) and resolves with the exit code. */
  stop(graceMs?: number): Promise<number>;
}

const MOD = new URL("../../mod.ts", import.meta.url).pathname;

/** Polls `fn` every 50 ms until it returns a value other than undefined, or `ms` elapses. */
export async function waitFor<T>(
  fn: () => Promise<T | undefined> | T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts `deno run -A mod.ts -c <bootstrap> <args>` (with `env` added; `mod`: another entry, such
 * as the bundle's) and waits (at most `waitMs`) for its admin address and for `/ready` to say
 * LIVE; `bootstrap` is written as JSON to a temporary file.
 */
export async function startProxyProcess(
  bootstrap: unknown,
  args: string[] = [],
  env: Record<string, string> = {},
  waitMs = 30_000,
  mod: string = MOD,
): Promise<ProxyProcess> {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_proc_" });
  await Deno.writeTextFile(`${dir}/bootstrap.json`, JSON.stringify(bootstrap));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      mod,
      "-c",
      `${dir}/bootstrap.json`,
      "--admin-address-path",
      `${dir}/admin`,
      ...args,
    ],
    env,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const exited = (async () => {
    const chunks: Uint8Array[] = [];
    for await (const c of child.stderr) chunks.push(c);
    const status = await child.status;
    const text = new TextDecoder().decode(
      chunks.reduce((a, b) => {
        const o = new Uint8Array(a.length + b.length);
        o.set(a);
        o.set(b, a.length);
        return o;
      }, new Uint8Array()),
    );
    return { code: status.code, stderr: text };
  })();
  let ended = false;
  void exited.then(() => ended = true);
  let address: string;
  try {
    address = await waitFor(
      async () => {
        if (ended) throw new Error(`proxy exited early: ${(await exited).stderr}`);
        try {
          const a = await Deno.readTextFile(`${dir}/admin`);
          return a === "" ? undefined : a;
        } catch {
          return undefined;
        }
      },
      waitMs,
      "the admin address",
    );
  } catch (e) {
    if (!ended) child.kill("SIGKILL");
    await exited;
    await Deno.remove(dir, { recursive: true });
    throw e;
  }
  const admin = `http://${address}`;
  await waitFor(
    async () => {
      if (ended) return "ended";
      const r = await fetch(`${admin}/ready`).catch(() => null);
      const text = await r?.text();
      return text === "LIVE\n" ? text : undefined;
    },
    waitMs,
    "the server to be LIVE",
  );
  return {
    admin,
    child,
    dir,
    exited,
    async stop(graceMs = 15_000) {
      if (!ended) {
        await fetch(`${admin}/quitquitquit`, { method: "POST" }).then((r) => r.body?.cancel())
          .catch(() => {});
      }
      const timer = setTimeout(() => {
        if (!ended) child.kill("SIGKILL");
      }, graceMs);
      const { code } = await exited;
      clearTimeout(timer);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      return code;
    },
  };
}

/** The port of the first listener, from `/listeners`. */
export async function listenerPort(admin: string, index = 0): Promise<number> {
  const text = await (await fetch(`${admin}/listeners`)).text();
  const line = text.trim().split("\n")[index];
  return Number(line.slice(line.lastIndexOf(":") + 1));
}

/** The `/stats` counters and gauges as a map. */
export async function statsOf(admin: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${admin}/stats`)).text();
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([^:]+): (-?\d+)$/.exec(line);
    if (m) out.set(m[1], Number(m[2]));
  }
  return out;
}

/** Sends one `GET path` on a fresh connection (`Connection: close`); the status, or 0 on error. */
export async function requestOnce(port: number, path: string): Promise<number> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return 0;
  }
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET ${path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n`,
      ),
    );
    const buf = new Uint8Array(64 * 1024);
    let text = "";
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/**
 * `n` GETs on fresh connections, 8 at a time (fresh connections, so the kernel spreads them over
 * every worker's socket); their statuses.
 */
export async function burst(port: number, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 8) {
    const k = Math.min(8, n - i);
    out.push(...await Promise.all(Array.from({ length: k }, () => requestOnce(port, "/"))));
  }
  return out;
}

/** A bootstrap with a free admin port, one HTTP listener (port 0) and cluster `demo`. */
export function proxyBootstrap(
  originPort: number,
  cluster: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: [{
        name: "l0",
        address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "ingress_http",
              route_config: {
                virtual_hosts: [{
                  name: "d",
                  domains: ["*"],
                  routes: [{ match: { prefix: "/" }, route: { cluster: "demo" } }],
                }],
              },
              http_filters: [{ name: "envoy.filters.http.router" }],
            },
          }],
        }],
      }],
      clusters: [{
        name: "demo",
        type: "STATIC",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "demo",
          endpoints: [{
            lb_endpoints: [{
              endpoint: {
                address: { socket_address: { address: "127.0.0.1", port_value: originPort } },
              },
            }],
          }],
        },
        ...cluster,
      }],
    },
  };
}
