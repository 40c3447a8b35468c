import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy, type TestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

interface Seen {
  origin: string;
  method: string;
  path: string;
  headers: Record<string, string>;
}

function echoOrigin(name: string) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const u = new URL(r.url);
    await r.body?.cancel();
    const seen: Seen = {
      origin: name,
      method: r.method,
      path: u.pathname + u.search,
      headers: Object.fromEntries(r.headers),
    };
    return new Response(JSON.stringify(seen), {
      headers: {
        "content-type": "application/json",
        "keep-alive": "timeout=5",
        "x-hop": "1",
        connection: "x-hop",
      },
    });
  });
}

const routes: JsonObject = {
  name: "rc",
  virtual_hosts: [
    {
      name: "main",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/direct" },
          direct_response: { status: 418, body: { inline_string: "teapot" } },
        },
        { match: { prefix: "/old/" }, route: { cluster: "a", prefix_rewrite: "/new/" } },
        {
          match: { prefix: "/host" },
          route: { cluster: "a", host_rewrite_literal: "rewritten.test" },
        },
        { match: { prefix: "/v2host" }, route: { cluster: "a", host_rewrite: "v2.test" } },
        { match: { prefix: "/by-header" }, route: { cluster_header: "x-cluster" } },
        {
          match: { prefix: "/weighted" },
          route: {
            weighted_clusters: { clusters: [{ name: "a", weight: 0 }, { name: "b", weight: 100 }] },
          },
        },
        { match: { prefix: "/" }, route: { cluster: "a" } },
      ],
    },
    { name: "nothing", domains: ["empty.test"], routes: [] },
  ],
};

