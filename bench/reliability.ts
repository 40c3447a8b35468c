/**
 * `deno task bench reliability [--soak S] [--slowloris S] [--drain S] [--renders N]`: the proxy under abuse,
 * run as a real process, with a table of figures per scenario: requests sent, failed (no HTTP
 * answer, or a control request that was not 200), 5xx by cause, RSS start/peak/end and the peak
 * of open descriptors of the proxy process.
 *
 * 1. Upstream fault matrix: refused, reset, silent (route timeout 2 s), garbage, a 100 KB header
 *    block, close mid-body, trickle (a byte per 100 ms); each with control requests beside it.
 * 2. Slowloris: 500 connections sending a header byte a second (`--slowloris`, default 20 s)
 *    against `request_headers_timeout: 5s`, with control requests meanwhile; how many the proxy
 *    closed.
 * 3. Overload: `overload.global_downstream_max_connections` set to 200 (`/runtime_modify`),
 *    300 connections opened.
 * 4. Soak: `wrk -t1 -c64` for `--soak` seconds (default 300).
 * 5. Drain under load: `wrk` while `POST /drain_listeners?graceful` (`--drain`, default 10 s).
 * 6. Large admin renders (`reliability_renders.ts`): a second proxy with `--renders` clusters
 *    (default 10,000; 0 skips it) renders `/config_dump` and `/stats` in each format while
 *    `/ready` and proxied requests are polled; their worst latency against the 50 ms target.
 *
 * The proxy runs with `--concurrency 1`: the overload manager and the connection limits act on
 * the main thread's listeners only. No figure here is a test; the README quotes them.
 *
 * @module
 */
import { listenerPort, startProxyProcess } from "../src/server/testing_proxy_process.ts";
import { formatRenders, type RenderFigure, renderScenario } from "./reliability_renders.ts";
import { argNumber } from "./bench_args.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A raw origin whose answer depends on the request path. */
export function faultOrigin(): { port: number; close(): void } {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const serve = async (c: Deno.Conn) => {
    const buf = new Uint8Array(65536);
    let head = "";
    // Keep-alive: requests for /ok are answered one after another on the connection.
    for (;;) {
      while (!head.includes("\r\n\r\n")) {
        const n = await c.read(buf);
        if (n === null) return;
        head += dec.decode(buf.subarray(0, n));
      }
      const path = head.split(" ")[1] ?? "/";
      head = head.slice(head.indexOf("\r\n\r\n") + 4);
      if (path !== "/ok") return fault(c, path);
      await c.write(enc.encode("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok"));
    }
  };
  const fault = async (c: Deno.Conn, path: string) => {
    const write = (s: string | Uint8Array) => c.write(typeof s === "string" ? enc.encode(s) : s);
    switch (path) {
      case "/reset":
        return;
      case "/silent":
        await new Promise(() => {});
        return;
      case "/garbage":
        await write("this is not HTTP\r\n\r\n");
        return;
      case "/huge":
        await write(
          `HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(100_000)}\r\ncontent-length: 2\r\n\r\nok`,
        );
        return;
      case "/midbody":
        await write("HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789");
        return;
      case "/trickle":
        await write("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n");
        for (let i = 0; i < 10; i++) {
          await new Promise((r) => setTimeout(r, 100));
          await write("x");
        }
        return;
    }
  };
  (async () => {
    for await (const c of l) {
      conns.add(c);
      serve(c).catch(() => {}).finally(() => {
        conns.delete(c);
        try {
          c.close();
        } catch { /* closed */ }
      });
    }
  })().catch(() => {});
  return {
    port: l.addr.port,
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

export function bootstrap(originPort: number, deadPort: number): Record<string, unknown> {
  const cluster = (name: string, port: number) => ({
    name,
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: name,
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
  });
  return {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    layered_runtime: {
      layers: [
        { name: "static", static_layer: {} },
        { name: "admin", admin_layer: {} },
      ],
    },
    static_resources: {
      clusters: [cluster("o", originPort), cluster("dead", deadPort)],
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
              request_headers_timeout: "5s",
              route_config: {
                virtual_hosts: [{
                  name: "d",
                  domains: ["*"],
                  routes: [
                    { match: { prefix: "/refuse" }, route: { cluster: "dead" } },
                    { match: { prefix: "/" }, route: { cluster: "o", timeout: "2s" } },
                  ],
                }],
              },
              http_filters: [{ name: "envoy.filters.http.router" }],
            },
          }],
        }],
      }],
    },
  };
}

