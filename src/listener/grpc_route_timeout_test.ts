/**
 * `RouteAction.max_grpc_timeout` and `grpc_timeout_offset` over real sockets: a gRPC request's
 * route timeout comes from its `grpc-timeout` header (less the offset, capped), the value goes
 * upstream, and which timer fires (the route's, counted `upstream_rq_timeout`, or the stream
 * duration limit behind it) shows in the answer and the counters.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import { trackingOrigin } from "./test_origins.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { parseRouteAction } from "../router/route_action.ts";
import { grpcRouteTimeoutMs } from "../router/grpc_route_timeout.ts";

/** The connection manager's stream duration limit: the timer behind the route's. */
const BACKSTOP = { common_http_protocol_options: { max_stream_duration: "1s" } };

/** Runs `fn` with a proxy whose one route is `route` to an origin that never answers. */
async function withRoute(
  route: JsonObject,
  fn: (p: TestProxy, heads: string[]) => Promise<void>,
) {
  const heads: string[] = [];
  const o = trackingOrigin((_i, chunk, first) => {
    if (first) heads.push(chunk);
    return null;
  });
  const rc = {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", ...route } }],
    }],
  };
  const p = await startTestProxy([httpListener(rc, BACKSTOP)], [
    testCluster("c", [["127.0.0.1", o.port]]),
  ]);
  try {
    await fn(p, heads);
  } finally {
    await p.close();
    o.close();
  }
}

/** A gRPC-shaped POST: status, grpc-status and grpc-message (or the body of an HTTP answer). */
async function ask(p: TestProxy, headers: Record<string, string>) {
  const r = await fetch(`http://127.0.0.1:${p.port()}/svc/Method`, {
    method: "POST",
    headers,
    body: "\0\0\0\0\0",
  });
  const body = await r.text();
  const g = r.headers.get("grpc-status");
  return g === null ? `${r.status} ${body}` : `${r.status} ${g} ${r.headers.get("grpc-message")}`;
}

const grpc = (timeout?: string): Record<string, string> =>
  timeout === undefined
    ? { "content-type": "application/grpc" }
    : { "content-type": "application/grpc", "grpc-timeout": timeout };

const counter = (p: TestProxy, name: string) => p.store.counter(name).value();
const routeTimeouts = (p: TestProxy) => counter(p, "cluster.c.upstream_rq_timeout");
const durationTimeouts = (p: TestProxy) =>
  counter(p, "http.test.downstream_rq_max_duration_reached");
/** The grpc-timeout header the origin got in request head `h`, or `-`. */
const sentTimeout = (h: string | undefined) =>
  /\r\ngrpc-timeout: ([^\r]*)\r\n/i.exec(h ?? "")?.[1] ?? "-";

Deno.test("RouteAction.max_grpc_timeout: a client grpc-timeout larger than the cap: the cap is the route timeout (upstream_rq_timeout, UNAVAILABLE) and goes upstream as grpc-timeout", async () => {
  await withRoute({ timeout: "30s", max_grpc_timeout: "0.2s" }, async (p, heads) => {
    assert.equal(await ask(p, grpc("100S")), "200 14 upstream request timeout");
    assert.equal(routeTimeouts(p), 1);
    assert.equal(durationTimeouts(p), 0);
    assert.equal(sentTimeout(heads[0]), "200m");
    // Without a grpc-timeout header the request gets the cap too.
    assert.equal(await ask(p, grpc()), "200 14 upstream request timeout");
    assert.equal(routeTimeouts(p), 2);
    assert.equal(sentTimeout(heads[1]), "200m");
  });
});

Deno.test("RouteAction.grpc_timeout_offset: a client grpc-timeout smaller than the cap, less the offset, is the route timeout; an offset as large as the header's value is not applied", async () => {
  await withRoute(
    { timeout: "30s", max_grpc_timeout: "10s", grpc_timeout_offset: "0.05s" },
    async (p, heads) => {
      assert.equal(await ask(p, grpc("250m")), "200 14 upstream request timeout");
      assert.equal(sentTimeout(heads[0]), "200m");
      assert.equal(await ask(p, grpc("40000u")), "200 14 upstream request timeout");
      assert.equal(sentTimeout(heads[1]), "40m");
      assert.equal(routeTimeouts(p), 2);
      assert.equal(durationTimeouts(p), 0);
    },
  );
});

