/**
 * A hot restart under load, for tests that run it inside a private network namespace
 * (`unshare -n`, where `net.ipv4.tcp_migrate_req` is 0 and the ports are free): an origin, a
 * parent with two workers and two listeners (127.0.0.1 and ::1, fixed ports), clients that each
 * send one request per fresh connection without pause on both listeners, and a child (epoch 1,
 * two workers) that takes over; the load runs until the parent has exited and a little after.
 * Run as a program, it prints the result as JSON on stdout.
 *
 * @example Not run: it binds fixed ports (meant for a private network namespace).
 * ```ts ignore
 * const r = await hotRestartUnderLoad({ clientsPerListener: 3 });
 * console.log(r.listeners["127.0.0.1"]);
 * ```
 * @module
 */
import { proxyBootstrap, type ProxyProcess, startProxyProcess } from "./testing_proxy_process.ts";
import { tcpMigrateReq } from "../platform/tcp_migrate_req.ts";

/** How one request on a fresh connection ended. */
export type Outcome = "ok" | "refused" | "reset" | "other";

/** What {@linkcode hotRestartUnderLoad} saw. */
export interface LoadResult {
  /** `net.ipv4.tcp_migrate_req` where it ran. */
  tcpMigrateReq: boolean | null;
  /** Per listener address: how many requests ended each way. */
  listeners: Record<string, Record<Outcome, number>>;
  /**
   * Per listener address: connections the parent accepted from half a second after the child
   * was LIVE (its steering in place) until after the parent's drain time (its sockets closed);
   * null when the parent's admin did not answer.
   */
  parentAccepted: Record<string, number | null>;
  parentCode: number;
  parentStderr: string;
  childStderr: string;
}

/** The listeners' ports (fixed: the namespace is private). */
export const LOAD_PORTS = { "127.0.0.1": 10_000, "::1": 10_001 } as const;

/**
 * One request on a fresh connection to `hostname:port` (`Connection: close`), and how it ended:
 * an empty answer counts as a reset (the connection waited in an accept queue that closed).
 */
export async function requestOutcome(hostname: string, port: number): Promise<Outcome> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname, port });
  } catch (e) {
    return e instanceof Deno.errors.ConnectionRefused
      ? "refused"
      : e instanceof Deno.errors.ConnectionReset
      ? "reset"
      : "other";
  }
  const timer = setTimeout(() => conn.close(), 5_000);
  let text = "";
  try {
    await conn.write(
      new TextEncoder().encode("GET / HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n"),
    );
    const buf = new Uint8Array(16 * 1024);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
  } catch (e) {
    return e instanceof Deno.errors.ConnectionReset ? "reset" : "other";
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed */ }
  }
  if (text === "") return "reset"; // closed unanswered: it waited in a closing accept queue
  return text.startsWith("HTTP/1.1 200") ? "ok" : "other";
}

/** Per listener address: `downstream_cx_total` of `admin`'s proxy, or null if it did not answer. */
async function accepted(admin: string): Promise<Map<string, number> | null> {
  // An IPv6 listener's stat names hold colons (`listener.::1_10001.`): parsed here.
  const text = await fetch(`${admin}/stats?filter=downstream_cx_total`).then((r) => r.text())
    .catch(() => null);
  if (text === null) return null;
  const out = new Map<string, number>();
  for (const [address, port] of Object.entries(LOAD_PORTS)) {
    const m = text.match(
      new RegExp(`^listener\\.\\S+_${port}\\.downstream_cx_total: (\\d+)$`, "m"),
    );
    if (m) out.set(address, Number(m[1]));
  }
  return out;
}

/** Runs the hot restart under load (see the module's description). */
export async function hotRestartUnderLoad(
  opts: { clientsPerListener: number; drainTimeS?: number; shutdownTimeS?: number },
): Promise<LoadResult> {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const bootstrap = proxyBootstrap(origin.addr.port) as {
    static_resources: { listeners: Array<Record<string, unknown>> };
  };
  const [l0] = bootstrap.static_resources.listeners;
  bootstrap.static_resources.listeners = Object.entries(LOAD_PORTS).map(([address, port], i) => ({
    ...structuredClone(l0),
    name: `l${i}`,
    address: { socket_address: { address, port_value: port } },
  }));
  const flags = [
    ...["--base-id", "7", "--concurrency", "2"],
    ...["--drain-time-s", String(opts.drainTimeS ?? 3)],
    ...["--parent-shutdown-time-s", String(opts.shutdownTimeS ?? 7)],
  ];
  let parent: ProxyProcess | null = null;
  let child: ProxyProcess | null = null;
  try {
    parent = await startProxyProcess(bootstrap, flags);
    const tallies: LoadResult["listeners"] = {};
    let loading = true;
    const load = Object.entries(LOAD_PORTS).flatMap(([address, port]) => {
      const t = tallies[address] = { ok: 0, refused: 0, reset: 0, other: 0 };
      return Array.from({ length: opts.clientsPerListener }, async () => {
        while (loading) t[await requestOutcome(address, port)]++;
      });
    });
    await new Promise((r) => setTimeout(r, 500));
    child = await startProxyProcess(bootstrap, [...flags, "--restart-epoch", "1"]);
    // The child steers once it has started (before it asks the parent to drain); connections
    // already queued to the parent are accepted within moments; from here none should reach it.
    await new Promise((r) => setTimeout(r, 1500));
    const before = await accepted(parent.admin);
    // Then the last figures the parent shows for each listener, until it has exited.
    const last = new Map(before ?? []);
    let gone = false;
    const ended = parent.exited.then(() => gone = true);
    while (!gone) {
      for (const [a, n] of (await accepted(parent.admin)) ?? []) last.set(a, n);
      await Promise.race([ended, new Promise((r) => setTimeout(r, 100))]);
    }
    const parentAccepted = Object.fromEntries(
      Object.keys(LOAD_PORTS).map((a) => {
        const [b, c] = [before?.get(a), last.get(a)];
        return [a, b === undefined || c === undefined ? null : c - b];
      }),
    );
    const { code, stderr } = await parent.exited;
    await new Promise((r) => setTimeout(r, 500));
    loading = false;
    await Promise.all(load);
    const childStderr = (await child.stop().then(() => child!.exited)).stderr;
    child = null;
    return {
      tcpMigrateReq: tcpMigrateReq(),
      listeners: tallies,
      parentAccepted,
      parentCode: code,
      parentStderr: stderr,
      childStderr,
    };
  } finally {
    await child?.stop();
    await parent?.stop();
    await origin.shutdown();
  }
}

if (import.meta.main) {
  const [clients, drain, shutdown] = Deno.args.map(Number);
  console.log(JSON.stringify(
    await hotRestartUnderLoad({
      clientsPerListener: clients || 3,
      drainTimeS: drain || undefined,
      shutdownTimeS: shutdown || undefined,
    }),
  ));
}
