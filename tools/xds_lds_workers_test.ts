/**
 * LDS with `--concurrency 2`, through real processes: the main thread holds the subscription and
 * every worker binds, replaces and removes each listener (`src/server/worker_listeners.ts`).
 * A gRPC control plane (`tools/xds_server.ts`) serves the first case; files serve the second
 * (listeners and their RDS routes), with `/drain_listeners?inboundonly`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { startXdsServer } from "./xds_server.ts";
import { adsBootstrap, assignment, edsCluster, origin, write } from "./xds_testing.ts";
import {
  type ProxyProcess,
  startProxyProcess,
  statsOf,
  waitFor,
} from "../src/server/testing_proxy_process.ts";

const LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener";
const ROUTES = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
const HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3." +
  "HttpConnectionManager";

/** An HTTP listener `name` on 127.0.0.1:`port` whose connection manager has `routing`. */
function listener(name: string, port: number, routing: JsonObject, extra: JsonObject = {}) {
  return {
    "@type": LISTENER,
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: port } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type": HCM,
          stat_prefix: name,
          ...routing,
          http_filters: [{ name: "envoy.filters.http.router" }],
        },
      }],
    }],
    ...extra,
  };
}

/** Inline routes sending everything to `cluster` (and, with `slow`, `/slow` to cluster `cs`). */
function inline(cluster: string, slow = false): JsonObject {
  return {
    route_config: {
      virtual_hosts: [{
        name: "all",
        domains: ["*"],
        routes: [
          ...(slow ? [{ match: { prefix: "/slow" }, route: { cluster: "cs" } }] : []),
          { match: { prefix: "/" }, route: { cluster } },
        ],
      }],
    },
  };
}

