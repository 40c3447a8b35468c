import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";

/** Resolves once `cond()` holds, looking every 10 ms; fails after `tries` looks. */
async function until(cond: () => boolean, what: string, tries = 1000): Promise<void> {
  for (let i = 0; i < tries && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(cond(), `never: ${what}`);
}

/** An origin (HTTP/1.1 and h2c) that answers `ok`, or holds a request until released. */
function origin() {
  let hold: Promise<void> | null = null;
  let release = () => {};
  let held = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    if (hold) {
      held++;
      await hold;
    }
    return new Response("ok");
  });
  return {
    port: server.addr.port,
    held: () => held,
    holdNext() {
      hold = new Promise<void>((r) => release = r);
    },
    release() {
      hold = null;
      release();
    },
    close: () => server.shutdown(),
  };
}

async function withCluster(
  over: Partial<EffectiveCluster>,
  fn: (
    get: () => Promise<string>,
    counter: (n: string) => number,
    o: ReturnType<typeof origin>,
  ) => Promise<void>,
) {
  const o = origin();
  const store = new Store();
  const c = testCluster("up", [["127.0.0.1", o.port]], over);
  const cm = new ClusterManager([c], { stats: store });
  try {
    await fn(
      () => forwardResponse(cm.get("up")!, testRequest({ path: "/" })).then((r) => r.text()),
      (n) => store.counter(`cluster.up.upstream_${n}`).value(),
      o,
    );
  } finally {
    await cm.close();
    o.release();
    await o.close();
  }
}

for (const http2 of [false, true]) {
  const proto = http2 ? "HTTP/2" : "HTTP/1.1";

  Deno.test(`cluster.fields.common-http-protocol-options: idle_timeout closes an idle upstream ${proto} connection, counted; the next request opens a new one`, async () => {
    await withCluster({ http2, upstreamIdleTimeoutMs: 50 }, async (get, counter) => {
      assert.equal(await get(), "ok");
      await until(() => counter("cx_idle_timeout") === 1, "the idle connection timed out");
      await until(() => counter("cx_destroy") === 1, "the idle connection closed");
      assert.equal(await get(), "ok");
      assert.equal(counter("cx_total"), 2);
    });
  });

  Deno.test(`cluster.fields.common-http-protocol-options: idle_timeout counts from the last request: an upstream ${proto} connection used again before it ran out stays open`, async () => {
    await withCluster({ http2, upstreamIdleTimeoutMs: 1000 }, async (get, counter) => {
      assert.equal(await get(), "ok");
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(await get(), "ok");
      // 1.1 s after the first request, 0.6 s after the second: still open.
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(counter("cx_idle_timeout"), 0);
      await until(() => counter("cx_idle_timeout") === 1, "the idle connection timed out");
      assert.equal(counter("cx_total"), 1);
    });
  });

  Deno.test(`cluster.fields.common-http-protocol-options: max_connection_duration lets the ${proto} request in flight finish, then the connection closes and the next request opens another`, async () => {
    await withCluster({ http2, maxConnectionDurationMs: 50 }, async (get, counter, o) => {
      o.holdNext();
      const first = get();
      await until(() => o.held() === 1, "the origin holds the request");
      await until(() => counter("cx_max_duration_reached") === 1, "the duration was reached");
      assert.equal(counter("cx_destroy"), 0, "closed under a request in flight");
      o.release();
      assert.equal(await first, "ok");
      await until(() => counter("cx_destroy") === 1, "the expired connection closed");
      assert.equal(await get(), "ok");
      assert.equal(counter("cx_total"), 2);
    });
  });

  Deno.test(`cluster.fields.common-http-protocol-options: without the settings an idle ${proto} connection is kept and reused`, async () => {
    await withCluster({ http2 }, async (get, counter) => {
      assert.equal(await get(), "ok");
      assert.equal(await get(), "ok");
      assert.equal(counter("cx_total"), 1);
      assert.equal(counter("cx_idle_timeout"), 0);
    });
  });
}
