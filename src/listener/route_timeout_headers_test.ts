/**
 * The router's timeout request headers over real sockets, as Envoy's `finalTimeout` and
 * `setTimeoutHeaders`: `x-proxy-upstream-rq-timeout-ms` replaces the route timeout and is
 * consumed, `x-proxy-expected-rq-timeout-ms` tells every attempt the time it has (from what is
 * left, with `grpc-timeout` for gRPC routes with `max_grpc_timeout`), and the router filter's
 * `suppress_envoy_headers` and `respect_expected_rq_timeout`. Timeouts are checked by the answer
 * and the counters of an origin that hangs.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseGrpcTimeout } from "../http/grpc_timeout.ts";

/** An origin answering request `n` (from 1) as `answer` says; null: it never answers. */
function origin(answer: (n: number) => Response | null | Promise<Response | null>) {
  const seen: Headers[] = [];
  let release = () => {};
  const hung = new Promise<void>((r) => release = r);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    await r.body?.cancel();
    seen.push(r.headers);
    const res = await answer(seen.length);
    if (res !== null) return res;
    await hung;
    return new Response("late");
  });
  return {
    seen,
    port: server.addr.port,
    close: async () => {
      release();
      await server.shutdown();
    },
  };
}

const ROUTER = "envoy.filters.http.router";
const TYPE = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router";

