import assert from "node:assert/strict";
import { call, testCluster, testContext, testHost } from "./testing_context.ts";
import { healthFlags } from "./clusters_handler.ts";

function ctx() {
  const h1 = testHost("10.0.0.1", 80, {
    hostname: "a.example",
    weight: 5,
    zone: "z1",
    successRate: () => 43.2,
  });
  h1.stats.rq_total.inc(7);
  h1.stats.cx_active.set(2);
  const h2 = testHost("::1", 81, {
    health: { failed_active_hc: true, failed_eds_health: true, failed_outlier_check: true },
  });
  const c = testCluster("web", [h1, h2]);
  (c as { thresholds: unknown }).thresholds = [
    {
      priority: "DEFAULT",
      max_connections: 1,
      max_pending_requests: 1024,
      max_requests: 1024,
      max_retries: 1,
    },
    {
      priority: "HIGH",
      max_connections: 2,
      max_pending_requests: 1024,
      max_requests: 1024,
      max_retries: 3,
    },
  ];
  return testContext({ clusters: [c] });
}

Deno.test("admin.endpoints.clusters, admin.resources.clusters.version_info-static, admin.resources.host-stat.cx_total, admin.resources.host-stat.weight, admin.resources.host-stat.zone, admin.resources.host-stat.canary, admin.resources.host-stat.success_rate: text output", async () => {
  const res = await call(ctx(), "GET", "/clusters");
  assert.equal(res.headers.get("content-type"), "text/plain; charset=UTF-8");
  const lines = (await res.text()).split("\n");
  assert.equal(lines[0], "version_info::static");
  assert.deepEqual(lines.slice(1, 10), [
    "web::default_priority::max_connections::1",
    "web::default_priority::max_pending_requests::1024",
    "web::default_priority::max_requests::1024",
    "web::default_priority::max_retries::1",
    "web::high_priority::max_connections::2",
    "web::high_priority::max_pending_requests::1024",
    "web::high_priority::max_requests::1024",
    "web::high_priority::max_retries::3",
    "web::added_via_api::false",
  ]);
  assert.deepEqual(lines.slice(10, 29), [
    "web::10.0.0.1:80::cx_active::2",
    "web::10.0.0.1:80::cx_connect_fail::0",
    "web::10.0.0.1:80::cx_total::0",
    "web::10.0.0.1:80::rq_active::0",
    "web::10.0.0.1:80::rq_error::0",
    "web::10.0.0.1:80::rq_success::0",
    "web::10.0.0.1:80::rq_timeout::0",
    "web::10.0.0.1:80::rq_total::7",
    "web::10.0.0.1:80::hostname::a.example",
    "web::10.0.0.1:80::healthy::healthy",
    "web::10.0.0.1:80::health_flags::healthy",
    "web::10.0.0.1:80::weight::5",
    "web::10.0.0.1:80::region::",
    "web::10.0.0.1:80::zone::z1",
    "web::10.0.0.1:80::sub_zone::",
    "web::10.0.0.1:80::canary::false",
    "web::10.0.0.1:80::priority::0",
    "web::10.0.0.1:80::success_rate::43.2",
    "web::10.0.0.1:80::local_origin_success_rate::-1",
  ]);
  assert.ok(lines.includes("web::[::1]:81::success_rate::-1"));
  const od = testContext({ clusters: [testCluster("od", [], { outlier_detection: {} })] });
  const odLines = (await (await call(od, "GET", "/clusters")).text()).split("\n");
  // No outlier detector runs in this build: no fixed outlier lines, even for a cluster whose
  // configuration names one.
  assert.ok(!odLines.some((l) => l.includes("::outlier::")), odLines.join("\n"));
  assert.equal(odLines[1], "od::default_priority::max_connections::1024");
});

Deno.test("admin.resources.health.healthy, admin.resources.health.failed_active_hc, admin.resources.health.failed_eds_health, admin.resources.health.failed_outlier_check, admin.resources.health.concatenated: health strings in Envoy's order", () => {
  const h = testHost("1.1.1.1", 1);
  assert.equal(healthFlags(h), "healthy");
  h.health.failed_eds_health = true;
  assert.equal(healthFlags(h), "/failed_eds_health");
  h.health.failed_active_hc = true;
  h.health.failed_outlier_check = true;
  assert.equal(healthFlags(h), "/failed_active_hc/failed_outlier_check/failed_eds_health");
});

Deno.test("admin.endpoints.clusters-format-json, admin.general.format-json-defaults-omitted, admin.general.thresholds-priority, admin.general.thresholds-fields: JSON output omits defaults", async () => {
  const res = await call(ctx(), "GET", "/clusters?format=json");
  assert.equal(res.headers.get("content-type"), "application/json");
  const body = await res.json();
  const c = body.cluster_statuses[0];
  assert.equal(c.name, "web");
  assert.ok(!("added_via_api" in c));
  assert.deepEqual(c.circuit_breakers.thresholds, [
    { max_connections: 1, max_pending_requests: 1024, max_requests: 1024, max_retries: 1 },
    {
      priority: "HIGH",
      max_connections: 2,
      max_pending_requests: 1024,
      max_requests: 1024,
      max_retries: 3,
    },
  ]);
  const h = c.host_statuses[0];
  assert.deepEqual(h.address, { socket_address: { address: "10.0.0.1", port_value: 80 } });
  assert.deepEqual(h.stats.find((s: { name: string }) => s.name === "rq_total"), {
    value: "7",
    name: "rq_total",
  });
  assert.deepEqual(h.stats.find((s: { name: string }) => s.name === "cx_active"), {
    type: "GAUGE",
    value: "2",
    name: "cx_active",
  });
  assert.deepEqual(h.stats.find((s: { name: string }) => s.name === "rq_error"), {
    name: "rq_error",
  });
  assert.deepEqual(h.success_rate, { value: 43.2 });
  assert.ok(!("success_rate" in c.host_statuses[1]));
  assert.equal(c.host_statuses[1].health_status.failed_active_health_check, true);
  assert.equal(c.host_statuses[1].health_status.eds_health_status, "UNHEALTHY");
});
