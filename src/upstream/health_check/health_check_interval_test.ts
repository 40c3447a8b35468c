import assert from "node:assert/strict";
import { Store } from "../../stats/store.ts";
import { HealthChecker } from "./health_checker.ts";
import { healthCheckConfig } from "./health_check_config.ts";
import { compileStringMatcher } from "../../config/string_matcher.ts";
import { judgeResponse } from "./http_health_checker.ts";
import { testCluster } from "../test_cluster.ts";
import type { HttpCheckerConfig } from "./health_check_config.ts";

function checker(json: Record<string, unknown>, traffic: boolean, random = () => 0) {
  const c = healthCheckConfig({
    timeout: "1s",
    interval: "10s",
    unhealthy_threshold: 2,
    healthy_threshold: 2,
    tcp_health_check: {},
    ...json,
  } as never);
  return new HealthChecker(
    { name: "c", effective: testCluster("c", []), hadTraffic: () => traffic, healthChanged() {} },
    c,
    new Store().scope("cluster").scope("c"),
    { random },
  );
}

Deno.test("cluster.objects.core.health-check.interval cluster.objects.core.health-check.unhealthy-interval cluster.objects.core.health-check.no-traffic-interval: the next check waits as Envoy chooses", () => {
  const hc = checker({
    unhealthy_interval: "20s",
    unhealthy_edge_interval: "3s",
    healthy_edge_interval: "4s",
    no_traffic_interval: "60s",
    no_traffic_healthy_interval: "90s",
  }, true);
  assert.equal(hc.interval(true, "Unchanged"), 10_000);
  assert.equal(hc.interval(true, "Changed"), 10_000);
  assert.equal(hc.interval(true, "ChangePending"), 4_000);
  assert.equal(hc.interval(false, "Unchanged"), 20_000);
  assert.equal(hc.interval(false, "ChangePending"), 3_000);
  const idle = checker({ no_traffic_interval: "60s", no_traffic_healthy_interval: "90s" }, false);
  assert.equal(idle.interval(true, "Unchanged"), 60_000); // no host given: as if unhealthy
  hc.close();
  idle.close();
});

Deno.test("cluster.objects.core.health-check.interval-jitter cluster.objects.core.health-check.interval-jitter-percent: jitter adds a random share of both", () => {
  const hc = checker({ interval_jitter: "1s", interval_jitter_percent: 10 }, true, () => 999_999);
  // 10% of 10 s = 1000 ms: + 999_999 % 1000; interval_jitter 1000 ms: + 999_999 % 1000.
  assert.equal(hc.interval(true, "Unchanged"), 10_000 + 999 + 999);
  hc.close();
});

Deno.test("cluster.objects.core.health-check.http-health-check.service-name-matcher: the checked cluster header must match; each check counts verify_cluster", () => {
  const c = healthCheckConfig({
    timeout: "1s",
    interval: "1s",
    unhealthy_threshold: 1,
    healthy_threshold: 1,
    http_health_check: { path: "/", service_name_matcher: { prefix: "web" } },
  }).checker as HttpCheckerConfig;
  let n = 0;
  const counter = { name: "v", inc: () => n++, value: () => n } as never;
  assert.equal(
    judgeResponse(c, 200, [["x-envoy-upstream-healthchecked-cluster", "web-east"]], counter).ok,
    true,
  );
  assert.equal(
    judgeResponse(c, 200, [["x-proxy-upstream-healthchecked-cluster", "db"]], counter).ok,
    false,
  );
  assert.equal(judgeResponse(c, 200, [], counter).ok, false);
  assert.equal(n, 3);
  assert.equal(compileStringMatcher({ exact: "A", ignore_case: true }, "m", [])!("a"), true);
});