/** Runs `fn` with a proxy whose one route (`route`) goes to `port`; `router` configures its router. */
async function withProxy(
  port: number,
  route: JsonObject,
  fn: (p: TestProxy) => Promise<void>,
  router?: JsonObject,
) {
  const rc = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", ...route } }],
    }],
  };
  const filters: JsonObject[] = [
    router === undefined ? { name: ROUTER } : {
      name: ROUTER,
      typed_config: { "@type": TYPE, ...router },
    },
  ];
  const p = await startTestProxy([httpListener(rc, {}, filters)], [
    testCluster("c", [["127.0.0.1", port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

/** Sends a request from an internal client (its control headers are kept for the router). */
async function send(p: TestProxy, headers: Record<string, string> = {}) {
  const r = await fetch(`http://127.0.0.1:${p.port()}/svc/M`, {
    method: "POST",
    headers: { "x-forwarded-for": "10.0.0.1", ...headers },
    body: "x",
  });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

const stat = (p: TestProxy, n: string) => p.store.counter(`cluster.c.${n}`).value();
const expected = (h: Headers) => h.get("x-proxy-expected-rq-timeout-ms");

Deno.test("router timeout header x-envoy-upstream-rq-timeout-ms: it replaces the route timeout (upstream_rq_timeout, 504) and is consumed; the upstream is told x-proxy-expected-rq-timeout-ms", async () => {
  const o = origin((n) => n === 1 ? null : new Response("ok"));
  try {
    await withProxy(o.port, { timeout: "60s" }, async (p) => {
      const r = await send(p, { "x-envoy-upstream-rq-timeout-ms": "150" });
      assert.equal(r.status, 504);
      assert.equal(r.text, "upstream request timeout");
      assert.equal(stat(p, "upstream_rq_timeout"), 1);
      assert.equal(o.seen[0].get("x-envoy-upstream-rq-timeout-ms"), null);
      assert.equal(expected(o.seen[0]), "150");
      // The x-proxy- spelling works alike; without either the route's timeout is announced.
      assert.equal((await send(p, { "x-proxy-upstream-rq-timeout-ms": "5000" })).status, 200);
      assert.equal(o.seen[1].get("x-proxy-upstream-rq-timeout-ms"), null);
      assert.equal(expected(o.seen[1]), "5000");
      assert.equal((await send(p)).status, 200);
      assert.equal(expected(o.seen[2]), "60000");
      // Not a number: ignored (the route timeout stays) and still consumed.
      assert.equal((await send(p, { "x-envoy-upstream-rq-timeout-ms": "soon" })).status, 200);
      assert.equal(o.seen[3].get("x-envoy-upstream-rq-timeout-ms"), null);
      assert.equal(expected(o.seen[3]), "60000");
    });
  } finally {
    await o.close();
  }
});

Deno.test("router timeout header x-envoy-upstream-rq-timeout-alt-response: a request that times out (route timeout, per-try idle timeout) is answered 204 instead of 504, still counted as a timeout, and the header is consumed", async () => {
  const o = origin(() => null);
  try {
    await withProxy(o.port, { timeout: "0.15s" }, async (p) => {
      const r = await send(p, { "x-envoy-upstream-rq-timeout-alt-response": "" });
      assert.deepEqual([r.status, r.text], [204, ""]);
      assert.equal(stat(p, "upstream_rq_timeout"), 1);
      assert.equal(o.seen[0].get("x-envoy-upstream-rq-timeout-alt-response"), null);
      // The x-proxy- spelling alike; without the header the timeout is a 504.
      assert.equal(
        (await send(p, { "x-proxy-upstream-rq-timeout-alt-response": "1" })).status,
        204,
      );
      assert.equal(o.seen[1].get("x-proxy-upstream-rq-timeout-alt-response"), null);
      assert.equal((await send(p)).status, 504);
      assert.equal(stat(p, "upstream_rq_timeout"), 3);
    });
    const idle = { timeout: "60s", retry_policy: { per_try_idle_timeout: "0.15s" } };
    await withProxy(o.port, idle, async (p) => {
      const r = await send(p, { "x-envoy-upstream-rq-timeout-alt-response": "yes" });
      assert.deepEqual([r.status, r.text], [204, ""]);
      assert.equal(stat(p, "upstream_rq_per_try_idle_timeout"), 1);
    });
  } finally {
    await o.close();
  }
});

Deno.test("router timeout header x-envoy-upstream-rq-per-try-timeout-ms: each attempt is told the per-try timeout, a hanging attempt counts upstream_rq_per_try_timeout and the retry answers", async () => {
  const o = origin((n) => n === 1 ? null : new Response("ok"));
  try {
    await withProxy(o.port, { timeout: "60s" }, async (p) => {
      const r = await send(p, {
        "x-envoy-retry-on": "reset",
        "x-envoy-upstream-rq-per-try-timeout-ms": "150",
      });
      assert.equal(r.status, 200);
      assert.equal(stat(p, "upstream_rq_per_try_timeout"), 1);
      assert.equal(stat(p, "upstream_rq_timeout"), 0);
      assert.deepEqual(o.seen.map(expected), ["150", "150"]);
      assert.equal(o.seen[1].get("x-envoy-upstream-rq-per-try-timeout-ms"), null);
    });
  } finally {
    await o.close();
  }
});

Deno.test("router timeout headers on retries: x-proxy-expected-rq-timeout-ms and a gRPC route's (max_grpc_timeout) grpc-timeout are recomputed from the time left", async () => {
  const o = origin(async (n) => {
    if (n > 1) return new Response("ok");
    await new Promise((r) => setTimeout(r, 100));
    return new Response("bad", { status: 503 });
  });
  try {
    await withProxy(o.port, {
      max_grpc_timeout: "0s",
      retry_policy: { retry_on: "5xx", retry_back_off: { base_interval: "0.001s" } },
    }, async (p) => {
      const r = await send(p, { "content-type": "application/grpc", "grpc-timeout": "20S" });
      assert.equal(r.status, 200);
      assert.equal(stat(p, "upstream_rq_retry"), 1);
      assert.equal(o.seen[0].get("grpc-timeout"), "20000m");
      assert.equal(expected(o.seen[0]), "20000");
      const second = parseGrpcTimeout(o.seen[1].get("grpc-timeout"))!;
      assert.ok(second < 20000 && second > 0, `second attempt's grpc-timeout ${second}`);
      assert.equal(Number(expected(o.seen[1])), second);
    });
  } finally {
    await o.close();
  }
});

Deno.test("Router.suppress_envoy_headers: no x-proxy-expected-rq-timeout-ms upstream and no x-proxy-upstream-service-time downstream", async () => {
  const o = origin(() => new Response("ok"));
  try {
    await withProxy(o.port, {}, async (p) => {
      const r = await send(p);
      assert.equal(r.headers.get("x-proxy-upstream-service-time"), null);
      assert.equal(expected(o.seen[0]), null);
    }, { suppress_envoy_headers: true });
    await withProxy(o.port, {}, async (p) => {
      const r = await send(p);
      assert.match(r.headers.get("x-proxy-upstream-service-time") ?? "", /^\d+$/);
      assert.equal(expected(o.seen[1]), "15000");
    }, { suppress_envoy_headers: false });
  } finally {
    await o.close();
  }
});

Deno.test("Router.respect_expected_rq_timeout: an x-envoy-expected-rq-timeout-ms request header is the timeout (upstream_rq_timeout); without the setting it is replaced", async () => {
  const o = origin((n) => n === 1 ? null : new Response("ok"));
  try {
    await withProxy(o.port, { timeout: "60s" }, async (p) => {
      const r = await send(p, {
        "x-envoy-expected-rq-timeout-ms": "150",
        "x-envoy-upstream-rq-timeout-ms": "40000",
      });
      assert.equal(r.status, 504);
      assert.equal(stat(p, "upstream_rq_timeout"), 1);
      assert.equal(expected(o.seen[0]), "150");
      // The egress proxy's x-envoy-upstream-rq-timeout-ms is left alone when the expected one rules.
      assert.equal(o.seen[0].get("x-envoy-upstream-rq-timeout-ms"), "40000");
    }, { respect_expected_rq_timeout: true });
    await withProxy(o.port, { timeout: "60s" }, async (p) => {
      const r = await send(p, { "x-envoy-expected-rq-timeout-ms": "150" });
      assert.equal(r.status, 200);
      assert.equal(o.seen[1].get("x-envoy-expected-rq-timeout-ms"), null);
      assert.equal(expected(o.seen[1]), "60000");
    });
  } finally {
    await o.close();
  }
});

Deno.test("Router filter settings: a non-bool suppress_envoy_headers is an error with its path", async () => {
  const { parseRouterFilter } = await import("../filters/router_filter_config.ts");
  const errors: { path: string; rule: string; message: string }[] = [];
  parseRouterFilter({ suppress_envoy_headers: 1 }, "f", errors);
  assert.deepEqual(errors.map((e) => e.path), ["f.suppress_envoy_headers"]);
});
