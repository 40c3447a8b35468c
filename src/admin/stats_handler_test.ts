import assert from "node:assert/strict";
import fc from "fast-check";
import { Store } from "../stats/store.ts";
import { fakeStatsContext, fetchStats } from "./stats_test_context.ts";
import { STATS_HANDLERS } from "./stats_handler.ts";

function populated(): Store {
  const s = new Store();
  s.textReadout("cluster.web.control_plane_id").set("cp-1");
  s.counter("cluster.web.upstream_rq_200").inc(3);
  s.counter("cluster.web.upstream_rq_total");
  s.gauge("cluster.web.upstream_cx_active").set(2);
  s.counter("http.admin.downstream_rq_2xx").inc(1);
  s.histogram("cluster.web.upstream_rq_time").record(12);
  s.histogram("cluster.web.upstream_cx_length_ms");
  s.flush();
  return s;
}

Deno.test("admin.endpoints.stats: every stats path has a handler", () => {
  assert.deepEqual(Object.keys(STATS_HANDLERS).sort(), [
    "/reset_counters",
    "/stats",
    "/stats/prometheus",
    "/stats/recentlookups",
    "/stats/recentlookups/clear",
    "/stats/recentlookups/disable",
    "/stats/recentlookups/enable",
  ]);
});

Deno.test("admin.endpoints.stats: text answer", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  const [status, type, body] = await fetchStats(ctx, "/stats");
  assert.equal(status, 200);
  assert.equal(type, "text/plain; charset=UTF-8");
  assert.equal(
    body,
    'cluster.web.control_plane_id: "cp-1"\n' +
      "cluster.web.upstream_cx_active: 2\n" +
      "cluster.web.upstream_rq_200: 3\n" +
      "cluster.web.upstream_rq_total: 0\n" +
      "http.admin.downstream_rq_2xx: 1\n" +
      "cluster.web.upstream_cx_length_ms: No recorded values\n" +
      "cluster.web.upstream_rq_time: P0(12,12) P25(12,12) P50(12,12) P75(12,12) P90(12,12) P99(12,12) P99.9(12,12) P100(12,12)\n",
  );
});

Deno.test("admin.endpoints.stats-format-json: JSON answer", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  const [status, type, body] = await fetchStats(ctx, "/stats?format=json&usedonly&filter=rq_");
  assert.equal(status, 200);
  assert.equal(type, "application/json");
  const parsed = JSON.parse(body);
  assert.deepEqual(parsed.stats.slice(0, 2), [
    { name: "cluster.web.upstream_rq_200", value: 3 },
    { name: "http.admin.downstream_rq_2xx", value: 1 },
  ]);
  assert.equal(
    parsed.stats[2].histograms.computed_quantiles[0].name,
    "cluster.web.upstream_rq_time",
  );
  const [, , none] = await fetchStats(ctx, "/stats?format=json&filter=^nothing$");
  assert.equal(none, '{"stats":[]}');
});

Deno.test("admin.endpoints.stats-format-json-histogram_buckets-cumulative: JSON buckets", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  const [, , body] = await fetchStats(
    ctx,
    "/stats?format=json&histogram_buckets=cumulative&filter=rq_time",
  );
  const h = JSON.parse(body).stats[0].histograms[0];
  assert.equal(h.name, "cluster.web.upstream_rq_time");
  assert.equal(h.buckets.length, 19);
  assert.deepEqual(h.buckets[4], { upper_bound: 25, interval: 1, cumulative: 1 });
});

Deno.test("admin.endpoints.stats-prometheus: /stats/prometheus and format=prometheus agree", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  const [status, type, a] = await fetchStats(ctx, "/stats/prometheus?text_readouts");
  const [, , b] = await fetchStats(ctx, "/stats?format=prometheus&text_readouts");
  assert.equal(status, 200);
  assert.equal(type, "text/plain; charset=UTF-8");
  assert.equal(a, b);
  assert.match(
    a,
    /^proxy_cluster_control_plane_id\{proxy_cluster_name="web",text_value="cp-1"\} 0$/m,
  );
  assert.match(
    a,
    /^proxy_http_downstream_rq_xx\{proxy_response_code_class="2",proxy_http_conn_manager_prefix="admin"\} 1$/m,
  );
});

