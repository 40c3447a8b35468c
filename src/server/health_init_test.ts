/**
 * Start-up waits for the first round of active health checks of each cluster, and `/init_dump`
 * (the server's init manager) names the cluster while it waits.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parseArgs } from "../config/args.ts";
import { createLogging } from "./logger.ts";
import { startServer } from "./server.ts";
import type { InitManager } from "./init_manager.ts";

Deno.test("cluster.fields.health-checks admin.endpoints.init_dump: the server waits for the first health checks; /init_dump names the cluster meanwhile", async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => release = r);
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await gate;
    return new Response("ok");
  });
  const options = parseArgs(["--config-yaml", "{}"]);
  const logging = createLogging(options, {
    sink: { write() {}, reopen: () => Promise.resolve(), close() {} },
  });
  const holder: { init: InitManager | null } = { init: null };
  const dump = () => JSON.stringify(holder.init?.dump() ?? null);
  const starting = startServer(options, {
    static_resources: {
      clusters: [{
        name: "checked",
        connect_timeout: "1s",
        health_checks: [{
          timeout: "10s",
          interval: "1s",
          unhealthy_threshold: 1,
          healthy_threshold: 1,
          http_health_check: { path: "/healthz" },
        }],
        load_assignment: {
          cluster_name: "checked",
          endpoints: [{
            lb_endpoints: [{
              endpoint: {
                address: { socket_address: { address: "127.0.0.1", port_value: o.addr.port } },
              },
            }],
          }],
        },
      }],
    },
  }, { signals: false, logging, onInit: (m) => holder.init = m });
  for (
    let i = 0;
    i < 500 && dump().indexOf("cluster checked") < 0;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.match(dump(), /cluster checked/);
  release();
  const running = await starting;
  try {
    assert.equal(running.context.state(), "LIVE");
    assert.doesNotMatch(dump(), /cluster checked/);
  } finally {
    await running.shutdown();
    await running.finished;
  }
  await o.shutdown();
});
