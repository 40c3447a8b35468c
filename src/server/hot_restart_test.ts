import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  requestOnce,
  startProxyProcess,
  statsOf,
  waitFor,
} from "./testing_proxy_process.ts";
import {
  bindHotRestartSocket,
  hotRestartSocketName,
  pickDynamicBaseId,
} from "./hot_restart_socket.ts";
import { hotRestartProtocolVersion } from "./hot_restart.ts";

const MOD = new URL("../../mod.ts", import.meta.url).pathname;
const SOCKET = "@proxy_domain_socket";

/** A base ID no other test (or proxy on this machine) is likely to use. */
function freshBaseId(): number {
  return pickDynamicBaseId(SOCKET);
}

function origin() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  return { server, port: server.addr.port };
}

function withPort(b: Record<string, unknown>, port: number): Record<string, unknown> {
  const copy = structuredClone(b) as {
    static_resources: { listeners: { address: { socket_address: { port_value: number } } }[] };
  };
  copy.static_resources.listeners[0].address.socket_address.port_value = port;
  return copy;
}

async function runProxy(args: string[]): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, "--config-yaml", "{}", ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: out.code, text: d.decode(out.stdout) + d.decode(out.stderr) };
}

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<never>((_, rej) => t = setTimeout(() => rej(new Error(`${what}: timed out`)), ms)),
  ]).finally(() => clearTimeout(t));
}

Deno.test("cli.options.restart-epoch: a hot restart under load answers every request it accepts with 200; the parent drains and exits after --parent-shutdown-time-s; counters carry over; uptime spans the epochs", async () => {
  const o = origin();
  const id = String(freshBaseId());
  const flags = ["--base-id", id, "--drain-time-s", "1", "--parent-shutdown-time-s", "3"];
  const bootstrap = proxyBootstrap(o.port);
  const parent = await startProxyProcess(bootstrap, [...flags, "--concurrency", "1"]);
  let child: Awaited<ReturnType<typeof startProxyProcess>> | null = null;
  try {
    const port = await listenerPort(parent.admin);
    for (let i = 0; i < 5; i++) assert.equal(await requestOnce(port, "/"), 200);
    // The parent runs a whole second before the child starts, so the uptimes (whole seconds)
    // of the two epochs differ.
    await new Promise((r) => setTimeout(r, 1100));
    let loading = true;
    const statuses: number[] = [];
    const load = Promise.all(Array.from({ length: 3 }, async () => {
      while (loading) statuses.push(await requestOnce(port, "/"));
    }));
    child = await startProxyProcess(withPort(bootstrap, port), [
      ...flags,
      "--concurrency",
      "2",
      "--restart-epoch",
      "1",
    ]);
    const { code } = await within(parent.exited, 30_000, "the parent's exit");
    assert.equal(code, 0);
    loading = false;
    await load;
    assert.ok(statuses.length > 0);
    // Every answer is a 200, and no connection is reset: the child (two sockets) steers new
    // connections away from the parent's one socket before it closes (hot_restart_steering.ts).
    assert.deepEqual(statuses.filter((s) => s !== 200 && s !== 0), [], `${statuses.length}`);
    const resets = statuses.filter((s) => s === 0).length;
    assert.equal(resets, 0, `${resets} of ${statuses.length} requests reset`);
    const stats = await statsOf(child.admin);
    // Counters continue: the new process counts every request either process answered.
    const answered = statuses.filter((s) => s === 200).length;
    assert.equal(stats.get("http.ingress_http.downstream_rq_total"), 5 + answered);
    assert.equal(stats.get("server.hot_restart_epoch"), 1);
    // Histograms continue too: the request-time samples of both processes, once the new
    // process's stats flush (every 5 s) has taken in what the parent handed over.
    const samples = async () => {
      const t = await (await fetch(`${child!.admin}/stats/prometheus`)).text();
      const m = /http_downstream_rq_time_count\{[^}]*ingress_http[^}]*\} (\d+)/.exec(t);
      return m ? Number(m[1]) : 0;
    };
    // Exactly: the parent hands over what it recorded until its last answer (to `terminate`).
    const want = 5 + answered;
    await waitFor(
      async () => (await samples()) === want || undefined,
      20_000,
      `${want} request-time samples`,
    ).catch(async (e) => assert.fail(`${e.message}: ${await samples()}`));
    assert.equal((await statsOf(child.admin)).get("cluster.demo.upstream_rq_total"), want);
    const info = await (await fetch(`${child.admin}/server_info`)).json();
    const secs = (s: string) => Number(s.replace(/s$/, ""));
    assert.ok(secs(info.uptime_all_epochs) > secs(info.uptime_current_epoch), JSON.stringify(info));
    assert.equal(
      await (await fetch(`${child.admin}/hot_restart_version`)).text(),
      hotRestartProtocolVersion(),
    );
  } finally {
    await child?.stop();
    await parent.stop();
    await o.server.shutdown();
  }
});

