import assert from "node:assert/strict";
import { chunkStream } from "./stats_stream.ts";
import { Store } from "../stats/store.ts";
import { fakeStatsContext } from "./stats_test_context.ts";
import { STATS_HANDLERS } from "./stats_handler.ts";
import { parseQuery } from "./query.ts";

Deno.test("chunkStream prepares first, skips empty chunks and ends", async () => {
  let prepares = 0;
  const body = chunkStream(() => ++prepares >= 3, () => ["a", "", "", "b"][Symbol.iterator]());
  assert.equal(await new Response(body).text(), "ab");
  assert.equal(prepares, 3);
});

Deno.test("cancelling the stream stops the generator", async () => {
  let finished = false;
  function* gen() {
    try {
      for (let i = 0;; i++) yield `chunk ${i}\n`;
    } finally {
      finished = true;
    }
  }
  const reader = chunkStream(() => true, gen).getReader();
  await reader.read();
  await reader.cancel();
  assert.equal(finished, true);
});

Deno.test("admin.endpoints.stats: a small request is answered while a big /stats streams", async () => {
  const store = new Store();
  for (let c = 0; c < 2000; c++) {
    const scope = store.scope("cluster").scope(`service_${c}`);
    for (let k = 0; k < 60; k++) scope.counter(`stat_${k}`).inc(k);
  }
  const ctx = fakeStatsContext({ store });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/ready") return new Response("LIVE\n");
    const { params, pairs } = parseQuery(url.search.slice(1));
    return STATS_HANDLERS["/stats"](
      { method: "GET", path: "/stats", params, pairs, raw: req },
      ctx,
    );
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const events: string[] = [];
    const big = await fetch(`${base}/stats`);
    const reader = big.body!.getReader();
    let bytes = (await reader.read()).value!.byteLength;
    const small = fetch(`${base}/ready`).then(async (r) => {
      events.push(`ready ${r.status} ${await r.text()}`);
    });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    events.push("stats done");
    await small;
    assert.deepEqual(events, ["ready 200 LIVE\n", "stats done"]);
    assert.ok(bytes > 3_000_000, `only ${bytes} bytes`);
  } finally {
    await server.shutdown();
  }
});