/** Memory and descriptors of a process, sampled. */
class Sampler {
  start = 0;
  peak = 0;
  end = 0;
  fdPeak = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  constructor(readonly pid: number) {}
  #rss(): number {
    const m = /VmRSS:\s+(\d+) kB/.exec(Deno.readTextFileSync(`/proc/${this.pid}/status`));
    return m ? Number(m[1]) / 1024 : 0;
  }
  #fds(): number {
    let n = 0;
    for (const _ of Deno.readDirSync(`/proc/${this.pid}/fd`)) n++;
    return n;
  }
  #sample() {
    try {
      const r = this.#rss();
      this.peak = Math.max(this.peak, r);
      this.end = r;
      this.fdPeak = Math.max(this.fdPeak, this.#fds());
    } catch { /* the process is gone */ }
  }
  begin(): this {
    this.#sample();
    this.start = this.end;
    this.peak = this.end;
    this.fdPeak = 0;
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), 200);
    return this;
  }
  finish(): this {
    clearInterval(this.#timer);
    this.#sample();
    return this;
  }
}

interface Row {
  scenario: string;
  sent: number;
  failed: number;
  causes: Map<string, number>;
  mem: Sampler;
  note?: string;
}

/** One GET on a fresh connection: its status and the cause a 5xx gives (Envoy's body). */
export async function get(port: number, path: string): Promise<{ status: number; cause: string }> {
  try {
    const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
    try {
      const r = await fetch(`http://127.0.0.1:${port}${path}`, {
        client,
        signal: AbortSignal.timeout(10_000),
      });
      const body = await r.text().catch(() => "(body cut)");
      const cause = /reset reason: ([^,]+)/.exec(body)?.[1] ?? body.slice(0, 40);
      return { status: r.status, cause };
    } finally {
      client.close();
    }
  } catch {
    return { status: 0, cause: "no answer" };
  }
}

async function faultRow(port: number, pid: number, fault: string, n: number): Promise<Row> {
  const mem = new Sampler(pid).begin();
  const causes = new Map<string, number>();
  let failed = 0;
  const one = async (path: string, control: boolean) => {
    const { status, cause } = await get(port, path);
    if (control ? status !== 200 : status === 0) failed++;
    if (status >= 500) {
      const k = `${status} ${cause}`;
      causes.set(k, (causes.get(k) ?? 0) + 1);
    }
  };
  const work: Promise<void>[] = [];
  for (let i = 0; i < n; i++) work.push(one(`/${fault}`, false), one("/ok", true));
  await Promise.all(work);
  return { scenario: `fault ${fault}`, sent: 2 * n, failed, causes, mem: mem.finish() };
}