Deno.test("admin.endpoints.stats: bad format, buckets and filter answer 400", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  assert.deepEqual(await fetchStats(ctx, "/stats?format=blah"), [
    400,
    "text/plain; charset=UTF-8",
    "usage: /stats?format=(json|prometheus|text)\n\n",
  ]);
  const [s2, , b2] = await fetchStats(ctx, "/stats?histogram_buckets=x");
  assert.equal(s2, 400);
  assert.equal(b2, "usage: /stats?histogram_buckets=(cumulative|disjoint)\n\n");
  const [s3, , b3] = await fetchStats(ctx, "/stats/prometheus?filter=%28a");
  assert.equal(s3, 400);
  assert.match(b3, /^Invalid re2 regex: .*missing closing \)/);
});

Deno.test("admin.stats_shapes.filter-runtime-switch: runtime false selects ECMAScript", async () => {
  const ctx = fakeStatsContext({
    store: populated(),
    runtime: { "proxy.reloadable_features.admin_stats_filter_use_re2": "false" },
  });
  const [status, , body] = await fetchStats(ctx, "/stats?filter=(?<=upstream_)rq_200");
  assert.equal(status, 200);
  assert.equal(body, "cluster.web.upstream_rq_200: 3\n");
  const [bad, , msg] = await fetchStats(ctx, "/stats?filter=(a");
  assert.equal(bad, 400);
  assert.match(msg, /^Invalid regex: "/);
});

Deno.test("admin.stats_shapes.flush-interval: stats_flush_on_admin flushes before answering", async () => {
  const store = new Store();
  store.histogram("h").record(5);
  const lazy = fakeStatsContext({ store });
  assert.equal((await fetchStats(lazy, "/stats"))[2], "h: No recorded values\n");
  const eager = fakeStatsContext({ store, bootstrap: { stats_flush_on_admin: true } });
  assert.match((await fetchStats(eager, "/stats"))[2], /^h: P0\(5,5\)/);
});

Deno.test("admin.endpoints.reset_counters: zeroes counters only", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  assert.deepEqual(await fetchStats(ctx, "/reset_counters", "POST"), [
    200,
    "text/plain; charset=UTF-8",
    "OK\n",
  ]);
  const [, , body] = await fetchStats(ctx, "/stats?filter=web.upstream_(rq_200|cx_active)");
  assert.equal(body, "cluster.web.upstream_cx_active: 2\ncluster.web.upstream_rq_200: 0\n");
});

Deno.test("admin.states.recentlookups-enable: enable, look up, list", async () => {
  const ctx = fakeStatsContext();
  ctx.stats.counter("before");
  assert.equal(
    (await fetchStats(ctx, "/stats/recentlookups"))[2],
    "Lookup tracking is not enabled. Use /stats/recentlookups/enable to enable.\n\ntotal: 1\n",
  );
  assert.equal((await fetchStats(ctx, "/stats/recentlookups/enable", "POST"))[2], "OK\n");
  ctx.stats.counter("alpha");
  ctx.stats.counter("alpha");
  ctx.stats.gauge("beta");
  assert.equal(
    (await fetchStats(ctx, "/stats/recentlookups"))[2],
    "   Count Lookup\n       1 beta\n       2 alpha\n\ntotal: 4\n",
  );
});

Deno.test("admin.states.recentlookups-disable: disable clears names, keeps the total", async () => {
  const ctx = fakeStatsContext();
  await fetchStats(ctx, "/stats/recentlookups/enable", "POST");
  ctx.stats.counter("x");
  assert.equal((await fetchStats(ctx, "/stats/recentlookups/disable", "POST"))[2], "OK\n");
  assert.equal(ctx.stats.recentLookups.total, 1);
  assert.deepEqual(ctx.stats.recentLookups.entries(), []);
});

Deno.test("admin.states.recentlookups-clear: clear resets names and count", async () => {
  const ctx = fakeStatsContext();
  await fetchStats(ctx, "/stats/recentlookups/enable", "POST");
  ctx.stats.counter("x");
  assert.equal((await fetchStats(ctx, "/stats/recentlookups/clear", "POST"))[2], "OK\n");
  assert.equal((await fetchStats(ctx, "/stats/recentlookups"))[2], "   Count Lookup\n\ntotal: 0\n");
});

const statNames = fc.uniqueArray(
  fc.stringMatching(/^[a-z]{1,3}(\.[a-z0-9_]{1,4}){0,3}$/),
  { minLength: 1, maxLength: 30 },
);
const statsArb = fc.tuple(statNames, fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }));

function storeOf([names, used]: [string[], boolean[]]): Store {
  const s = new Store();
  names.forEach((n, i) => {
    if (i % 3 === 2) {
      const h = s.histogram(n);
      if (used[i]) h.record(i);
    } else if (i % 3 === 1) {
      const g = s.gauge(n);
      if (used[i]) g.set(i);
    } else {
      const c = s.counter(n);
      if (used[i]) c.inc(i + 1);
    }
  });
  s.flush();
  return s;
}