Deno.test("RouteAction.max_grpc_timeout: 0 leaves the header's value uncapped; without the header a gRPC request has no route timeout (the stream duration limit fires) while other requests keep the route's timeout", async () => {
  await withRoute({ timeout: "0.2s", max_grpc_timeout: "0s" }, async (p, heads) => {
    assert.equal(await ask(p, grpc("150m")), "200 14 upstream request timeout");
    assert.equal(sentTimeout(heads[0]), "150m");
    assert.equal(routeTimeouts(p), 1);
    assert.equal(await ask(p, grpc()), "200 4 downstream duration timeout");
    assert.equal(sentTimeout(heads[1]), "-");
    assert.equal(routeTimeouts(p), 1);
    assert.equal(durationTimeouts(p), 1);
    // Not gRPC: the route's timeout, an HTTP 504, and its grpc-timeout header untouched.
    assert.equal(
      await ask(p, { "content-type": "application/json", "grpc-timeout": "9S" }),
      "504 upstream request timeout",
    );
    assert.equal(sentTimeout(heads[2]), "9S");
    assert.equal(routeTimeouts(p), 2);
    // The largest grpc-timeout (11,000 years) is no limit in practice, not one that fires at once.
    assert.equal(await ask(p, grpc("99999999H")), "200 4 downstream duration timeout");
    assert.equal(sentTimeout(heads[3]), "99999999H");
    assert.equal(routeTimeouts(p), 2);
    assert.equal(durationTimeouts(p), 2);
  });
});

Deno.test("RouteAction.max_grpc_timeout: parsed with the route (a bad value is an error at its path); max_stream_duration's new timeouts replace it; a shorter per_try_timeout is what goes upstream", () => {
  const errors: { path: string; rule: string; message: string }[] = [];
  const parse = (route: JsonObject) =>
    parseRouteAction({ route: { cluster: "c", ...route } }, "r", errors, null);
  const a = parse({ max_grpc_timeout: "2s", grpc_timeout_offset: "0.01s" });
  assert.ok(a !== null && "maxGrpcTimeoutMs" in a);
  assert.deepEqual([a.maxGrpcTimeoutMs, a.grpcTimeoutOffsetMs], [2000, 10]);
  const b = parse({ max_grpc_timeout: "2s", max_stream_duration: { max_stream_duration: "1s" } });
  assert.ok(b !== null && "maxGrpcTimeoutMs" in b);
  assert.equal(b.maxGrpcTimeoutMs, null);
  const c = parse({ grpc_timeout_offset: "1s" });
  assert.ok(c !== null && "maxGrpcTimeoutMs" in c);
  assert.deepEqual([c.maxGrpcTimeoutMs, c.grpcTimeoutOffsetMs], [null, null]);
  assert.equal(errors.length, 0);
  parse({ max_grpc_timeout: "soon", grpc_timeout_offset: -1 });
  assert.deepEqual(errors.map((e) => e.path).sort(), [
    "r.route.grpc_timeout_offset",
    "r.route.max_grpc_timeout",
  ]);
  const route = { timeoutMs: 15000, maxGrpcTimeoutMs: 10_000, grpcTimeoutOffsetMs: null };
  const h = new Headers(grpc("5S"));
  assert.equal(grpcRouteTimeoutMs(route, 100, h), 5000);
  assert.equal(h.get("grpc-timeout"), "100m");
  const big = new Headers(grpc("99999999H"));
  assert.equal(grpcRouteTimeoutMs({ ...route, maxGrpcTimeoutMs: 0 }, 0, big), 359_999_996_400_000);
  assert.equal(big.get("grpc-timeout"), "99999999H");
});
