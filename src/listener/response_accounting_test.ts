import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

const routes = (timeout: string) => ({
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o", timeout } }],
  }],
});

/**
 * A raw origin: `/big` answers 1 MiB with a content-length; `/stall` sends its head and 10 of
 * 100,000 body bytes, then nothing.
 */
function rawOrigin() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const big = new Uint8Array(1024 * 1024).fill(97);
  (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(4096);
        let got = "";
        while (!got.includes("\r\n\r\n")) {
          const n = await c.read(buf).catch(() => null);
          if (n === null) return;
          got += dec.decode(buf.subarray(0, n));
        }
        const stall = got.startsWith("GET /stall");
        const head = `HTTP/1.1 200 OK\r\ncontent-length: ${stall ? 100000 : big.length}\r\n\r\n`;
        const body = stall ? enc.encode("0123456789") : big;
        const all = new Uint8Array(head.length + body.length);
        all.set(enc.encode(head));
        all.set(body, head.length);
        try {
          for (let off = 0; off < all.length;) off += await c.write(all.subarray(off));
        } catch { /* the proxy went away */ }
      })();
    }
  })().catch(() => {});
  return {
    port: (l.addr as Deno.NetAddr).port,
    close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

async function withProxy(timeout: string, fn: (p: TestProxy) => Promise<void>) {
  const o = rawOrigin();
  const p = await startTestProxy([httpListener(routes(timeout))], [
    testCluster("o", [["127.0.0.1", o.port]]),
  ]);
  try {
    await fn(p);
  } finally {
    await p.close();
    o.close();
  }
}

async function eventually(f: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !f(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(f());
}

/** Sends `req` and reads until `bytes` body bytes after the head, or the end. */
async function fetchRaw(port: number, req: string, bytes: number, closeAfter: boolean) {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  await c.write(enc.encode(req));
  const buf = new Uint8Array(256 * 1024);
  let head = "";
  let body = 0;
  let pending = new Uint8Array(0);
  for (;;) {
    const n = await c.read(buf).catch(() => null);
    if (n === null) break;
    if (head === "") {
      const all = new Uint8Array(pending.length + n);
      all.set(pending);
      all.set(buf.subarray(0, n), pending.length);
      const text = dec.decode(all);
      const i = text.indexOf("\r\n\r\n");
      if (i < 0) {
        pending = all;
        continue;
      }
      head = text.slice(0, i);
      body += all.length - enc.encode(text.slice(0, i + 4)).length;
    } else body += n;
    if (body >= bytes) break;
  }
  if (closeAfter) c.close();
  return { head, body, close: () => c.close() };
}

Deno.test("upstream accounting: a response delivered in full is not upstream_rq_cancelled when the client closes right after the last byte", async () => {
  await withProxy("15s", async (p) => {
    const r = await fetchRaw(p.port(), "GET /big HTTP/1.1\r\nhost: a\r\n\r\n", 1024 * 1024, true);
    assert.match(r.head, /^HTTP\/1\.1 200 /);
    assert.equal(r.body, 1024 * 1024);
    const active = p.store.gauge("cluster.o.upstream_rq_active");
    await eventually(() => active.value() === 0);
    assert.equal(p.store.counter("cluster.o.upstream_rq_cancelled").value(), 0);
    assert.equal(p.store.counter("cluster.o.upstream_rq_200").value(), 1);
  });
});

Deno.test("upstream accounting: a response cut by the route timeout after its head counts upstream_rq_200, not upstream_rq_timeout", async () => {
  await withProxy("0.1s", async (p) => {
    const r = await fetchRaw(p.port(), "GET /stall HTTP/1.1\r\nhost: a\r\n\r\n", 100000, false);
    r.close();
    assert.match(r.head, /^HTTP\/1\.1 200 /);
    assert.ok(r.body < 100000);
    const active = p.store.gauge("cluster.o.upstream_rq_active");
    await eventually(() => active.value() === 0);
    assert.equal(p.store.counter("cluster.o.upstream_rq_200").value(), 1);
    assert.equal(p.store.counter("cluster.o.upstream_rq_timeout").value(), 0);
  });
});
