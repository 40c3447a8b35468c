/**
 * No connection is refused through a hot restart with workers on both sides: a client opens a
 * fresh connection for every request at a steady pace while a new process (two workers) takes
 * over from a parent (two workers); the port always has a listening socket, from the parent's
 * start until it has exited (watched in `/proc/net/tcp` where Linux shows it).
 *
 * @module
 */
import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  type ProxyProcess,
  startProxyProcess,
} from "./testing_proxy_process.ts";
import { pickDynamicBaseId } from "./hot_restart_socket.ts";
import { type Outcome, requestOutcome } from "./testing_hot_restart_load.ts";

/** Listening IPv4 sockets on `port` (from `/proc/net/tcp`), or null where Linux shows none. */
async function listening(port: number): Promise<number | null> {
  let text: string;
  try {
    text = await Deno.readTextFile("/proc/net/tcp");
  } catch {
    return null;
  }
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let n = 0;
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(hex) && f[3] === "0A") n++;
  }
  return n;
}

Deno.test("cli.options.restart-epoch cli.options.concurrency: through a hot restart with two workers in the parent and in the child, no connection is refused or reset and the port never lacks a listening socket", async () => {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const id = String(pickDynamicBaseId("@proxy_domain_socket"));
  const flags = [
    ...["--base-id", id, "--concurrency", "2"],
    ...["--drain-time-s", "1", "--parent-shutdown-time-s", "2"],
  ];
  const bootstrap = proxyBootstrap(origin.addr.port);
  const parent = await startProxyProcess(bootstrap, flags);
  let child: ProxyProcess | null = null;
  const clients = 4;
  try {
    const port = await listenerPort(parent.admin);
    const outcomes: Outcome[] = [];
    let loading = true;
    // Each client: a request on a fresh connection every 5 ms, until the parent has exited.
    const load = Promise.all(Array.from({ length: clients }, async () => {
      while (loading) {
        outcomes.push(await requestOutcome("127.0.0.1", port));
        await new Promise((r) => setTimeout(r, 5));
      }
    }));
    const counts: number[] = [];
    const watch = (async () => {
      while (loading) {
        const n = await listening(port);
        if (n === null) return;
        counts.push(n);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const fixed = structuredClone(bootstrap) as typeof bootstrap & {
      static_resources: { listeners: { address: { socket_address: { port_value: number } } }[] };
    };
    fixed.static_resources.listeners[0].address.socket_address.port_value = port;
    child = await startProxyProcess(fixed, [...flags, "--restart-epoch", "1"]);
    const { code, stderr } = await parent.exited;
    assert.equal(code, 0, stderr);
    await new Promise((r) => setTimeout(r, 300));
    loading = false;
    await Promise.all([load, watch]);
    const tally = (o: Outcome) => outcomes.filter((x) => x === o).length;
    const summary = `${outcomes.length} requests: ${tally("ok")} ok, ${tally("refused")} ` +
      `refused, ${tally("reset")} reset, ${tally("other")} other`;
    assert.ok(tally("ok") > 0, summary);
    assert.equal(tally("refused"), 0, summary);
    assert.equal(tally("other"), 0, summary);
    // Nor reset: the child steers new connections away from the parent's sockets before they
    // close (hot_restart_steering.ts), whatever net.ipv4.tcp_migrate_req says.
    assert.equal(tally("reset"), 0, summary);
    // The parent says when each worker's sockets really closed (the moment of those resets).
    for (const w of [0, 1]) {
      assert.match(stderr, new RegExp(`drain time over: stopped listening on worker ${w}: l0 `));
    }
    if (counts.length > 0) {
      assert.ok(Math.min(...counts) >= 2, `listening sockets seen: ${[...new Set(counts)]}`);
    }
  } finally {
    await child?.stop();
    await parent.stop();
    await origin.shutdown();
  }
});
