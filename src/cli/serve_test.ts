import assert from "node:assert/strict";
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { parseArgs } from "../config/args.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import { ConfigLoadError } from "../config/errors.ts";
import { createLogging } from "../server/logger.ts";
import type { InitTarget } from "../server/init_manager.ts";
import { startServer } from "../server/server.ts";
import { ADMIN } from "../admin/mod.ts";

const FIXTURE = new URL("../../fixtures/admin/basic.yaml", import.meta.url);

function quietLogging(lines: string[]) {
  return createLogging(parseArgs(["--config-yaml", "{}"]), {
    sink: { write: (l) => void lines.push(l), reopen: () => Promise.resolve(), close() {} },
  });
}

function fixture(): Bootstrap {
  return yaml.load(Deno.readTextFileSync(FIXTURE)) as Bootstrap;
}

Deno.test("admin.general.config-address, admin.states.quitquitquit: serves the admin on the bootstrap address, writes --admin-address-path, exits 0 after /quitquitquit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_server_" });
  const lines: string[] = [];
  try {
    const options = parseArgs(["--config-yaml", "{}", "--admin-address-path", `${dir}/admin`]);
    const running = await startServer(options, fixture(), {
      signals: false,
      admin: ADMIN,
      logging: quietLogging(lines),
    });
    const written = await Deno.readTextFile(`${dir}/admin`);
    assert.equal(written, running.adminAddress);
    assert.match(written, /^127\.0\.0\.1:\d+$/);
    assert.ok(lines.some((l) => l.includes(`pid ${Deno.pid}`)));
    const base = `http://${written}`;
    const ready = await fetch(`${base}/ready`);
    assert.equal(await ready.text(), "LIVE\n");
    const info = await (await fetch(`${base}/server_info`)).json();
    assert.equal(info.node.id, "node-1");
    const clusters = await (await fetch(`${base}/clusters`)).text();
    assert.ok(clusters.includes("backend::127.0.0.2:2::health_flags::healthy"));
    const stats = await (await fetch(`${base}/stats`)).text();
    assert.match(stats, /^server\.live: 1$/m);
    const bad = await fetch(`${base}/quitquitquit`);
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
    const quit = await fetch(`${base}/quitquitquit`, { method: "POST" });
    assert.equal(await quit.text(), "OK\n");
    assert.equal(await running.finished, 0);
    assert.equal(running.context.state(), "DRAINING");
    await assert.rejects(fetch(`${base}/ready`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin.states.server-live-ready, admin.endpoints.init_dump: an unready init target keeps the server INITIALIZING, /ready 503 and /init_dump shows it; after ready, LIVE", async () => {
  let pending!: InitTarget;
  const b = fixture();
  b.static_resources!.listeners = [{
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "proxy.filters.network.tcp_proxy",
        typed_config: { stat_prefix: "tcp", cluster: "backend" },
      }],
    }],
  }];
  const running = await startServer(parseArgs(["--config-yaml", "{}"]), b, {
    signals: false,
    admin: ADMIN,
    logging: quietLogging([]),
    onInit: (server) => pending = server.add("cluster eds_backend"),
  });
  try {
    const base = `http://${running.adminAddress}`;
    const ready = await fetch(`${base}/ready`);
    assert.equal(ready.status, 503);
    assert.equal(await ready.text(), "INITIALIZING\n");
    const dump = await (await fetch(`${base}/init_dump`)).json();
    const server = dump.unready_targets_dumps[0];
    assert.equal(server.name, "init manager Server");
    assert.deepEqual(server.target_names, ["target cluster eds_backend"]);
    const listeners = await (await fetch(`${base}/init_dump?mask=listener`)).json();
    assert.deepEqual(listeners, { unready_targets_dumps: [{ name: "init manager Listener tcp" }] });
    const info = await (await fetch(`${base}/server_info`)).json();
    assert.equal(info.state, "INITIALIZING");
    pending.ready();
    const live = await fetch(`${base}/ready`);
    assert.equal(live.status, 200);
    assert.equal(await live.text(), "LIVE\n");
    assert.equal(await (await fetch(`${base}/init_dump`)).text(), "{}\n");
  } finally {
    await running.shutdown();
  }
  assert.equal(await running.finished, 0);
});

Deno.test("admin.general.config-address: no admin block, no admin listener", async () => {
  const running = await startServer(parseArgs(["--config-yaml", "{}"]), {}, {
    signals: false,
    admin: ADMIN,
    logging: quietLogging([]),
  });
  assert.equal(running.adminAddress, null);
  await running.shutdown();
  assert.equal(await running.finished, 0);
});

Deno.test("errors.lb-config-without-policy: bad configuration is a ConfigLoadError that names where", async () => {
  const b = fixture();
  b.stats_flush_interval = "soon";
  await assert.rejects(
    startServer(parseArgs(["--config-yaml", "{}"]), b, {
      signals: false,
      admin: ADMIN,
      logging: quietLogging([]),
    }),
    (e: unknown) => e instanceof ConfigLoadError && e.errors[0].path === "stats_flush_interval",
  );
  const c = fixture();
  (c.static_resources!.clusters![0] as Record<string, unknown>).ring_hash_lb_config = {};
  await assert.rejects(
    startServer(parseArgs(["--config-yaml", "{}"]), c, {
      signals: false,
      admin: ADMIN,
      logging: quietLogging([]),
    }),
    (e: unknown) =>
      e instanceof ConfigLoadError &&
      e.errors.some((x) => x.path.startsWith("static_resources.clusters[0]")),
  );
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const d = fixture();
    d.admin!.address!.socket_address!.port_value = (taken.addr as Deno.NetAddr).port;
    await assert.rejects(
      startServer(parseArgs(["--config-yaml", "{}"]), d, {
        signals: false,
        admin: ADMIN,
        logging: quietLogging([]),
      }),
      (e: unknown) =>
        e instanceof ConfigLoadError && e.errors[0].path === "admin.address.socket_address",
    );
  } finally {
    taken.close();
  }
});

Deno.test("admin.states.quitquitquit: the process reopens logs on SIGUSR1 and exits 0 on SIGTERM", async () => {
  const dir = await Deno.makeTempDir({ prefix: "proxyspec_signal_" });
  const mod = new URL("../../mod.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      mod,
      "-c",
      FIXTURE.pathname,
      "--admin-address-path",
      `${dir}/admin`,
      "--log-path",
      `${dir}/log`,
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    let address = "";
    for (let i = 0; i < 300 && !address; i++) {
      address = await Deno.readTextFile(`${dir}/admin`).catch(() => "");
      if (!address) await new Promise((r) => setTimeout(r, 50));
    }
    assert.match(address, /^127\.0\.0\.1:\d+$/);
    assert.equal(await (await fetch(`http://${address}/ready`)).text(), "LIVE\n");
    const log = await Deno.readTextFile(`${dir}/log`);
    const pid = /pid (\d+)/.exec(log)?.[1];
    assert.equal(pid, String(child.pid));
    child.kill("SIGUSR1");
    let reopened = false;
    for (let i = 0; i < 100 && !reopened; i++) {
      reopened = (await Deno.readTextFile(`${dir}/log`)).includes("reopening logs");
      if (!reopened) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(reopened);
    assert.equal(await (await fetch(`http://${address}/ready`)).text(), "LIVE\n");
    child.kill("SIGTERM");
    const status = await child.status;
    assert.equal(status.code, 0);
    assert.ok((await Deno.readTextFile(`${dir}/log`)).includes("shutdown complete"));
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
