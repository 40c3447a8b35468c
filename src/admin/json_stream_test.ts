import assert from "node:assert/strict";
import { protoJsonChunks } from "./json_stream.ts";
import { protoJson } from "../config/proto_json.ts";
import { CONFIG_DUMP_HANDLERS } from "./config_dump_handler.ts";
import { testCluster, testContext } from "./testing_context.ts";
import { parseQuery } from "./query.ts";
import { redact } from "./config_redact.ts";

Deno.test("protoJsonChunks renders the bytes protoJson does, at every depth", () => {
  const shapes: unknown[] = [
    {},
    { a: 0, b: "", c: [], d: null, e: undefined, f: false },
    { configs: [] },
    {
      configs: [{ "@type": "t", list: [1, "x", null, { y: "<z>", n: 0 }], o: { p: { q: [[]] } } }],
    },
    { "k<": [{}, [], [{ a: 1 }], "s"], deep: { a: { b: { c: { d: { e: { f: 1 } } } } } } },
    [1, undefined, () => 1, { a: undefined }],
    "just a string",
    {
      secrets: [{ name: "s", tls: { private_key: { inline_string: "k", file: { x: "y" } } } }],
      password: "p",
      deep: { a: { b: { c: { d: { password: { inline_bytes: "z" } } } } } },
    },
    42,
    {
      a: {
        b: {
          long: Array.from(
            { length: 200 },
            (_, i) => ({ n: i, z: 0, s: i % 2 ? "<" : "", password: "p" }),
          ),
          holes: Array.from({ length: 40 }, (_, i) => i % 3 ? i : undefined),
        },
      },
    },
  ];
  for (const m of shapes) {
    for (const depth of [0, 1, 2, 3, 6]) {
      assert.equal([...protoJsonChunks(m, { depth })].join(""), protoJson(m), JSON.stringify(m));
      assert.equal(
        [...protoJsonChunks(m, { depth, redact: true })].join(""),
        protoJson(redact(m)),
        JSON.stringify(m),
      );
    }
  }
});

Deno.test("admin.endpoints.config_dump: a large member below the walked depth is still rendered a small piece at a time", () => {
  // The bootstrap's 10,000 clusters sit deeper than the walked levels of a /config_dump.
  const m = {
    a: { b: { c: { clusters: Array.from({ length: 1000 }, (_, i) => ({ name: `c${i}` })) } } },
  };
  const pieces = [...protoJsonChunks(m, { depth: 1 })];
  assert.equal(pieces.join(""), protoJson(m));
  assert.ok(pieces.length > 1000, `${pieces.length} pieces`);
  assert.ok(Math.max(...pieces.map((p) => p.length)) < 100);
});

Deno.test("admin.endpoints.config_dump: /ready is answered while a 10,000-cluster /config_dump streams", async () => {
  const clusters = Array.from(
    { length: 10_000 },
    (_, i) =>
      testCluster(`service_${i}`, [], {
        name: `service_${i}`,
        connect_timeout: "1s",
        metadata: { filter_metadata: { m: { owner: `team_${i % 50}`, note: "x".repeat(64) } } },
      }),
  );
  const ctx = testContext({ clusters });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/ready") return new Response("LIVE\n");
    const { params, pairs } = parseQuery(url.search.slice(1));
    return CONFIG_DUMP_HANDLERS["/config_dump"](
      { method: "GET", path: "/config_dump", params, pairs, raw: req },
      ctx,
    );
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const events: string[] = [];
    const big = await fetch(`${base}/config_dump`);
    const reader = big.body!.getReader();
    const dec = new TextDecoder();
    let text = dec.decode((await reader.read()).value!, { stream: true });
    const small = fetch(`${base}/ready`).then(async (r) => {
      events.push(`ready ${r.status} ${await r.text()}`);
    });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += dec.decode(value, { stream: true });
    }
    events.push("config_dump done");
    await small;
    assert.deepEqual(events, ["ready 200 LIVE\n", "config_dump done"]);
    const dump = JSON.parse(text + dec.decode());
    const clustersDump = dump.configs.find((c: { "@type": string }) =>
      c["@type"].endsWith("ClustersConfigDump")
    );
    assert.equal(clustersDump.static_clusters.length, 10_000);
  } finally {
    await server.shutdown();
  }
});

Deno.test("admin.endpoints.config_dump: a 10,000-cluster dump is serialized with event-loop turns between slices", async () => {
  const clusters = Array.from(
    { length: 10_000 },
    (_, i) => testCluster(`service_${i}`, [], { name: `service_${i}`, connect_timeout: "1s" }),
  );
  const ctx = testContext({ clusters });
  const params = new Map<string, string>();
  const res = await CONFIG_DUMP_HANDLERS["/config_dump"](
    { method: "GET", path: "/config_dump", params, pairs: [], raw: new Request("http://a/") },
    ctx,
  );
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const text = await res.text();
  done = true;
  assert.ok(text.includes('"service_9999"'));
  assert.ok(turns >= 2, `the event loop ran ${turns} times while the dump was written`);
});
