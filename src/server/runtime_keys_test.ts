/**
 * Settings that name a `runtime_key` read the server's layered runtime at decision time, so a
 * value written to the admin layer (what `POST /runtime_modify` does) changes the next request:
 * local rate limit and CORS `filter_enabled` / `filter_enforced`, access log comparison filters
 * and the access log `runtime_filter`. Through real sockets, in a running server.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseArgs } from "../config/args.ts";
import { createLogging } from "./logger.ts";
import { type RunningServer, startServer } from "./server.ts";
import type { ListenerManager } from "../listener/listener_manager.ts";
import type { LayeredRuntime } from "./runtime.ts";

const HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3." +
  "HttpConnectionManager";

function origin() {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("up"));
}

async function withServer(
  hcm: JsonObject,
  originPort: number,
  fn: (port: number, rt: LayeredRuntime, s: RunningServer) => Promise<void>,
) {
  const options = parseArgs(["--config-yaml", "{}"]);
  const logging = createLogging(options, {
    sink: { write() {}, reopen: () => Promise.resolve(), close() {} },
  });
  const running = await startServer(options, {
    layered_runtime: {
      layers: [
        { name: "static", static_layer: { "al.min": 500 } },
        { name: "admin", admin_layer: {} },
      ],
    },
    static_resources: {
      clusters: [{
        name: "web",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "web",
          endpoints: [{
            lb_endpoints: [{
              endpoint: {
                address: { socket_address: { address: "127.0.0.1", port_value: originPort } },
              },
            }],
          }],
        },
      }],
      listeners: [{
        name: "l",
        address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.http_connection_manager",
            typed_config: { "@type": HCM, stat_prefix: "t", ...hcm },
          }],
        }],
      }],
    },
  }, { signals: false, logging });
  try {
    const port = running.context.listeners.listeners()[0]?.port;
    assert.ok(port);
    await fn(port, running.context.runtime as LayeredRuntime, running);
  } finally {
    await running.shutdown();
    await running.finished;
  }
}

async function status(url: string, init?: RequestInit): Promise<[number, string]> {
  const r = await fetch(url, init);
  return [r.status, await r.text()];
}

const allRoutes = (extra: JsonObject = {}) => ({
  virtual_hosts: [{
    name: "all",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "web", ...extra } }],
  }],
});

Deno.test("admin.states.runtime-modify: local_ratelimit filter_enabled and filter_enforced follow their runtime keys per request", async () => {
  const o = origin();
  const hcm: JsonObject = {
    route_config: allRoutes(),
    http_filters: [{
      name: "envoy.filters.http.local_ratelimit",
      typed_config: {
        "@type":
          "type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit",
        stat_prefix: "rl",
        token_bucket: { max_tokens: 1, tokens_per_fill: 1, fill_interval: "3600s" },
        filter_enabled: { runtime_key: "rl.on", default_value: { numerator: 0 } },
        filter_enforced: { runtime_key: "rl.enforce", default_value: { numerator: 100 } },
      },
    }, { name: "envoy.filters.http.router" }],
  };
  await withServer(hcm, o.addr.port, async (port, rt) => {
    const url = `http://127.0.0.1:${port}/`;
    // Disabled by default: no token is taken.
    assert.deepEqual(await status(url), [200, "up"]);
    assert.deepEqual(await status(url), [200, "up"]);
    rt.modify([["rl.on", "100"]]);
    assert.deepEqual(await status(url), [200, "up"]);
    assert.equal((await status(url))[0], 429);
    rt.modify([["rl.enforce", "0"]]);
    assert.deepEqual(await status(url), [200, "up"]);
    // Removing the override brings the default back.
    rt.modify([["rl.enforce", ""]]);
    assert.equal((await status(url))[0], 429);
  });
  await o.shutdown();
});

Deno.test("admin.states.runtime-modify: a CORS policy's filter_enabled runtime key switches preflight handling", async () => {
  const o = origin();
  const cors = {
    allow_origin_string_match: [{ exact: "https://a.example" }],
    allow_methods: "GET",
    filter_enabled: { runtime_key: "cors.on", default_value: { numerator: 100 } },
  };
  const hcm: JsonObject = {
    route_config: allRoutes({ cors }),
    http_filters: [{ name: "envoy.filters.http.cors" }, { name: "envoy.filters.http.router" }],
  };
  await withServer(hcm, o.addr.port, async (port, rt) => {
    const pre = () =>
      fetch(`http://127.0.0.1:${port}/`, {
        method: "OPTIONS",
        headers: { origin: "https://a.example", "access-control-request-method": "GET" },
      });
    let r = await pre();
    assert.equal(await r.text(), "");
    assert.equal(r.headers.get("access-control-allow-origin"), "https://a.example");
    rt.modify([["cors.on", "0"]]);
    r = await pre();
    // Not enforced: the preflight reaches the origin.
    assert.equal(await r.text(), "up");
    assert.equal(r.headers.get("access-control-allow-origin"), null);
  });
  await o.shutdown();
});

Deno.test("admin.states.runtime-modify: access log comparison and runtime_filter keys decide which lines are written", async () => {
  const o = origin();
  const dir = await Deno.makeTempDir();
  const log = (path: string, filter: JsonObject) => ({
    name: "envoy.access_loggers.file",
    filter,
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
      path,
      log_format: { text_format_source: { inline_string: "%REQ(:PATH)%\n" } },
    },
  });
  const hcm: JsonObject = {
    route_config: allRoutes(),
    http_filters: [{ name: "envoy.filters.http.router" }],
    access_log: [
      log(`${dir}/cmp.log`, {
        status_code_filter: {
          comparison: { op: "GE", value: { runtime_key: "al.min", default_value: 100 } },
        },
      }),
      log(`${dir}/rt.log`, {
        runtime_filter: {
          runtime_key: "al.sample",
          percent_sampled: { numerator: 0, denominator: "HUNDRED" },
          use_independent_randomness: true,
        },
      }),
    ],
  };
  await withServer(hcm, o.addr.port, async (port, rt, s) => {
    const get = async (p: string) => (await status(`http://127.0.0.1:${port}${p}`))[0];
    // The static layer's al.min (500) replaces the configured 100; al.sample is unset (0 %).
    assert.equal(await get("/a"), 200);
    rt.modify([["al.min", "200"], ["al.sample", "100"]]);
    assert.equal(await get("/b"), 200);
    rt.modify([["al.sample", "0"]]);
    assert.equal(await get("/c"), 200);
    (s.context.listeners as ListenerManager).flushAccessLogs();
    assert.equal(await Deno.readTextFile(`${dir}/cmp.log`), "/b\n/c\n");
    assert.equal(await Deno.readTextFile(`${dir}/rt.log`), "/b\n");
  });
  await o.shutdown();
  await Deno.remove(dir, { recursive: true });
});
