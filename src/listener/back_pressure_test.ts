import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy, type TestProxy } from "./test_proxy.ts";

const enc = new TextEncoder();
const MIB = 1024 * 1024;
const TOTAL = 100 * MIB;

const routes = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "o", timeout: "0s" } }],
  }],
};

/**
 * A raw origin. `download`: after the request head it writes a 100 MB body as fast as the
 * socket takes it, counting what it wrote. Otherwise it reads the head and then nothing.
 */
function origin(download: boolean) {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const stats = { written: 0 };
  (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        const buf = new Uint8Array(4096);
        let got = "";
        while (!got.includes("\r\n\r\n")) {
          const n = await c.read(buf).catch(() => null);
          if (n === null) return;
          got += new TextDecoder().decode(buf.subarray(0, n));
        }
        if (!download) return; // never reads the body
        await c.write(enc.encode(`HTTP/1.1 200 OK\r\ncontent-length: ${TOTAL}\r\n\r\n`));
        const chunk = new Uint8Array(64 * 1024).fill(120);
        while (stats.written < TOTAL) {
          const n = await c.write(chunk).catch(() => null);
          if (n === null) return;
          stats.written += n;
        }
      })().catch(() => {});
    }
  })().catch(() => {});
  let closed = false;
  return {
    port: (l.addr as Deno.NetAddr).port,
    stats,
    close() {
      if (closed) return;
      closed = true;
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function withProxy(
  download: boolean,
  fn: (p: TestProxy, o: ReturnType<typeof origin>) => Promise<void>,
) {
  const o = origin(download);
  const p = await startTestProxy([httpListener(routes)], [
    testCluster("o", [["127.0.0.1", o.port]]),
  ]);
  try {
    await fn(p, o);
  } finally {
    await p.close();
    o.close();
  }
}

Deno.test("limits.per-connection-buffer-limit-bytes: a client reading a 100 MB response slowly makes the proxy hold only a few buffers of it", async () => {
  await withProxy(true, async (p, o) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    try {
      await c.write(enc.encode("GET / HTTP/1.1\r\nhost: a\r\n\r\n"));
      const buf = new Uint8Array(16 * 1024);
      let read = 0;
      for (let i = 0; i < 60; i++) {
        const n = await c.read(buf);
        assert.ok(n !== null);
        read += n;
        await pause(2);
      }
      const rx = p.store.counter("cluster.o.upstream_cx_rx_bytes_total").value();
      const tx = p.store.counter("http.test.downstream_cx_tx_bytes_total").value();
      assert.ok(rx > 0 && tx >= read, `rx ${rx} tx ${tx} read ${read}`);
      assert.ok(rx - tx < 4 * MIB, `the proxy holds ${rx - tx} bytes read but not delivered`);
      assert.ok(o.stats.written < TOTAL, "the origin was slowed down by the slow client");
    } finally {
      c.close();
    }
  });
});

Deno.test("limits.per-connection-buffer-limit-bytes: an upstream that does not read an upload makes the proxy hold only a few buffers of it", async () => {
  await withProxy(false, async (p, o) => {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    let sent = 0;
    const writing = (async () => {
      await c.write(enc.encode(`POST / HTTP/1.1\r\nhost: a\r\ncontent-length: ${TOTAL}\r\n\r\n`));
      const chunk = new Uint8Array(64 * 1024).fill(121);
      while (sent < TOTAL) sent += await c.write(chunk);
    })().catch(() => {});
    try {
      // Wait until the client can send no more: every buffer on the way is full.
      let last = -1;
      for (let i = 0; i < 400 && sent !== last; i++) {
        last = sent;
        await pause(20);
      }
      const rx = p.store.counter("http.test.downstream_cx_rx_bytes_total").value();
      const tx = p.store.counter("cluster.o.upstream_cx_tx_bytes_total").value();
      assert.ok(rx > 0, "the proxy read some of the upload");
      assert.ok(rx - tx < 4 * MIB, `the proxy holds ${rx - tx} bytes read but not sent on`);
      assert.ok(sent < TOTAL, "the client was slowed down by the upstream");
    } finally {
      // The origin goes away first: the proxy then ends the exchange, and the client's pending
      // write ends with it.
      o.close();
      c.close();
      await writing;
    }
  });
});