Deno.test("cli.options.restart-epoch: an epoch with no parent listening is a clear error (exit 1), with nothing left running", async () => {
  const id = String(freshBaseId());
  const r = await within(runProxy(["--restart-epoch", "1", "--base-id", id]), 30_000, "the proxy");
  assert.equal(r.code, 1, r.text);
  assert.match(
    r.text,
    /unable to reach the parent process on hot restart socket @proxy_domain_socket_parent_\d+0/,
  );
});

Deno.test("cli.options.restart-epoch: a parent speaking another hot restart version is refused with both versions named", async () => {
  const id = freshBaseId();
  const parent = bindHotRestartSocket(hotRestartSocketName(SOCKET, "parent", id, 0), null);
  const conn = parent.socket as Deno.DatagramConn;
  const answering = (async () => {
    const [data] = await conn.receive();
    const frame = JSON.parse(new TextDecoder().decode(data));
    const hello = JSON.parse(frame.chunk);
    const reply = {
      id: hello.id,
      type: "reply",
      info: { version: "1.64", pid: 4242, firstEpochStartedAt: 0 },
    };
    const out = { id: hello.id, part: 0, parts: 1, chunk: JSON.stringify(reply) };
    const to = hotRestartSocketName(SOCKET, "child", id, 1);
    await conn.send(new TextEncoder().encode(JSON.stringify(out)), {
      transport: "unixpacket",
      path: "\0" + to.slice(1),
    });
  })();
  try {
    const r = await within(
      runProxy(["--restart-epoch", "1", "--base-id", String(id)]),
      30_000,
      "the proxy",
    );
    assert.equal(r.code, 1, r.text);
    assert.match(r.text, /hot restart version mismatch: the parent \(pid 4242\) speaks 1\.64/);
    assert.ok(r.text.includes(hotRestartProtocolVersion()), r.text);
    await answering;
  } finally {
    parent.close();
  }
});

Deno.test("cli.options.use-dynamic-base-id: the base ID of a running proxy is detected as held and never picked", async () => {
  const o = origin();
  const held = freshBaseId();
  const p = await startProxyProcess(proxyBootstrap(o.port), [
    "--base-id",
    String(held),
    "--concurrency",
    "1",
  ]);
  try {
    const tries = [held, held, held + 1];
    const picked = pickDynamicBaseId(SOCKET, null, () => tries.shift() ?? 0);
    assert.equal(picked, held + 1);
    // A second proxy with the same explicit base ID is refused, naming the socket.
    const r = await within(runProxy(["--base-id", String(held)]), 30_000, "the proxy");
    assert.equal(r.code, 1, r.text);
    assert.match(
      r.text,
      /unable to bind hot restart socket @proxy_domain_socket_parent_\d+ .*another process holds it/,
    );
  } finally {
    await p.stop();
    await o.server.shutdown();
  }
});
