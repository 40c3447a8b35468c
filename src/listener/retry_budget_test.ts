/**
 * Retry budgets (`circuit_breakers.thresholds[].retry_budget`) over real sockets: the retries in
 * flight are limited to `budget_percent` of the active and pending requests, at least
 * `min_retry_concurrency`; a retry over the budget is not made and counts
 * `upstream_rq_retry_overflow`; a budget replaces `max_retries`.
 */
import assert from "node:assert/strict";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function cluster(port: number, thresholds: JsonObject): JsonObject {
  return {
    name: "c",
    connect_timeout: "1s",
    load_assignment: {
      cluster_name: "c",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
        }],
      }],
    },
    circuit_breakers: { thresholds: [thresholds] },
  };
}

const routes: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    include_request_attempt_count: true,
    routes: [{
      match: { prefix: "/" },
      route: {
        cluster: "c",
        retry_policy: {
          retry_on: "5xx",
          num_retries: 1,
          retry_back_off: { base_interval: "0.001s" },
        },
      },
    }],
  }],
};

Deno.test("cluster.objects.cluster.circuit-breakers.thresholds.retry-budget.min-retry-concurrency: retries over the budget overflow", async () => {
  let release: () => void = () => {};
  const released = new Promise<void>((r) => release = r);
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    // First attempts fail; a retry waits until the test has seen the others overflow.
    if (r.headers.get("x-proxy-attempt-count") === "1") return new Response("no", { status: 503 });
    await released;
    return new Response("retried");
  });
  const p = await startTestProxy([httpListener(routes)], [
    effectiveCluster(cluster(o.addr.port, {
      max_retries: 100,
      retry_budget: { budget_percent: { value: 0 }, min_retry_concurrency: 1 },
    })),
  ]);
  const overflow = p.store.counter("cluster.c.upstream_rq_retry_overflow");
  try {
    const sends = [0, 1, 2].map(() =>
      fetch(`http://127.0.0.1:${p.port()}/`).then(async (r) => `${r.status} ${await r.text()}`)
    );
    for (let i = 0; i < 500 && overflow.value() < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(overflow.value(), 2);
    release();
    const got = (await Promise.all(sends)).sort();
    assert.deepEqual(got, ["200 retried", "503 no", "503 no"]);
    assert.equal(p.store.counter("cluster.c.upstream_rq_retry").value(), 1);
    assert.equal(p.store.counter("cluster.c.upstream_rq_retry_success").value(), 1);
  } finally {
    release();
    await p.close();
    await o.shutdown();
  }
});

Deno.test("cluster.objects.cluster.circuit-breakers.thresholds.retry-budget: a budget replaces max_retries (defaults 20%, at least 3)", async () => {
  let n = 0;
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    return ++n % 2 === 1 ? new Response("no", { status: 503 }) : new Response("retried");
  });
  const p = await startTestProxy([httpListener(routes)], [
    effectiveCluster(cluster(o.addr.port, { max_retries: 0, retry_budget: {} })),
  ]);
  try {
    const r = await fetch(`http://127.0.0.1:${p.port()}/`);
    assert.equal(`${r.status} ${await r.text()}`, "200 retried");
    assert.equal(p.store.counter("cluster.c.upstream_rq_retry_overflow").value(), 0);
    assert.equal(p.store.counter("cluster.c.upstream_rq_retry").value(), 1);
  } finally {
    await p.close();
    await o.shutdown();
  }
});
