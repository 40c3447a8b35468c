import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, rawExchange, startTestProxy } from "./test_proxy.ts";

const routes = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
  }],
};

async function withProxy(fn: (port: number, seen: string[]) => Promise<void>) {
  const seen: string[] = [];
  const o = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (r) => {
    let body = "";
    try {
      body = await r.text();
    } catch {
      body = "<body error>";
    }
    seen.push(`${r.method} ${new URL(r.url).pathname} ${body}`);
    return new Response("ok");
  });
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("o", [["127.0.0.1", o.addr.port]]),
  ]);
  try {
    await fn(p.port(), seen);
  } finally {
    await p.close();
    await o.shutdown();
  }
}

const status = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);

Deno.test("listener request smuggling: content-length with transfer-encoding is rejected with 400, nothing forwarded", async () => {
  await withProxy(async (port, seen) => {
    const raw = await rawExchange(
      port,
      "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n" +
        "0\r\n\r\nGET /smuggled HTTP/1.1\r\nhost: a\r\n\r\n",
    );
    assert.equal(status(raw), 400, raw);
    assert.ok(!raw.includes("HTTP/1.1 200"), raw);
    assert.deepEqual(seen, []);
  });
});

Deno.test("listener request smuggling: differing duplicate content-length is rejected with 400", async () => {
  await withProxy(async (port, seen) => {
    const raw = await rawExchange(
      port,
      "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\nhelloX",
    );
    assert.equal(status(raw), 400, raw);
    assert.deepEqual(seen, []);
  });
});

Deno.test("listener request smuggling: a bad chunk size never reaches the upstream as a request", async () => {
  await withProxy(async (port, seen) => {
    const raw = await rawExchange(
      port,
      "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n" +
        "GET /smuggled HTTP/1.1\r\nhost: a\r\n\r\n",
    );
    assert.ok(raw === "" || status(raw) === 400, raw);
    assert.ok(!seen.some((s) => s.includes("/smuggled")), JSON.stringify(seen));
    assert.ok(!seen.some((s) => s.startsWith("POST / hello")), JSON.stringify(seen));
  });
});

Deno.test("listener malformed requests: bad request line, header without colon, unknown transfer-encoding get 400", async () => {
  await withProxy(async (port, seen) => {
    for (
      const bytes of [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nhost: a\r\nno-colon-here\r\n\r\n",
        "POST / HTTP/1.1\r\nhost: a\r\ntransfer-encoding: gzip\r\n\r\n",
        "GET / HTTP/1.1\r\nhost: a\r\ncontent-length: abc\r\n\r\n",
      ]
    ) {
      const raw = await rawExchange(port, bytes);
      assert.ok(
        raw === "" || status(raw) === 400 || status(raw) === 501,
        `${JSON.stringify(bytes)} -> ${raw}`,
      );
    }
    assert.deepEqual(seen, []);
  });
});

Deno.test("listener keep-alive downstream: two pipelined requests are both answered", async () => {
  await withProxy(async (port, seen) => {
    const raw = await rawExchange(
      port,
      "GET /one HTTP/1.1\r\nhost: a\r\n\r\nGET /two HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n",
      65536,
    );
    assert.ok(raw.includes("HTTP/1.1 200"), raw);
    assert.deepEqual(seen.map((s) => s.split(" ")[1]).slice(0, 1), ["/one"]);
  });
});
