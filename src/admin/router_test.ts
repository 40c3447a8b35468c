import assert from "node:assert/strict";
import fc from "fast-check";
import { ENDPOINTS } from "../../spec/admin/endpoints.ts";
import { indexEndpoints } from "./endpoint_index.ts";
import { call, testContext, testListener } from "./testing_context.ts";
import { stopProfilers } from "./profiling_handler.ts";
import type { ServerContext } from "../server/context.ts";

const index = indexEndpoints(ENDPOINTS);
const mutatingPaths = [...index.values()].filter((e) => e.mutating).map((e) => e.path);
const allPaths = [...index.keys()];
const profileDir = Deno.makeTempDirSync({ prefix: "proxyspec_router_test_" });

function ctxWithEverything() {
  return testContext({
    bootstrap: {
      admin: { profile_path: `${profileDir}/p.prof` },
      layered_runtime: {
        layers: [{ name: "s", static_layer: { k: "v" } }, { name: "admin", admin_layer: {} }],
      },
    },
    listeners: [testListener("in", 10000, "INBOUND"), testListener("out", 10001, "OUTBOUND")],
    features: [
      "cpu_profiler",
      "heap_profiler",
      "health_check_filter",
      "mutex_tracing",
      "tap",
      "dashboard_sink",
    ],
  });
}

/** Bodies that reflect state; request accounting (`http.admin.*`, lookup counts) is left out. */
async function snapshot(ctx: ServerContext): Promise<string> {
  const stats = (await (await call(ctx, "GET", "/stats")).text()).split("\n")
    .filter((l) => !l.startsWith("http.admin.") && !l.startsWith("server.stats_recent_lookups"))
    .join("\n");
  const runtime = await (await call(ctx, "GET", "/runtime")).text();
  const logging = await (await call(ctx, "POST", "/logging")).text();
  const listeners = JSON.stringify(ctx.listeners.listeners().map((l) => l.stopped));
  return `${stats}\n${runtime}\n${logging}\n${ctx.healthCheckFailed}\n${listeners}`;
}

Deno.test("admin.mutation.get-returns-400, errors.get-on-mutating-path: GET on every mutating path answers 400 and the handler does not run", async () => {
  assert.ok(mutatingPaths.includes("/quitquitquit"));
  const ctx = ctxWithEverything();
  for (const path of mutatingPaths) {
    const res = await call(ctx, "GET", path);
    assert.equal(res.status, 400, path);
    assert.equal(await res.text(), "Method GET not allowed, POST required.");
  }
  assert.equal((ctx as { shutdowns: number }).shutdowns, 0);
  assert.ok(
    ctx.logLines.some((l) => l.includes('admin path "/quitquitquit" mutates state, method=GET')),
  );
});

Deno.test("admin.mutation.post-only: property: any non-POST method on any mutating path answers 400 and changes nothing", async () => {
  const ctx = ctxWithEverything();
  const before = await snapshot(ctx);
  const method = fc.oneof(
    fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"),
    fc.stringMatching(/^[A-Z]{1,8}$/),
  ).filter((m) => !["POST", "CONNECT", "TRACE", "TRACK"].includes(m));
  const query = fc.constantFrom(
    "",
    "?level=off",
    "?a=b",
    "?enable=y",
    "?inboundonly",
    "?k=changed",
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...mutatingPaths), method, query, async (path, m, q) => {
      const res = await call(ctx, m, path + q);
      await res.body?.cancel();
      assert.equal(res.status, 400, `${m} ${path}${q}`);
    }),
    { numRuns: 150 },
  );
  assert.equal(await snapshot(ctx), before);
  assert.equal((ctx as { shutdowns: number }).shutdowns, 0);
});

Deno.test("admin.general.read-only-any-method: non-mutating paths run for any method", async () => {
  const ctx = ctxWithEverything();
  for (const m of ["GET", "POST", "PUT", "DELETE"]) {
    const res = await call(ctx, m, "/ready");
    assert.equal(res.status, 200, m);
    assert.equal(await res.text(), "LIVE\n");
  }
});

