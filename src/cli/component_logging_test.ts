import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import { createLogging } from "../server/logger.ts";
import { startServer } from "../server/server.ts";
import { ADMIN } from "../admin/mod.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";

const addr = (port: number) => ({ socket_address: { address: "127.0.0.1", port_value: port } });

/** A proxy with one listener routing to `origin` over a STRICT_DNS cluster, its log lines kept. */
async function withProxy(
  args: string[],
  fn: (p: { admin: string; port: number; lines: string[] }) => Promise<void>,
) {
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok"),
  );
  const options = parseArgs(["--config-yaml", "{}", ...args]);
  const lines: string[] = [];
  const logging = createLogging(options, {
    sink: { write: (l) => void lines.push(l), reopen: () => Promise.resolve(), close() {} },
  });
  const bootstrap = {
    admin: { address: addr(0) },
    static_resources: {
      clusters: [{
        name: "o",
        type: "STRICT_DNS",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "o",
          endpoints: [{ lb_endpoints: [{ endpoint: { address: addr(origin.addr.port) } }] }],
        },
      }],
      listeners: [{
        name: "l",
        address: addr(0),
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
              stat_prefix: "in",
              route_config: {
                virtual_hosts: [{
                  name: "v",
                  domains: ["*"],
                  routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
                }],
              },
              http_filters: [{ name: "envoy.filters.http.router" }],
            },
          }],
        }],
      }],
    },
  } as unknown as Bootstrap;
  const running = await startServer(options, bootstrap, { signals: false, logging, admin: ADMIN });
  try {
    const port = running.context.listeners.listeners()[0].port;
    await fn({ admin: `http://${running.adminAddress}`, port, lines });
  } finally {
    await running.shutdown();
    await origin.shutdown();
  }
}

/** One request on a connection of its own (a fresh client: no connection is reused). */
async function get(url: string, init?: RequestInit): Promise<number> {
  const client = Deno.createHttpClient({});
  try {
    const r = await fetch(url, { ...init, client });
    await r.body?.cancel();
    return r.status;
  } finally {
    client.close();
  }
}

const debugOf = (lines: string[], logger: string) =>
  lines.filter((l) => l.startsWith(`[${logger}][debug]`));

Deno.test("cli.options.component-log-level admin.endpoints.logging: component loggers emit their debug lines only when their level allows, and name the real call site", async () => {
  await withProxy([
    "--log-format",
    "[%n][%l][%s:%#] %v",
    "--component-log-level",
    "upstream:debug",
  ], async ({ admin, port, lines }) => {
    // --component-log-level upstream:debug: the cluster's membership update is logged.
    assert.ok(
      debugOf(lines, "upstream").some((l) =>
        /^\[upstream\]\[debug\]\[cluster\.ts:\d+\] membership update for cluster o: 1 hosts, 1 added/
          .test(l)
      ),
      lines.join(""),
    );
    assert.equal(await get(`http://127.0.0.1:${port}/a`), 200);
    assert.deepEqual(debugOf(lines, "router"), []);
    assert.deepEqual(debugOf(lines, "http"), []);
    // POST /logging?router=debug: the request's route and host are logged, at their call site.
    assert.equal(await get(`${admin}/logging?router=debug`, { method: "POST" }), 200);
    assert.equal(await get(`http://127.0.0.1:${port}/b`), 200);
    const router = debugOf(lines, "router");
    assert.ok(
      router.some((l) =>
        /^\[router\]\[debug\]\[http_connection_manager\.ts:\d+\] \[S\d+\] cluster 'o' match for URL '\/b'/
          .test(l)
      ),
      router.join(""),
    );
    assert.ok(
      router.some((l) => / upstream 127\.0\.0\.1:\d+ answered 200/.test(l)),
      router.join(""),
    );
    assert.deepEqual(debugOf(lines, "http"), []);
    // POST /logging?level=debug: every component, connection and pool included.
    assert.equal(await get(`${admin}/logging?level=debug`, { method: "POST" }), 200);
    assert.equal(await get(`http://127.0.0.1:${port}/c`), 200);
    assert.ok(debugOf(lines, "http").some((l) => l.includes("request headers complete: GET")));
    assert.ok(debugOf(lines, "connection").some((l) => /new connection from 127\.0\.0\.1/.test(l)));
    assert.equal(await get(`${admin}/ready`), 200);
    assert.ok(debugOf(lines, "admin").some((l) => l.includes("admin request: GET /ready")));
    // Back to info: no more debug lines.
    assert.equal(await get(`${admin}/logging?level=info`, { method: "POST" }), 200);
    const before = lines.length;
    assert.equal(await get(`http://127.0.0.1:${port}/d`), 200);
    assert.deepEqual(lines.slice(before).filter((l) => l.includes("][debug]")), []);
  });
});

Deno.test("cli.options.enable-fine-grain-logging: fine-grain loggers are named after the file that logged", async () => {
  await withProxy(
    ["--enable-fine-grain-logging", "-l", "debug", "--log-format", "[%n] %v"],
    async ({ port, lines }) => {
      assert.equal(await get(`http://127.0.0.1:${port}/x`), 200);
      assert.ok(
        lines.some((l) => l.startsWith("[src/listener/http_connection_manager.ts] [S")),
        lines.join(""),
      );
      assert.ok(lines.some((l) => l.startsWith("[src/upstream/cluster.ts] membership update")));
      // The server's start-up lines name server.ts, their real call site.
      assert.ok(lines.some((l) => l.startsWith("[src/server/server.ts] starting proxyspec")));
    },
  );
});
