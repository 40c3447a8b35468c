/**
 * `deno task bench lifecycle [--duration S]`: the server lifecycle under `wrk -t1 -c64`.
 *
 * 1. req/s through the proxy at `--concurrency 1` and `--concurrency 2`, with the ratio. On the
 *    2-core development machine wrk, the origin and the proxy share both cores, so the ratio says
 *    how much a second worker gains when it must compete with the load generator, not how the
 *    proxy scales on a machine with cores to spare.
 * 2. Requests through `/drain_listeners?graceful` (drain time longer than the run: responses ask
 *    clients to close, wrk reconnects): failed requests must be 0.
 * 3. Requests through a hot restart (epoch 0 to epoch 1, both with two workers): failed
 *    requests must be 0.
 *
 * "Failed" is wrk's non-2xx responses plus read, write and timeout socket errors; connect
 * errors are listed separately (they only happen when no process listens).
 *
 * @module
 */
import { pickDynamicBaseId } from "../src/server/hot_restart_socket.ts";
import {
  listenerPort,
  proxyBootstrap,
  type ProxyProcess,
  startProxyProcess,
} from "../src/server/testing_proxy_process.ts";

interface WrkResult {
  rps: number;
  requests: number;
  non2xx: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
}

function parseWrk(out: string): WrkResult {
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: num(/Requests\/sec:\s+([\d.]+)/),
    requests: num(/(\d+) requests in/),
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    connect: Number(sock?.[1] ?? 0),
    read: Number(sock?.[2] ?? 0),
    write: Number(sock?.[3] ?? 0),
    timeout: Number(sock?.[4] ?? 0),
  };
}

function wrk(port: number, seconds: number): Promise<WrkResult> {
  return new Deno.Command("wrk", {
    args: ["-t1", "-c64", `-d${seconds}s`, `http://127.0.0.1:${port}/`],
    stdout: "piped",
    stderr: "piped",
  }).output().then((o) => parseWrk(new TextDecoder().decode(o.stdout)));
}

function failed(r: WrkResult): number {
  return r.non2xx + r.read + r.write + r.timeout;
}

function line(what: string, r: WrkResult): string {
  return `${what.padEnd(36)} ${r.rps.toFixed(0).padStart(8)} req/s  ${
    String(r.requests).padStart(8)
  } requests  failed ${failed(r)} (non-2xx ${r.non2xx}, read ${r.read}, write ${r.write}, ` +
    `timeout ${r.timeout}; connect ${r.connect})`;
}

function origin(): { child: Deno.ChildProcess; port: number } {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `Deno.serve({hostname:"127.0.0.1",port:${port},onListen(){}},()=>new Response("x".repeat(64)))`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return { child, port };
}

async function main(args: string[]): Promise<void> {
  const i = args.indexOf("--duration");
  const seconds = i >= 0 ? Number(args[i + 1]) : 5;
  const o = origin();
  await new Promise((r) => setTimeout(r, 1000));
  const procs: ProxyProcess[] = [];
  try {
    const bootstrap = proxyBootstrap(o.port);
    console.log(`== lifecycle under wrk -t1 -c64, ${seconds}s runs ==`);
    const rates: number[] = [];
    for (const n of [1, 2]) {
      const p = await startProxyProcess(bootstrap, ["--concurrency", String(n), "-l", "error"]);
      procs.push(p);
      const port = await listenerPort(p.admin);
      await wrk(port, 1); // warm-up
      const r = await wrk(port, seconds);
      rates.push(r.rps);
      console.log(line(`--concurrency ${n}`, r));
      await p.stop();
    }
    console.log(`ratio 2 workers / 1 worker: ${(rates[1] / rates[0]).toFixed(2)}`);

    const d = await startProxyProcess(bootstrap, [
      "--concurrency",
      "2",
      "--drain-time-s",
      String(seconds * 4),
      "-l",
      "error",
    ]);
    procs.push(d);
    const dport = await listenerPort(d.admin);
    const during = wrk(dport, seconds);
    await new Promise((r) => setTimeout(r, 500));
    await (await fetch(`${d.admin}/drain_listeners?graceful`, { method: "POST" })).body?.cancel();
    const dr = await during;
    console.log(line("through /drain_listeners?graceful", dr));
    await d.stop();

    const id = String(pickDynamicBaseId("@proxy_domain_socket"));
    const flags = ["--base-id", id, "--concurrency", "2", "-l", "error", "--drain-time-s", "2"];
    const hr0 = await startProxyProcess(bootstrap, [...flags, "--parent-shutdown-time-s", "3"]);
    procs.push(hr0);
    const hport = await listenerPort(hr0.admin);
    const fixed = structuredClone(bootstrap) as {
      static_resources: { listeners: { address: { socket_address: { port_value: number } } }[] };
    };
    fixed.static_resources.listeners[0].address.socket_address.port_value = hport;
    const load = wrk(hport, Math.max(seconds, 8));
    await new Promise((r) => setTimeout(r, 1000));
    const hr1 = await startProxyProcess(fixed, [
      ...flags,
      "--parent-shutdown-time-s",
      "3",
      "--restart-epoch",
      "1",
    ]);
    procs.push(hr1);
    const hrr = await load;
    const { code } = await hr0.exited;
    console.log(line("through a hot restart (epoch 0 -> 1)", hrr));
    console.log(`parent exited with code ${code}`);
    await hr1.stop();
  } finally {
    for (const p of procs) await p.stop().catch(() => {});
    o.child.kill("SIGTERM");
    await o.child.status;
  }
}

if (import.meta.main) await main(Deno.args);
