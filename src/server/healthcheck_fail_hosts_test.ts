import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  startProxyProcess,
  waitFor,
} from "./testing_proxy_process.ts";

async function get(url: string, init?: RequestInit): Promise<[number, string]> {
  const r = await fetch(url, init);
  return [r.status, await r.text()];
}

Deno.test("admin.states.healthcheck-fail cluster.fields.health-checks: /healthcheck/fail fails the proxy's own inbound checks only; upstream hosts keep their own health, and a failing host does not fail the inbound checks", async () => {
  let healthy = true;
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/health"
        ? new Response(null, { status: healthy ? 200 : 503 })
        : new Response("origin\n"),
  );
  const bootstrap = proxyBootstrap(o.addr.port, {
    common_lb_config: { healthy_panic_threshold: { value: 0 }, update_merge_window: "0s" },
    health_checks: [{
      timeout: "1s",
      interval: "0.1s",
      no_traffic_interval: "0.1s",
      unhealthy_threshold: 1,
      healthy_threshold: 1,
      http_health_check: { path: "/health" },
    }],
  }) as {
    static_resources: {
      listeners: { filter_chains: { filters: { typed_config: Record<string, unknown> }[] }[] }[];
    };
  };
  bootstrap.static_resources.listeners[0].filter_chains[0].filters[0].typed_config.http_filters = [
    {
      name: "envoy.filters.http.health_check",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.filters.http.health_check.v3.HealthCheck",
        pass_through_mode: false,
        headers: [{ name: ":path", string_match: { exact: "/healthz" } }],
      },
    },
    { name: "envoy.filters.http.router" },
  ];
  const p = await startProxyProcess(bootstrap, ["--concurrency", "1"]);
  try {
    const base = `http://127.0.0.1:${await listenerPort(p.admin)}`;
    const hostFailed = async () =>
      /demo::127\.0\.0\.1:\d+::health_flags::\/failed_active_hc/.test(
        await (await fetch(`${p.admin}/clusters`)).text(),
      );
    await waitFor(async () => (await get(`${base}/`))[0] === 200 || undefined, 20_000, "traffic");
    // The proxy fails its own checks; its upstream host stays healthy and keeps serving.
    assert.equal((await get(`${p.admin}/healthcheck/fail`, { method: "POST" }))[0], 200);
    assert.equal((await get(`${base}/healthz`))[0], 503);
    assert.deepEqual(await get(`${base}/`), [200, "origin\n"]);
    assert.equal(await hostFailed(), false);
    // The upstream host fails its checks; the proxy's own checks follow /healthcheck/ok only.
    assert.equal((await get(`${p.admin}/healthcheck/ok`, { method: "POST" }))[0], 200);
    healthy = false;
    await waitFor(async () => (await hostFailed()) || undefined, 20_000, "the host to fail");
    assert.equal((await get(`${base}/healthz`))[0], 200);
    assert.equal((await get(`${base}/`))[0], 503);
  } finally {
    await p.stop();
    await o.shutdown();
  }
});