async function withProxy(
  fn: (p: TestProxy) => Promise<void>,
  extra: JsonObject = {},
  filters?: JsonObject[],
) {
  const a = echoOrigin("a");
  const b = echoOrigin("b");
  const p = await startTestProxy([httpListener(routes, extra, filters)], [
    testCluster("a", [["127.0.0.1", a.addr.port]]),
    testCluster("b", [["127.0.0.1", b.addr.port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
    await a.shutdown();
    await b.shutdown();
  }
}

async function get(
  p: TestProxy,
  path: string,
  headers: HeadersInit = {},
): Promise<[Response, Seen | null]> {
  const r = await fetch(`http://127.0.0.1:${p.port()}${path}`, { headers });
  const text = await r.text();
  return [r, r.headers.get("content-type") === "application/json" ? JSON.parse(text) : null];
}

Deno.test("listener http routing actions: cluster, prefix_rewrite, host_rewrite (v2 and v3), cluster_header, weighted_clusters", async () => {
  await withProxy(async (p) => {
    const [r1, s1] = await get(p, "/plain?q=1");
    assert.equal(r1.status, 200);
    assert.equal(s1!.origin, "a");
    assert.equal(s1!.path, "/plain?q=1");
    assert.equal((await get(p, "/old/x?y=2"))[1]!.path, "/new/x?y=2");
    assert.equal((await get(p, "/host"))[1]!.headers.host, "rewritten.test");
    assert.equal((await get(p, "/v2host"))[1]!.headers.host, "v2.test");
    assert.equal((await get(p, "/by-header", { "x-cluster": "b" }))[1]!.origin, "b");
    const [missing] = await get(p, "/by-header", { "x-cluster": "zzz" });
    assert.equal(missing.status, 503);
    assert.equal((await get(p, "/weighted"))[1]!.origin, "b");
    assert.equal(p.store.counter("http.test.no_cluster").value(), 1);
  });
});

Deno.test("listener http direct_response, 404 when no route matches (NR)", async () => {
  await withProxy(async (p) => {
    const [d] = await get(p, "/direct");
    assert.equal(d.status, 418);
    const r = await fetch(`http://127.0.0.1:${p.port()}/direct`);
    assert.equal(await r.text(), "teapot");
    const nr = await rawExchange(
      p.port(),
      "GET /x HTTP/1.1\r\nhost: empty.test\r\nconnection: close\r\n\r\n",
    );
    assert.match(nr, /^HTTP\/1\.1 404 /);
    assert.equal(p.store.counter("http.test.no_route").value(), 1);
    assert.equal(p.store.counter("http.test.downstream_rq_4xx").value(), 3);
    assert.equal(p.store.counter("http.test.rq_direct_response").value(), 2);
    assert.equal(
      p.store.counter("listener.127.0.0.1_" + p.port() + ".http.test.downstream_rq_4xx").value(),
      3,
    );
  });
});

Deno.test("listener http forwarding headers: hop-by-hop removed both ways, x-forwarded-for, x-forwarded-proto, x-request-id", async () => {
  await withProxy(async (p) => {
    const [r, s] = await get(p, "/", {
      connection: "keep-alive, x-drop",
      "x-drop": "1",
      "keep-alive": "timeout=1",
      "proxy-connection": "x",
      te: "trailers",
      "x-keep": "yes",
      "x-forwarded-for": "10.1.2.3",
    });
    const h = s!.headers;
    for (const n of ["x-drop", "keep-alive", "proxy-connection", "upgrade"]) {
      assert.equal(h[n], undefined, n);
    }
    // As Envoy: te is hop-by-hop, but its trailers token goes on (gRPC servers require it).
    assert.equal(h["te"], "trailers");
    assert.equal(h["x-keep"], "yes");
    // use_remote_address with a loopback client: Envoy appends the local address.
    assert.match(h["x-forwarded-for"], /^10\.1\.2\.3, \d+\.\d+\.\d+\.\d+$/);
    assert.equal(h["x-forwarded-proto"], "http");
    assert.match(
      h["x-request-id"],
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(r.headers.get("x-hop"), null);
    assert.equal(r.headers.get("keep-alive"), null);
    assert.equal(r.headers.get("server"), "proxy");
    assert.ok(r.headers.has("x-proxy-upstream-service-time"));
    const [, kept] = await get(p, "/", { "x-request-id": "given" });
    assert.equal(kept!.headers["x-request-id"], "given");
  }, { use_remote_address: true });
});

Deno.test("listener http without use_remote_address leaves x-forwarded-for unchanged", async () => {
  await withProxy(async (p) => {
    const [, s] = await get(p, "/", { "x-forwarded-for": "10.9.9.9" });
    assert.equal(s!.headers["x-forwarded-for"], "10.9.9.9");
    const [, none] = await get(p, "/");
    assert.equal(none!.headers["x-forwarded-for"], undefined);
  });
});

Deno.test("listener http/2 prior knowledge downstream (h2c) is proxied and counted", async () => {
  await withProxy(async (p) => {
    const client = Deno.createHttpClient({ http1: false, http2: true });
    try {
      const r = await fetch(`http://127.0.0.1:${p.port()}/h2?x=1`, { client });
      const s = await r.json() as Seen;
      assert.equal(r.status, 200);
      assert.equal(s.path, "/h2?x=1");
      assert.equal(s.headers.host, `127.0.0.1:${p.port()}`);
      assert.equal(p.store.counter("http.test.downstream_rq_http2_total").value(), 1);
    } finally {
      client.close();
    }
  });
});

const hcFilters = (passThrough: boolean): JsonObject[] => [
  {
    name: "envoy.filters.http.health_check",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.health_check.v3.HealthCheck",
      pass_through_mode: passThrough,
      headers: [{ name: ":path", string_match: { exact: "/healthz" } }],
    },
  },
  { name: "proxy.filters.http.router" },
];

Deno.test("admin.states.healthcheck-fail admin.states.healthcheck-ok: health check filter answers 200, and 503 while failing", async () => {
  await withProxy(
    async (p) => {
      const [ok] = await get(p, "/healthz");
      assert.equal(ok.status, 200);
      p.state.failed = true;
      const [bad] = await get(p, "/healthz");
      assert.equal(bad.status, 503);
      assert.equal(bad.headers.get("x-proxy-immediate-health-check-fail"), "true");
      const [other] = await get(p, "/elsewhere");
      assert.equal(other.status, 200);
    },
    {},
    hcFilters(false),
  );
});

Deno.test("admin.states.healthcheck-fail: health check filter in pass_through_mode forwards passing checks upstream", async () => {
  await withProxy(
    async (p) => {
      const [r, s] = await get(p, "/healthz");
      assert.equal(r.status, 200);
      assert.equal(s!.path, "/healthz");
      p.state.failed = true;
      assert.equal((await get(p, "/healthz"))[0].status, 503);
    },
    {},
    hcFilters(true),
  );
});

Deno.test("listener http downstream stats: downstream_rq_total, _2xx, _5xx, rq_time", async () => {
  await withProxy(async (p) => {
    await get(p, "/a");
    await get(p, "/b");
    await get(p, "/by-header");
    assert.equal(p.store.counter("http.test.downstream_rq_total").value(), 3);
    assert.equal(p.store.counter("http.test.downstream_rq_2xx").value(), 2);
    assert.equal(p.store.counter("http.test.downstream_rq_5xx").value(), 1);
    assert.equal(p.store.gauge("http.test.downstream_rq_active").value(), 0);
    assert.equal(p.store.histogram("http.test.downstream_rq_time", "milliseconds").used, true);
    assert.equal(p.store.gauge("listener_manager.total_listeners_active").value(), 1);
  });
});

Deno.test("listener http server_name, generate_request_id false, redirect actions and total_weight take effect", async () => {
  const a = echoOrigin("a");
  const b = echoOrigin("b");
  const rc = (total: number): JsonObject => ({
    name: "effects",
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        {
          match: { prefix: "/secure" },
          redirect: {
            https_redirect: true,
            host_redirect: "secure.test",
            response_code: "PERMANENT_REDIRECT",
          },
        },
        { match: { prefix: "/moved" }, redirect: { path_redirect: "/new-place" } },
        {
          match: { prefix: "/w" },
          route: {
            weighted_clusters: {
              total_weight: total,
              clusters: [{ name: "a", weight: 0 }, { name: "b", weight: 10 }],
            },
          },
        },
        { match: { prefix: "/" }, route: { cluster: "a" } },
      ],
    }],
  });
  const clusters = [
    testCluster("a", [["127.0.0.1", a.addr.port]]),
    testCluster("b", [["127.0.0.1", b.addr.port]]),
  ];
  const extra = { server_name: "edge", generate_request_id: false };
  await assert.rejects(
    () => startTestProxy([httpListener(rc(11), extra)], clusters),
    /total_weight 11 differs from the sum of weights 10/,
  );
  const p = await startTestProxy([httpListener(rc(10), extra)], clusters);
  try {
    const [r, s] = await get(p, "/");
    assert.equal(r.headers.get("server"), "edge");
    assert.equal(s!.headers["x-request-id"], undefined);
    const base = `http://127.0.0.1:${p.port()}`;
    const secure = await fetch(`${base}/secure/x`, { redirect: "manual" });
    await secure.body?.cancel();
    assert.equal(secure.status, 308);
    assert.equal(secure.headers.get("location"), "https://secure.test/secure/x");
    const moved = await fetch(`${base}/moved`, { redirect: "manual" });
    await moved.body?.cancel();
    assert.equal(moved.status, 301);
    assert.equal(moved.headers.get("location"), `${base}/new-place`);
    assert.equal((await get(p, "/w"))[1]!.origin, "b");
  } finally {
    await p.close();
    await a.shutdown();
    await b.shutdown();
  }
});

Deno.test("listener http a HIGH priority route uses the HIGH circuit breaker; the v2 health check endpoint matches the path", async () => {
  const a = echoOrigin("a");
  const cluster = testCluster("a", [["127.0.0.1", a.addr.port]]);
  // DEFAULT allows no request at all; HIGH keeps Envoy's defaults.
  cluster.thresholds[0] = { ...cluster.thresholds[0], max_requests: 0, max_pending_requests: 0 };
  const rc: JsonObject = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [
        { match: { prefix: "/high" }, route: { cluster: "a", priority: "HIGH" } },
        { match: { prefix: "/" }, route: { cluster: "a" } },
      ],
    }],
  };
  const filters: JsonObject[] = [
    { name: "envoy.health_check", config: { pass_through_mode: false, endpoint: "/hc" } },
    { name: "envoy.router" },
  ];
  const p = await startTestProxy([httpListener(rc, {}, filters)], [cluster]);
  try {
    const [high] = await get(p, "/high");
    assert.equal(high.status, 200);
    const [low] = await get(p, "/low");
    assert.equal(low.status, 503);
    const [hc, seen] = await get(p, "/hc");
    assert.equal(hc.status, 200);
    assert.equal(seen, null); // answered by the filter, not the origin
  } finally {
    await p.close();
    await a.shutdown();
  }
});
