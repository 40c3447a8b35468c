/**
 * `retry_policy.per_try_idle_timeout` over real sockets: an attempt whose upstream stays silent
 * ends with 504 and may be retried; a response body that stalls is cut.
 */
import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function routes(retry: JsonObject): JsonObject {
  return {
    virtual_hosts: [{
      name: "v",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster: "c", retry_policy: retry } }],
    }],
  };
}

/** An origin whose request `n` (from 1) is answered by `answer`; `stop` ends stalled ones. */
function origin(answer: (n: number, stall: Promise<void>) => Response | Promise<Response>) {
  let n = 0;
  let stop: () => void = () => {};
  const stall = new Promise<void>((r) => stop = r);
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    await r.arrayBuffer();
    return answer(++n, stall);
  });
  return { port: s.addr.port, count: () => n, close: () => (stop(), s.shutdown()) };
}

async function withProxy(retry: JsonObject, port: number, fn: (p: TestProxy) => Promise<void>) {
  const p = await startTestProxy([httpListener(routes(retry))], [
    testCluster("c", [["127.0.0.1", port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

const stat = (p: TestProxy, n: string) => p.store.counter(`cluster.c.${n}`).value();

Deno.test("route retry_policy per_try_idle_timeout: a silent attempt ends and is retried; counted", async () => {
  const o = origin(async (n, stall) => {
    if (n === 1) await stall;
    return new Response(`answer ${n}`);
  });
  try {
    await withProxy(
      { retry_on: "5xx", num_retries: 1, per_try_idle_timeout: "0.2s" },
      o.port,
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`, { method: "POST", body: "abc" });
        assert.equal(`${r.status} ${await r.text()}`, "200 answer 2");
        assert.equal(stat(p, "upstream_rq_per_try_idle_timeout"), 1);
        assert.equal(stat(p, "upstream_rq_retry"), 1);
      },
    );
  } finally {
    await o.close();
  }
});

Deno.test("route retry_policy per_try_idle_timeout: without a matching retry condition the client gets 504", async () => {
  const o = origin(async (_n, stall) => {
    await stall;
    return new Response("late");
  });
  try {
    await withProxy(
      { retry_on: "retriable-4xx", per_try_idle_timeout: "0.1s" },
      o.port,
      async (p) => {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`);
        assert.equal(`${r.status} ${await r.text()}`, "504 upstream request timeout");
        assert.equal(stat(p, "upstream_rq_per_try_idle_timeout"), 1);
        assert.equal(stat(p, "upstream_rq_retry"), 0);
      },
    );
  } finally {
    await o.close();
  }
});

Deno.test("route retry_policy per_try_idle_timeout: a response body that stalls is cut, one that flows is not", async () => {
  const o = origin((n, stall) => {
    let i = 0;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          i++;
          if (n === 1 && i === 2) await stall;
          if (i > 4) return ctrl.close();
          await new Promise((r) => setTimeout(r, 50));
          ctrl.enqueue(new TextEncoder().encode(`part${i};`));
        },
      }),
    );
  });
  try {
    await withProxy({ retry_on: "5xx", per_try_idle_timeout: "0.3s" }, o.port, async (p) => {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(r.status, 200);
      await assert.rejects(() => r.text());
      assert.equal(stat(p, "upstream_rq_per_try_idle_timeout"), 1);
      const ok = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(await ok.text(), "part1;part2;part3;part4;");
      assert.equal(stat(p, "upstream_rq_per_try_idle_timeout"), 1);
    });
  } finally {
    await o.close();
  }
});
