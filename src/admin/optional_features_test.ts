import assert from "node:assert/strict";
import { call, testCluster, testContext } from "./testing_context.ts";
import { hystrixFlush, hystrixStreamCount } from "./hystrix_handler.ts";
import { publishTap } from "./tap_handler.ts";

Deno.test("admin.endpoints.contention: with mutex tracing, MutexStats with every field", async () => {
  const ctx = testContext({ features: ["mutex_tracing"] });
  const res = await call(ctx, "GET", "/contention");
  assert.equal(res.headers.get("content-type"), "application/json");
  assert.deepEqual(await res.json(), {
    num_contentions: "0",
    current_wait_cycles: "0",
    lifetime_wait_cycles: "0",
  });
});

Deno.test("admin.endpoints.hystrix_event_stream, events.hystrix-only-stream: one HystrixCommand and one HystrixThreadPool event per cluster per flush", async () => {
  const ctx = testContext({ features: ["dashboard_sink"], clusters: [testCluster("web", [])] });
  const res = await call(ctx, "GET", "/hystrix_event_stream");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  assert.equal(res.headers.get("cache-control"), "no-cache");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(hystrixStreamCount(ctx), 1);
  ctx.stats.counter("cluster.web.upstream_rq_total").inc(10);
  ctx.stats.counter("cluster.web.upstream_rq_5xx").inc(2);
  ctx.stats.counter("cluster.web.upstream_rq_pending_overflow").inc(1);
  for (const v of [10, 20, 30, 40]) ctx.stats.histogram("cluster.web.upstream_rq_time").record(v);
  ctx.stats.flush();
  hystrixFlush(ctx, 5000);
  const reader = res.body!.getReader();
  let text = "";
  while (!text.includes(":\n\ndata") || !text.endsWith("\n\n:\n\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  const events = text.split("\n\n").filter((e) => e.startsWith("data: ")).map((e) =>
    JSON.parse(e.slice(6))
  );
  assert.equal(events.length, 2);
  const [cmd, pool] = events;
  assert.equal(cmd.type, "HystrixCommand");
  assert.equal(cmd.name, "web");
  assert.equal(cmd.requestCount, 10);
  assert.equal(cmd.rollingCountThreadPoolRejected, 1);
  assert.equal(cmd.errorCount, 3);
  assert.equal(cmd.errorPercentage, 30);
  assert.equal(cmd.rollingCountShortCircuited, 0);
  assert.equal(cmd.propertyValue_circuitBreakerForceClosed, true);
  assert.equal(cmd.isCircuitBreakerOpen, false);
  assert.equal(cmd.latencyExecute_mean, "null");
  assert.equal(cmd.latencyExecute["0"], 10);
  assert.equal(cmd.latencyExecute["100"], 40);
  assert.equal(cmd.propertyValue_metricsRollingStatisticalWindowInMilliseconds, 5000);
  assert.equal(pool.type, "HystrixThreadPool");
  assert.equal(hystrixStreamCount(ctx), 0);
});

const TAP_BOOTSTRAP = {
  static_resources: {
    listeners: [{
      name: "l",
      filter_chains: [{
        filters: [{
          name: "proxy.filters.network.http_connection_manager",
          typed_config: {
            http_filters: [{
              name: "proxy.filters.http.tap",
              typed_config: { common_config: { admin_config: { config_id: "tap1" } } },
            }],
          },
        }],
      }],
    }],
  },
};

const GOOD = JSON.stringify({
  config_id: "tap1",
  tap_config: { match: { any_match: true }, output_config: { sinks: [{ streaming_admin: {} }] } },
});

Deno.test("admin.endpoints.tap: error cases as Envoy words them", async () => {
  const ctx = testContext({ features: ["tap"], bootstrap: TAP_BOOTSTRAP });
  const empty = await call(ctx, "POST", "/tap");
  assert.equal(empty.status, 400);
  assert.equal(await empty.text(), "/tap requires a JSON/YAML body");
  const unknown = await call(ctx, "POST", "/tap", { body: GOOD.replace("tap1", "nope") });
  assert.equal(unknown.status, 400);
  assert.equal(
    await unknown.text(),
    "Unknown config id 'nope'. No extension has registered with this id.",
  );
  const invalid = await call(ctx, "POST", "/tap", { body: "config_id: tap1\ntap_config: {}\n" });
  assert.equal(invalid.status, 400);
  assert.match(await invalid.text(), /^TapRequest\.tap_config\.match/);
  const garbage = await call(ctx, "POST", "/tap", { body: "{ not: [valid" });
  assert.equal(garbage.status, 400);
  await garbage.body?.cancel();
});

Deno.test("admin.endpoints.tap: a valid request streams traces; a second stream is refused", async () => {
  const ctx = testContext({ features: ["tap"], bootstrap: TAP_BOOTSTRAP });
  const res = await call(ctx, "POST", "/tap", { body: GOOD });
  assert.equal(res.status, 200);
  const second = await call(ctx, "POST", "/tap", { body: GOOD });
  assert.equal(second.status, 400);
  assert.equal(await second.text(), "An attached /tap admin stream already exists. Detach it.");
  assert.ok(publishTap(ctx, "tap1", { http_buffered_trace: { request: { headers: [] } } }));
  assert.ok(!publishTap(ctx, "other", {}));
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  assert.deepEqual(JSON.parse(new TextDecoder().decode(value)), {
    http_buffered_trace: { request: { headers: [] } },
  });
  await reader.cancel();
  assert.ok(!publishTap(ctx, "tap1", {}));
});