const lines = (body: string) => body.split("\n").filter((l) => l !== "");

Deno.test("admin.endpoints.stats-usedonly: usedonly output is a subset of the full output", async () => {
  await fc.assert(
    fc.asyncProperty(statsArb, fc.constantFrom("", "&format=json", "&format=prometheus"), async (
      st,
      fmt,
    ) => {
      const ctx = fakeStatsContext({ store: storeOf(st) });
      const full = lines((await fetchStats(ctx, `/stats?x${fmt}`))[2]);
      const used = lines((await fetchStats(ctx, `/stats?usedonly${fmt}`))[2]);
      if (fmt === "&format=json") {
        const all = JSON.stringify(JSON.parse(full[0]).stats);
        for (const e of JSON.parse(used[0]).stats) {
          if (!("histograms" in e)) assert.ok(all.includes(JSON.stringify(e)));
        }
      } else {
        const set = new Set(full);
        for (const l of used) assert.ok(set.has(l), `${l} missing from the full output`);
      }
    }),
    { numRuns: 40 },
  );
});

Deno.test("admin.endpoints.stats-filter: filter output equals the full output filtered", async () => {
  await fc.assert(
    fc.asyncProperty(statsArb, fc.stringMatching(/^\^?[a-z0-9_.]{0,3}\$?$/), async (st, pat) => {
      const ctx = fakeStatsContext({ store: storeOf(st) });
      const re = new RegExp(pat);
      const full = lines((await fetchStats(ctx, "/stats"))[2]);
      const expected = full.filter((l) => re.test(l.slice(0, l.indexOf(": "))));
      const got = lines((await fetchStats(ctx, `/stats?filter=${encodeURIComponent(pat)}`))[2]);
      assert.deepEqual(got, expected);
    }),
    { numRuns: 60 },
  );
});

const promtool = (() => {
  try {
    return new Deno.Command("promtool", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();
if (!promtool) {
  console.warn("SKIP promtool test: promtool is not on PATH (apt-get install prometheus)");
}

Deno.test({
  name: "admin.stats_shapes.prometheus-format: promtool check metrics accepts /stats/prometheus",
  ignore: !promtool,
  async fn() {
    const store = populated();
    store.counter("vulture.eats-liver").inc();
    store.counter("x.y").inc();
    store.gauge("x_y").set(1);
    store.textReadout("odd").set('quote " backslash \\ newline \n end');
    store.counter("listener.0.0.0.0_80.http.ingress.downstream_rq_5xx").inc(2);
    for (const v of [0, 0.3, 7, 4e6]) store.histogram("cluster.web.upstream_rq_time").record(v);
    store.flush();
    const [status, , body] = await fetchStats(
      fakeStatsContext({ store }),
      "/stats/prometheus?text_readouts",
    );
    assert.equal(status, 200);
    const child = new Deno.Command("promtool", {
      args: ["check", "metrics"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(body));
    await writer.close();
    const out = await child.output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.ok(!text.includes("error while linting"), text);
    // Exit 3 means lint notes only (e.g. counters without `_total`), which are tolerated.
    assert.ok(out.code === 0 || out.code === 3, `promtool exit ${out.code}: ${text}`);
    for (const line of text.split("\n").filter((l) => l !== "")) {
      assert.match(line, /should have "_total" suffix|should not|base unit|snake_case/, line);
    }
  },
});

Deno.test("admin.stats_shapes.filter-runtime-switch: a backtracking ECMAScript filter is a 400 at its deadline, the thread stays free", async () => {
  const store = populated();
  store.counter("x".repeat(40));
  const ctx = fakeStatsContext({
    store,
    runtime: { "proxy.reloadable_features.admin_stats_filter_use_re2": "false" },
  });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const [status, , body] = await fetchStats(ctx, "/stats?filter=%5E(%5Cw%7C%5Cw)*Z%24");
  clearInterval(timer);
  assert.equal(status, 400);
  assert.match(body, /did not finish within \d+ ms/);
  assert.ok(ticks > 0);
});

Deno.test("admin.stats_shapes.filter-linear-engine: a filter over the length limit is a 400 naming the limit", async () => {
  const ctx = fakeStatsContext({ store: populated() });
  const [status, , body] = await fetchStats(ctx, `/stats?filter=${"a".repeat(20_000)}`);
  assert.equal(status, 400);
  assert.match(body, /the limit is 1024/);
});
