import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";

/** An origin that answers request number `n` (from 1) as `answer` says; it records bodies and headers. */
function origin(answer: (n: number, r: Request) => Response | Promise<Response>) {
  const seen: { body: string; headers: Headers }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    const body = await r.text();
    seen.push({ body, headers: r.headers });
    return answer(seen.length, r);
  });
  return { server, seen, port: server.addr.port };
}

/** A TCP server that reads a request and closes the connection without answering (a reset). */
function resetter() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  (async () => {
    for await (const c of l) {
      accepted++;
      c.read(new Uint8Array(4096)).then(() => c.close()).catch(() => {});
    }
  })().catch(() => {});
  return { port: (l.addr as Deno.NetAddr).port, accepted: () => accepted, close: () => l.close() };
}

/** A loopback port nothing listens on. */
function deadPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const p = (l.addr as Deno.NetAddr).port;
  l.close();
  return p;
}

function routes(route: JsonObject, vhost: JsonObject = {}): JsonObject {
  return {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", ...route } }],
      ...vhost,
    }],
  };
}

async function withProxy(
  rc: JsonObject,
  hosts: [string, number][],
  fn: (p: TestProxy) => Promise<void>,
  over: Partial<EffectiveCluster> = {},
) {
  const p = await startTestProxy([httpListener(rc)], [testCluster("c", hosts, over)]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const stat = (p: TestProxy, n: string) => p.store.counter(`cluster.c.${n}`).value();

async function send(p: TestProxy, init: RequestInit & { path?: string } = {}) {
  // The client is internal (one RFC 1918 x-forwarded-for entry), so the connection manager keeps
  // its control headers (x-envoy-retry-on, ...) for the router instead of removing them.
  const headers = new Headers(init.headers);
  if (!headers.has("x-forwarded-for")) headers.set("x-forwarded-for", "10.0.0.1");
  const r = await fetch(`http://127.0.0.1:${p.port()}${init.path ?? "/"}`, { ...init, headers });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

Deno.test("route retry_policy 5xx: an origin that fails twice is retried and the body is sent again each time", async () => {
  const o = origin((n) => new Response(n <= 2 ? "bad" : "ok", { status: n <= 2 ? 503 : 200 }));
  try {
    await withProxy(
      routes({
        retry_policy: {
          retry_on: "5xx",
          num_retries: 3,
          retry_back_off: { base_interval: "0.001s" },
        },
      }),
      [["127.0.0.1", o.port]],
      async (p) => {
        const r = await send(p, { method: "POST", body: "payload" });
        assert.equal(r.status, 200);
        assert.equal(r.text, "ok");
        assert.deepEqual(o.seen.map((s) => s.body), ["payload", "payload", "payload"]);
        assert.equal(stat(p, "upstream_rq_retry"), 2);
        assert.equal(stat(p, "upstream_rq_retry_success"), 1);
        assert.equal(stat(p, "upstream_rq_retry_backoff_exponential"), 2);
        assert.equal(stat(p, "upstream_rq_503"), 2);
        assert.equal(stat(p, "upstream_rq_200"), 1);
      },
    );
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route retry_policy num_retries: when retries run out the last answer goes downstream and limit_exceeded counts", async () => {
  const o = origin(() => new Response("down", { status: 500 }));
  try {
    await withProxy(
      routes({
        retry_policy: {
          retry_on: "5xx",
          num_retries: 2,
          retry_back_off: { base_interval: "0.001s" },
        },
      }),
      [["127.0.0.1", o.port]],
      async (p) => {
        const r = await send(p);
        assert.equal(r.status, 500);
        assert.equal(r.text, "down");
        assert.equal(o.seen.length, 3);
        assert.equal(stat(p, "upstream_rq_retry"), 2);
        assert.equal(stat(p, "upstream_rq_retry_limit_exceeded"), 1);
        assert.equal(stat(p, "upstream_rq_retry_success"), 0);
      },
    );
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route retry_policy conditions: gateway-error skips 500, retriable-4xx retries 409, retriable_status_codes, retriable_headers", async () => {
  const cases: [JsonObject, number, number][] = [
    [{ retry_on: "gateway-error" }, 500, 1],
    [{ retry_on: "gateway-error" }, 502, 2],
    [{ retry_on: "retriable-4xx" }, 409, 2],
    [{ retry_on: "retriable-4xx" }, 404, 1],
    [{ retry_on: "retriable-status-codes", retriable_status_codes: [418] }, 418, 2],
    [{ retry_on: "retriable-status-codes", retriable_status_codes: [418] }, 503, 1],
    [
      { retry_on: "retriable-headers", retriable_headers: [{ name: "x-again", exact_match: "1" }] },
      200,
      2,
    ],
    [{ retry_on: "5xx" }, 429, 1],
  ];
  for (const [policy, status, attempts] of cases) {
    const o = origin((n) =>
      n === 1
        ? new Response("first", { status, headers: { "x-again": "1" } })
        : new Response("second")
    );
    try {
      await withProxy(
        routes({ retry_policy: { ...policy, retry_back_off: { base_interval: "0.001s" } } }),
        [["127.0.0.1", o.port]],
        async (p) => {
          await send(p);
          assert.equal(o.seen.length, attempts, `${JSON.stringify(policy)} on ${status}`);
        },
      );
    } finally {
      await o.server.shutdown();
    }
  }
});

Deno.test("route retry_policy headers: x-envoy-retry-on, x-proxy-retry-on, x-envoy-max-retries and x-envoy-retriable-status-codes ask for retries and are not forwarded", async () => {
  const o = origin((n) => new Response(null, { status: n % 3 === 0 ? 200 : 418 }));
  try {
    await withProxy(routes({}), [["127.0.0.1", o.port]], async (p) => {
      // No policy: the request header alone asks for retries.
      let r = await send(p, {
        headers: {
          "x-envoy-retry-on": "retriable-status-codes",
          "x-envoy-retriable-status-codes": "418",
          "x-envoy-max-retries": "5",
        },
      });
      assert.equal(r.status, 200);
      assert.equal(o.seen.length, 3);
      assert.equal(o.seen[0].headers.get("x-envoy-retry-on"), null);
      assert.equal(o.seen[0].headers.get("x-envoy-max-retries"), null);
      r = await send(p, {
        headers: {
          "x-proxy-retry-on": "retriable-status-codes",
          "x-proxy-retriable-status-codes": "418",
          "x-proxy-max-retries": "0",
        },
      });
      assert.equal(r.status, 418);
      assert.equal(o.seen.length, 4);
      assert.equal(stat(p, "upstream_rq_retry_limit_exceeded"), 1);
      r = await send(p);
      assert.equal(r.status, 418);
      assert.equal(o.seen.length, 5);
    });
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route retry_policy connect-failure and previous_hosts: a dead host is retried on the live one", async () => {
  const o = origin(() => new Response("live"));
  try {
    await withProxy(
      routes({
        retry_policy: {
          retry_on: "connect-failure",
          num_retries: 1,
          retry_host_predicate: [{ name: "envoy.retry_host_predicates.previous_hosts" }],
          host_selection_retry_max_attempts: 40,
          retry_back_off: { base_interval: "0.001s" },
        },
      }),
      [["127.0.0.1", deadPort()], ["127.0.0.1", o.port]],
      async (p) => {
        // RANDOM picks the dead host again half the time unless the predicate steers it away.
        for (let i = 0; i < 10; i++) {
          const r = await send(p);
          assert.equal(r.status, 200);
          assert.equal(r.text, "live");
        }
        assert.ok(stat(p, "upstream_rq_retry") >= 2);
        assert.equal(stat(p, "upstream_rq_retry_success"), stat(p, "upstream_rq_retry"));
      },
      { lbPolicy: "RANDOM" },
    );
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route retry_policy reset: a connection closed before the answer is retried with reset, not with connect-failure", async () => {
  const bad = resetter();
  const o = origin(() => new Response("live"));
  try {
    const hosts: [string, number][] = [["127.0.0.1", bad.port], ["127.0.0.1", o.port]];
    const pred = [{ name: "envoy.retry_host_predicates.previous_hosts" }];
    await withProxy(
      routes({ retry_policy: { retry_on: "reset", retry_host_predicate: pred } }),
      hosts,
      async (p) => {
        for (let i = 0; i < 2; i++) assert.equal((await send(p)).status, 200);
        assert.equal(bad.accepted() >= 1, true);
      },
    );
    await withProxy(
      routes({ retry_policy: { retry_on: "connect-failure", retry_host_predicate: pred } }),
      hosts,
      async (p) => {
        const statuses = [(await send(p)).status, (await send(p)).status].sort();
        assert.deepEqual(statuses, [200, 503]);
        assert.equal(stat(p, "upstream_rq_retry"), 0);
      },
    );
  } finally {
    bad.close();
    await o.server.shutdown();
  }
});

Deno.test("cluster.objects.cluster.circuit-breakers.thresholds.max-retries: max_retries 0 stops every retry and counts upstream_rq_retry_overflow", async () => {
  const o = origin(() => new Response(null, { status: 503 }));
  try {
    await withProxy(
      routes({ retry_policy: { retry_on: "5xx", num_retries: 3 } }),
      [["127.0.0.1", o.port]],
      async (p) => {
        assert.equal((await send(p)).status, 503);
        assert.equal(o.seen.length, 1);
        assert.equal(stat(p, "upstream_rq_retry_overflow"), 1);
        assert.equal(stat(p, "upstream_rq_retry"), 0);
      },
      {
        thresholds: [0, 1].map((i) => ({
          priority: i ? "HIGH" : "DEFAULT",
          max_connections: 1024,
          max_pending_requests: 1024,
          max_requests: 1024,
          max_retries: 0,
        })) as EffectiveCluster["thresholds"],
      },
    );
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route retry_policy per_try_timeout: a slow first attempt times out alone and the retry answers; x-envoy-upstream-rq-per-try-timeout-ms sets it too", async () => {
  const o = origin(async (n, req) => {
    // The first attempt is slower than the per-try timeout: it answers only once the proxy has
    // given up on it (its request is aborted) or long after.
    if (n % 2 === 1) {
      await new Promise<void>((res) => {
        const t = setTimeout(res, 1500);
        req.signal.addEventListener("abort", () => {
          clearTimeout(t);
          res();
        });
      });
    }
    return new Response("ok");
  });
  try {
    await withProxy(
      routes({
        retry_policy: {
          retry_on: "5xx",
          per_try_timeout: "0.2s",
          retry_back_off: { base_interval: "0.001s" },
        },
      }),
      [["127.0.0.1", o.port]],
      async (p) => {
        const r = await send(p);
        assert.equal(r.status, 200);
        assert.equal(stat(p, "upstream_rq_per_try_timeout"), 1);
        assert.equal(stat(p, "upstream_rq_timeout"), 0);
        assert.equal(stat(p, "upstream_rq_retry"), 1);
      },
    );
    await withProxy(routes({}), [["127.0.0.1", o.port]], async (p) => {
      const r = await send(p, {
        headers: { "x-envoy-retry-on": "reset", "x-envoy-upstream-rq-per-try-timeout-ms": "200" },
      });
      assert.equal(r.status, 200);
      assert.equal(stat(p, "upstream_rq_per_try_timeout"), 1);
    });
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route retry_policy virtual host: its policy applies to routes without one; attempt counts go upstream and back", async () => {
  const o = origin((n) => new Response(null, { status: n === 1 ? 503 : 204 }));
  try {
    await withProxy(
      routes({}, {
        retry_policy: { retry_on: "5xx", retry_back_off: { base_interval: "0.001s" } },
        include_request_attempt_count: true,
        include_attempt_count_in_response: true,
      }),
      [["127.0.0.1", o.port]],
      async (p) => {
        const r = await send(p);
        assert.equal(r.status, 204);
        assert.deepEqual(o.seen.map((s) => s.headers.get("x-proxy-attempt-count")), ["1", "2"]);
        assert.equal(r.headers.get("x-proxy-attempt-count"), "2");
      },
    );
  } finally {
    await o.server.shutdown();
  }
});

Deno.test("route per_request_buffer_limit_bytes: a body larger than the limit is streamed once and its retries are abandoned", async () => {
  const o = origin(() => new Response(null, { status: 503 }));
  try {
    const rc = routes({ retry_policy: { retry_on: "5xx" } });
    ((rc.virtual_hosts as JsonObject[])[0].routes as JsonObject[])[0]
      .per_request_buffer_limit_bytes = 4;
    await withProxy(rc, [["127.0.0.1", o.port]], async (p) => {
      const r = await send(p, { method: "POST", body: "0123456789" });
      assert.equal(r.status, 503);
      assert.deepEqual(o.seen.map((s) => s.body), ["0123456789"]);
      assert.equal(stat(p, "retry_or_shadow_abandoned"), 1);
    });
  } finally {
    await o.server.shutdown();
  }
});
