import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function tcpListener(cluster: string, v2 = false): JsonObject {
  return {
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [
        v2 ? { name: "envoy.tcp_proxy", config: { stat_prefix: "echo", cluster } } as JsonObject : {
          name: "proxy.filters.network.tcp_proxy",
          typed_config: {
            "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
            stat_prefix: "echo",
            cluster,
          },
        },
      ],
    }],
  };
}

function echoServer() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const done = (async () => {
    for await (const c of l) {
      conns.push(c);
      (async () => {
        try {
          await c.readable.pipeTo(c.writable);
        } catch { /* closed */ }
      })();
    }
  })();
  return {
    port: l.addr.port,
    async close() {
      l.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      await done;
    },
  };
}

async function readN(c: Deno.Conn, n: number): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const r = await c.read(out.subarray(got));
    if (r === null) break;
    got += r;
  }
  return out.subarray(0, got);
}

for (const v2 of [false, true]) {
  Deno.test(`listener tcp_proxy echoes bytes both ways (${v2 ? "v2 config" : "v3 typed_config"}) and counts`, async () => {
    const e = echoServer();
    const p = await startTestProxy([tcpListener("echo", v2)], [
      testCluster("echo", [["127.0.0.1", e.port]]),
    ]);
    try {
      const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
      const payload = new Uint8Array(300_000).map((_, i) => i % 256);
      const writing = (async () => {
        let off = 0;
        while (off < payload.length) off += await c.write(payload.subarray(off));
      })();
      const back = await readN(c, payload.length);
      await writing;
      c.close();
      assert.equal(back.length, payload.length);
      assert.deepEqual(back.subarray(0, 1000), payload.subarray(0, 1000));
      assert.equal(back[payload.length - 1], payload[payload.length - 1]);
      assert.equal(p.store.counter("tcp.echo.downstream_cx_total").value(), 1);
      assert.equal(p.store.counter("cluster.echo.upstream_cx_total").value(), 1);
      assert.equal(
        p.store.counter(`listener.127.0.0.1_${p.port()}.downstream_cx_total`).value(),
        1,
      );
    } finally {
      await p.close();
      await e.close();
    }
    assert.equal(p.store.gauge("cluster.echo.upstream_cx_active").value(), 0);
  });
}

Deno.test("listener tcp_proxy closes the downstream when the upstream cannot be reached", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const dead = l.addr.port;
  l.close();
  const p = await startTestProxy([tcpListener("gone")], [
    testCluster("gone", [["127.0.0.1", dead]]),
  ]);
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    const r = await c.read(new Uint8Array(10));
    assert.equal(r, null);
    c.close();
    assert.equal(p.store.counter("cluster.gone.upstream_cx_connect_fail").value(), 1);
  } finally {
    await p.close();
  }
});