/** A free loopback port (bound and closed). */
function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** One GET on a fresh connection: `"<status> <body>"`, or `""` when the connection failed. */
async function getOnce(port: number): Promise<string> {
  let conn: Deno.TcpConn;
  try {
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
  } catch {
    return "";
  }
  try {
    await conn.write(
      new TextEncoder().encode("GET / HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n"),
    );
    let text = "";
    const buf = new Uint8Array(16 * 1024);
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    const m = /^HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n([^]*)$/.exec(text);
    return m ? `${m[1]} ${m[2]}` : "";
  } catch {
    return "";
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/** `n` GETs on fresh connections, 8 at a time (so the kernel spreads them over the workers). */
async function answers(port: number, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i += 8) {
    const k = Math.min(8, n - i);
    out.push(...await Promise.all(Array.from({ length: k }, () => getOnce(port))));
  }
  return out;
}

/** Waits until the stat `name` reads `value`. */
function statIs(p: ProxyProcess, name: string, value: number): Promise<true> {
  return waitFor(
    async () => (await statsOf(p.admin)).get(name) === value ? true : undefined,
    20_000,
    `${name} = ${value}`,
  );
}

/** Names and ports `/listeners?format=json` shows. */
async function listed(admin: string): Promise<string[]> {
  const j = await (await fetch(`${admin}/listeners?format=json`)).json();
  return ((j.listener_statuses ?? []) as JsonObject[]).map((l) =>
    `${l.name} ${((l.local_address as JsonObject).socket_address as JsonObject).port_value}`
  );
}

/** The per-worker connection counts of the listener on `port`. */
function perWorker(stats: Map<string, number>, port: number): [number, number] {
  const l = `listener.127.0.0.1_${port}`;
  return [
    stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0,
    stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0,
  ];
}

Deno.test("cli.options.concurrency: with --concurrency 2 a listener from a gRPC control plane serves on both workers, follows a change, is removed from every worker, and a listener that cannot bind is NACKed (listener_manager.lds counted once)", async () => {
  const a = origin("a");
  const b = origin("b");
  let release = () => {};
  const released = new Promise<void>((r) => release = r);
  const slow = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await released;
    return new Response("slow");
  });
  const port = freePort();
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("ca"), edsCluster("cb"), edsCluster("cs")]);
  write(dir, "endpoints.yaml", [
    assignment("ca", a.addr.port),
    assignment("cb", b.addr.port),
    assignment("cs", slow.addr.port),
  ]);
  write(dir, "listeners.yaml", [listener("front", port, inline("ca", true))]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = await startProxyProcess(adsBootstrap(cp.port, { lds: true }), [
    "--concurrency",
    "2",
    "--drain-time-s",
    "60",
  ]);
  try {
    // Version 1: every answer comes from cluster ca, on both workers.
    assert.deepEqual(await answers(port, 24), new Array(24).fill("200 a"));
    let stats = await statsOf(p.admin);
    const [w0, w1] = perWorker(stats, port);
    assert.ok(w0 > 0 && w1 > 0, `connections on both workers: ${w0} and ${w1}`);
    assert.equal(w0 + w1, 24);
    assert.equal(stats.get(`listener.127.0.0.1_${port}.downstream_cx_total`), 24);
    assert.equal(stats.get("listener_manager.listener_added"), 1);
    assert.equal(stats.get("listener_manager.listener_create_success"), 2, "once per worker");
    assert.equal(stats.get("listener_manager.total_listeners_active"), 1);
    assert.equal(stats.get("listener_manager.lds.update_success"), 1, "one subscription");
    assert.deepEqual(await listed(p.admin), [`front ${port}`]);
    const dump = await (await fetch(`${p.admin}/config_dump?resource=dynamic_listeners`)).json();
    assert.equal(dump.configs.length, 1);
    assert.equal(dump.configs[0].active_state.version_info, "1");

    // A request in flight on version 1, which drains (it finishes) once version 2 serves.
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`);
    await statIs(p, "cluster.cs.upstream_rq_active", 1);
    // Version 2 sends / to cluster cb: every new request on both workers follows it.
    write(dir, "listeners.yaml", [listener("front", port, inline("cb"))]);
    await cp.reload();
    await statIs(p, "listener_manager.listener_modified", 1);
    await waitFor(
      async () => {
        const d = await (await fetch(`${p.admin}/config_dump?resource=dynamic_listeners`))
          .json();
        return d.configs[0]?.active_state?.version_info === "2" ? true : undefined;
      },
      20_000,
      "version 2 in service",
    );
    assert.equal(
      (await statsOf(p.admin)).get("listener_manager.total_listeners_draining"),
      1,
      "version 1 drains",
    );
    const drainDump = await (await fetch(`${p.admin}/config_dump?resource=dynamic_listeners`))
      .json();
    assert.equal(drainDump.configs[0].draining_state?.version_info, "1");
    release();
    const slowAnswer = await inFlight;
    assert.equal(`${slowAnswer.status} ${await slowAnswer.text()}`, "200 slow");
    await statIs(p, "listener_manager.total_listeners_draining", 0);
    const before = perWorker(await statsOf(p.admin), port);
    assert.deepEqual(await answers(port, 24), new Array(24).fill("200 b"));
    stats = await statsOf(p.admin);
    const after = perWorker(stats, port);
    assert.ok(
      after[0] > before[0] && after[1] > before[1],
      `version 2 on both workers: ${before} then ${after}`,
    );
    assert.equal(stats.get("cluster.cb.upstream_rq_total"), 24);
    assert.equal(stats.get("listener_manager.total_listeners_active"), 1);
    assert.equal(stats.get("listener_manager.listener_create_success"), 4);

    // A listener whose address another socket holds: the update is NACKed with the path and
    // the reason, and version 2 keeps serving.
    const busy = (held.addr as Deno.NetAddr).port;
    write(dir, "listeners.yaml", [
      listener("front", port, inline("ca")),
      listener("busy", busy, inline("ca")),
    ]);
    await cp.reload();
    await statIs(p, "listener_manager.lds.update_rejected", 1);
    const nack = cp.replies.find((r) => r.error !== undefined && r.type_url === LISTENER);
    assert.match(
      nack?.error ?? "",
      new RegExp(
        `resources\\[1\\]\\.address: listener 'busy': cannot bind '127\\.0\\.0\\.1:${busy}'`,
      ),
    );
    // A listener naming a cluster that does not exist: NACKed with its path too.
    write(dir, "listeners.yaml", [listener("front", port, inline("nope"))]);
    await cp.reload();
    await statIs(p, "listener_manager.lds.update_rejected", 2);
    const nacks = cp.replies.filter((r) => r.error !== undefined && r.type_url === LISTENER);
    assert.match(nacks.at(-1)?.error ?? "", /^resources\[0\]\.filter_chains\[0\]/);
    assert.deepEqual(await answers(port, 8), new Array(8).fill("200 b"));
    stats = await statsOf(p.admin);
    assert.equal(stats.get("listener_manager.listener_modified"), 1);
    assert.equal(stats.get("listener_manager.listener_added"), 1);

    // Removed: the port closes on every worker.
    write(dir, "listeners.yaml", []);
    await cp.reload();
    await statIs(p, "listener_manager.listener_removed", 1);
    await statIs(p, "listener_manager.total_listeners_active", 0);
    assert.deepEqual(await listed(p.admin), []);
    assert.deepEqual(await answers(port, 16), new Array(16).fill(""), "no worker accepts");
  } finally {
    release();
    await p.stop();
    held.close();
    await slow.shutdown();
    await cp.close();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A discovery response file body. */
function resources(version: string, list: JsonObject[]): string {
  return JSON.stringify({ version_info: version, resources: list });
}

/** A route configuration `r` sending / to `cluster`. */
function routes(cluster: string): JsonObject {
  return { "@type": ROUTES, name: "r", ...(inline(cluster).route_config as JsonObject) };
}

/** A static cluster `name` with one endpoint on `port`. */
function staticCluster(name: string, port: number): JsonObject {
  return {
    name,
    type: "STATIC",
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: name,
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
  };
}

Deno.test("admin.states.drain-listeners: with --concurrency 2 and LDS from files, a listener's RDS routes reach both workers; /drain_listeners?inboundonly stops the LDS listener on every worker and LDS then neither changes nor adds INBOUND listeners", async () => {
  const a = origin("a");
  const b = origin("b");
  const dir = await Deno.makeTempDir();
  const put = async (name: string, body: string) => {
    await Deno.writeTextFile(join(dir, `${name}.tmp`), body);
    await Deno.rename(join(dir, `${name}.tmp`), join(dir, name));
  };
  const rdsPath = join(dir, "rds.json");
  const inbound = freePort();
  const outbound = freePort();
  const rdsListener = (port: number, name: string, extra: JsonObject = {}) =>
    listener(name, port, {
      rds: { route_config_name: "r", config_source: { path_config_source: { path: rdsPath } } },
    }, { traffic_direction: "INBOUND", ...extra });
  await put("rds.json", resources("1", [routes("ca")]));
  await put(
    "lds.json",
    resources("1", [rdsListener(inbound, "in"), {
      ...listener("out", outbound, inline("cb")),
      traffic_direction: "OUTBOUND",
    }]),
  );
  const { "@type": _, ...fixed } = listener("static", 0, inline("ca"));
  const p = await startProxyProcess({
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    dynamic_resources: { lds_config: { path_config_source: { path: join(dir, "lds.json") } } },
    static_resources: {
      listeners: [fixed],
      clusters: [staticCluster("ca", a.addr.port), staticCluster("cb", b.addr.port)],
    },
  }, ["--concurrency", "2", "--drain-time-s", "1"]);
  try {
    assert.deepEqual(await answers(inbound, 24), new Array(24).fill("200 a"));
    const [w0, w1] = perWorker(await statsOf(p.admin), inbound);
    assert.ok(w0 > 0 && w1 > 0, `connections on both workers: ${w0} and ${w1}`);
    // The route configuration changes: both workers take it.
    await put("rds.json", resources("2", [routes("cb")]));
    await statIs(p, "http.in.rds.r.update_success", 2);
    assert.deepEqual(await answers(inbound, 24), new Array(24).fill("200 b"));
    const stats = await statsOf(p.admin);
    assert.equal(stats.get("cluster.cb.upstream_rq_total"), 24);
    // One static and two LDS listeners, each added once and created on each worker.
    assert.equal(stats.get("listener_manager.total_listeners_active"), 3);
    assert.equal(stats.get("listener_manager.listener_added"), 3);
    assert.equal(stats.get("listener_manager.listener_create_success"), 6);
    assert.equal(stats.get("listener_manager.lds.update_success"), 1);

    // INBOUND listeners stop on every worker; OUTBOUND ones keep serving.
    const r = await fetch(`${p.admin}/drain_listeners?inboundonly`, { method: "POST" });
    assert.equal(r.status, 200);
    await r.body?.cancel();
    assert.deepEqual(await answers(inbound, 16), new Array(16).fill(""), "no worker accepts");
    assert.deepEqual(await answers(outbound, 8), new Array(8).fill("200 b"));
    // Changing the INBOUND listener and adding another INBOUND one are refused; the OUTBOUND
    // listener still changes.
    const extra = freePort();
    await put(
      "lds.json",
      resources("2", [
        rdsListener(inbound, "in", { per_connection_buffer_limit_bytes: 65536 }),
        rdsListener(extra, "in2"),
        {
          ...listener("out", outbound, inline("ca")),
          traffic_direction: "OUTBOUND",
        },
      ]),
    );
    await statIs(p, "listener_manager.lds.update_success", 2);
    await waitFor(
      async () => (await getOnce(outbound)) === "200 a" ? true : undefined,
      20_000,
      "the OUTBOUND listener changed",
    );
    const after = await statsOf(p.admin);
    assert.equal(after.get("listener_manager.listener_added"), 3, "in2 was not added");
    assert.equal(after.get("listener_manager.listener_modified"), 1, "only out changed");
    assert.equal(await getOnce(extra), "");
    assert.deepEqual((await listed(p.admin)).filter((l) => l.startsWith("in2")), []);
  } finally {
    await p.stop();
    await a.shutdown();
    await b.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli.options.concurrency: with --concurrency 2, a listener version the workers cannot bind (its port taken while it warmed) removes the listener from every worker, as Envoy's listener manager does: gone from /listeners and /config_dump, its port closed, listener_create_failure counted once", async () => {
  const a = origin("a");
  const port = freePort();
  const next = freePort();
  const dir = await Deno.makeTempDir();
  write(dir, "clusters.yaml", [edsCluster("ca")]);
  write(dir, "endpoints.yaml", [assignment("ca", a.addr.port)]);
  write(dir, "listeners.yaml", [listener("front", port, inline("ca"))]);
  const cp = await startXdsServer({ dir, port: 0, watch: false, log: () => {} });
  const p = await startProxyProcess(adsBootstrap(cp.port, { lds: true }), [
    "--concurrency",
    "2",
    "--drain-time-s",
    "1",
  ]);
  let held: Deno.Listener | null = null;
  try {
    assert.deepEqual(await answers(port, 16), new Array(16).fill("200 a"));
    // Version 2 moves to a free port and waits for its routes (RDS "r2", not served yet): the
    // main thread's bind check passes, then another socket takes the port before the workers
    // bind it.
    write(dir, "listeners.yaml", [
      listener("front", next, {
        rds: {
          route_config_name: "r2",
          config_source: { ads: {}, resource_api_version: "V3", initial_fetch_timeout: "60s" },
        },
      }),
    ]);
    await cp.reload();
    await statIs(p, "listener_manager.total_listeners_warming", 1);
    held = Deno.listen({ hostname: "127.0.0.1", port: next });
    write(dir, "routes.yaml", [{
      "@type": ROUTES,
      name: "r2",
      ...(inline("ca").route_config as JsonObject),
    }]);
    await cp.reload();
    await statIs(p, "listener_manager.listener_create_failure", 1);
    await statIs(p, "listener_manager.total_listeners_draining", 0);
    const stats = await statsOf(p.admin);
    assert.equal(stats.get("listener_manager.listener_removed"), 1);
    assert.equal(stats.get("listener_manager.listener_modified"), 1);
    assert.equal(stats.get("listener_manager.total_listeners_active"), 0);
    assert.equal(stats.get("listener_manager.total_listeners_warming"), 0);
    assert.equal(stats.get("listener_manager.lds.update_success"), 2, "the update was ACKed");
    assert.deepEqual(await listed(p.admin), []);
    const dump = await (await fetch(`${p.admin}/config_dump?resource=dynamic_listeners`)).json();
    assert.deepEqual(dump.configs ?? [], [], JSON.stringify(dump));
    assert.deepEqual(await answers(port, 16), new Array(16).fill(""), "no worker accepts");
    await p.stop();
    assert.match(
      (await p.exited).stderr,
      new RegExp(
        `\\[critical\\].*listener 'front' failed to listen on address '127\\.0\\.0\\.1:${next}' ` +
          "on worker",
      ),
    );
  } finally {
    held?.close();
    await p.stop();
    await cp.close();
    await a.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