Deno.test("admin.general.unknown-path-404, admin.general.exact-path-match: unknown and near-miss paths answer 404 with the help text", async () => {
  const ctx = ctxWithEverything();
  for (const p of ["/nope", "/stats/", "/statsfoo", "/ready/", "/READY", "/stats/prometheus/"]) {
    const res = await call(ctx, "GET", p);
    assert.equal(res.status, 404, p);
    assert.equal(res.headers.get("content-type"), "text/plain; charset=UTF-8");
    const body = await res.text();
    assert.ok(body.startsWith("invalid path. admin commands are:\n"), body.slice(0, 60));
    assert.ok(body.includes("  /ready: "));
  }
});

Deno.test("admin.general.default-content-type, admin.general.cache-control, admin.general.nosniff: every answer carries the fallback headers", async () => {
  const ctx = ctxWithEverything();
  for (
    const [m, p] of [["GET", "/ready"], ["GET", "/nope"], ["GET", "/quitquitquit"], [
      "GET",
      "/server_info",
    ]]
  ) {
    const res = await call(ctx, m, p);
    await res.body?.cancel();
    assert.equal(res.headers.get("cache-control"), "no-cache, max-age=0", p);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", p);
    assert.ok(res.headers.get("content-type"), p);
  }
  assert.equal(
    (await call(ctx, "GET", "/ready")).headers.get("content-type"),
    "text/plain; charset=UTF-8",
  );
});

Deno.test("errors.optional-feature-absent: absent features answer as Envoy does", async () => {
  const ctx = testContext({ features: [] });
  const contention = await call(ctx, "GET", "/contention");
  assert.equal(contention.status, 200);
  assert.match(await contention.text(), /--enable-mutex-tracing/);
  const cpu = await call(ctx, "POST", "/cpuprofiler?enable=y");
  assert.equal(cpu.status, 500);
  assert.equal(await cpu.text(), "failure to start the profiler");
  const heap = await call(ctx, "POST", "/heapprofiler?enable=y");
  assert.equal(heap.status, 501);
  await heap.body?.cancel();
  for (const p of ["/hystrix_event_stream", "/tap"]) {
    const res = await call(ctx, p === "/tap" ? "POST" : "GET", p);
    assert.equal(res.status, 404, p);
    assert.ok((await res.text()).startsWith("invalid path. "));
  }
  const help = await (await call(ctx, "GET", "/help")).text();
  assert.ok(!help.includes("/tap:") && !help.includes("/hystrix_event_stream:"));
  // /healthcheck/* run without the filter, as in Envoy.
  assert.equal((await call(ctx, "POST", "/healthcheck/fail")).status, 200);
  assert.equal(ctx.healthCheckFailed, true);
});

Deno.test("admin.general.query-parameters-only: property: random query strings on every path never answer 5xx", async () => {
  const ctx = ctxWithEverything();
  const key = fc.oneof(
    fc.constantFrom(...new Set([...index.values()].flatMap((e) => e.params.map((p) => p.name)))),
    fc.string({ maxLength: 6 }),
  );
  const value = fc.oneof(
    fc.constantFrom(
      "",
      "json",
      "text",
      "y",
      "n",
      "[",
      "(",
      "a.b",
      "static_clusters",
      "off",
      "debug",
      "x:y",
    ),
    fc.string({ maxLength: 8 }),
  );
  const query = fc.array(fc.tuple(key, value), { maxLength: 4 }).map((kv) =>
    kv.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")
  );
  const safe = allPaths.filter((p) => p !== "/quitquitquit");
  try {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...safe), query, async (path, q) => {
        const method = index.get(path)!.mutating ? "POST" : "GET";
        const res = await call(ctx, method, `${path}?${q}`);
        await res.body?.cancel();
        // /ready answers 503 by design once a random /healthcheck/fail ran.
        const ok = res.status < 500 || (path === "/ready" && res.status === 503);
        assert.ok(ok, `${method} ${path}?${q} answered ${res.status}`);
      }),
      { numRuns: 300 },
    );
  } finally {
    await stopProfilers(ctx);
  }
});

Deno.test("admin.general.query-parameters-only: form bodies give the parameters when the URL has none", async () => {
  const ctx = ctxWithEverything();
  const res = await call(ctx, "POST", "/runtime_modify", {
    body: "foo=bar&foo1=bar+1",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "OK\n");
  assert.equal(ctx.runtime.get("foo"), "bar");
  assert.equal(ctx.runtime.get("foo1"), "bar 1");
});