async function slowloris(port: number, pid: number, seconds: number): Promise<Row> {
  const mem = new Sampler(pid).begin();
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < 500; i++) {
    try {
      const c = await Deno.connect({ hostname: "127.0.0.1", port });
      await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n"));
      conns.push(c);
    } catch { /* refused */ }
  }
  let closedByProxy = 0;
  const causes = new Map<string, number>();
  const alive = new Set(conns);
  const end = Date.now() + seconds * 1000;
  let sent = 0, failed = 0;
  while (Date.now() < end) {
    for (const c of [...alive]) {
      try {
        await c.write(enc.encode("x"));
      } catch {
        alive.delete(c);
        closedByProxy++;
      }
    }
    const r = await get(port, "/ok");
    sent++;
    if (r.status !== 200) {
      failed++;
      const k = `${r.status} ${r.cause}`;
      causes.set(k, (causes.get(k) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const c of conns) {
    try {
      c.close();
    } catch { /* closed */ }
  }
  return {
    scenario: `slowloris 500 x ${seconds}s`,
    sent,
    failed,
    causes,
    mem: mem.finish(),
    note: `${closedByProxy} of ${conns.length} slow connections closed by the proxy`,
  };
}

async function overload(port: number, pid: number, admin: string): Promise<Row> {
  const mem = new Sampler(pid).begin();
  const limit = (v: string) =>
    fetch(`${admin}/runtime_modify?overload.global_downstream_max_connections=${v}`, {
      method: "POST",
    }).then((r) => r.text());
  await limit("200");
  const conns: Deno.Conn[] = [];
  let served = 0;
  for (let i = 0; i < 300; i++) {
    const c = await Deno.connect({ hostname: "127.0.0.1", port });
    conns.push(c);
    await c.write(enc.encode("GET /ok HTTP/1.1\r\nhost: a\r\n\r\n"));
  }
  await Promise.all(conns.map(async (c) => {
    const n = await c.read(new Uint8Array(1024)).catch(() => null);
    if (n !== null && n > 0) served++;
  }));
  for (const c of conns) c.close();
  await limit("");
  const stats = await (await fetch(`${admin}/stats?filter=downstream_global_cx_overflow`)).text();
  const overflow = stats.split("\n").reduce((a, l) => a + Number(l.split(": ")[1] ?? 0), 0);
  return {
    scenario: "overload 300 conns, limit 200",
    sent: 300,
    failed: 300 - served,
    causes: new Map(),
    mem: mem.finish(),
    note: `${served} served, downstream_global_cx_overflow ${overflow}`,
  };
}

async function wrk(port: number, seconds: number): Promise<{ requests: number; failed: number }> {
  const out = await new Deno.Command("wrk", {
    args: ["-t1", "-c64", `-d${seconds}s`, `http://127.0.0.1:${port}/ok`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = dec.decode(out.stdout);
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = sock ? Number(sock[2]) + Number(sock[3]) + Number(sock[4]) : 0;
  return {
    requests: num(/(\d+) requests in/),
    failed: num(/Non-2xx or 3xx responses: (\d+)/) + errors,
  };
}

async function soak(port: number, pid: number, seconds: number): Promise<Row> {
  const mem = new Sampler(pid).begin();
  const r = await wrk(port, seconds);
  return {
    scenario: `soak wrk -c64 ${seconds}s`,
    sent: r.requests,
    failed: r.failed,
    causes: new Map(),
    mem: mem.finish(),
  };
}

async function drain(port: number, pid: number, admin: string, seconds: number): Promise<Row> {
  const mem = new Sampler(pid).begin();
  const load = wrk(port, seconds);
  await new Promise((r) => setTimeout(r, (seconds * 1000) / 3));
  await (await fetch(`${admin}/drain_listeners?graceful`, { method: "POST" })).text();
  const r = await load;
  return {
    scenario: `drain under wrk ${seconds}s`,
    sent: r.requests,
    failed: r.failed,
    causes: new Map(),
    mem: mem.finish(),
  };
}

function print(rows: Row[]): void {
  const mb = (n: number) => n.toFixed(0);
  console.log(
    "| scenario | sent | failed | 5xx by cause | RSS MB start/peak/end | fds peak | note |",
  );
  console.log("|---|---:|---:|---|---|---:|---|");
  for (const r of rows) {
    const causes = [...r.causes].map(([k, v]) => `${v}x ${k}`).join("; ") || "-";
    console.log(
      `| ${r.scenario} | ${r.sent} | ${r.failed} | ${causes} | ${mb(r.mem.start)}/${
        mb(r.mem.peak)
      }/${mb(r.mem.end)} | ${r.mem.fdPeak} | ${r.note ?? ""} |`,
    );
  }
}

async function main(): Promise<void> {
  const soakS = argNumber("soak", 300);
  const slowS = argNumber("slowloris", 20);
  const drainS = argNumber("drain", 10);
  const renderClusters = argNumber("renders", 10_000);
  const origin = faultOrigin();
  const dead = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadPort = dead.addr.port;
  dead.close();
  // One worker: the overload manager and the connection limits act on the main thread's
  // listeners (data-plane workers do not carry them yet).
  const p = await startProxyProcess(bootstrap(origin.port, deadPort), ["--concurrency", "1"]);
  const rows: Row[] = [];
  try {
    const port = await listenerPort(p.admin);
    const pid = p.child.pid;
    for (const f of ["refuse", "reset", "silent", "garbage", "huge", "midbody", "trickle"]) {
      rows.push(await faultRow(port, pid, f, 20));
    }
    rows.push(await slowloris(port, pid, slowS));
    rows.push(await overload(port, pid, p.admin));
    if (soakS > 0) rows.push(await soak(port, pid, soakS));
    if (drainS > 0) rows.push(await drain(port, pid, p.admin, drainS));
  } finally {
    await p.stop();
  }
  let renders: RenderFigure[] = [];
  try {
    if (renderClusters > 0) renders = await renderScenario(origin.port, renderClusters);
  } finally {
    origin.close();
  }
  print(rows);
  if (renders.length > 0) console.log(formatRenders(renders, renderClusters));
}

if (import.meta.main) await main();
