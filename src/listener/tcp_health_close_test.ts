import assert from "node:assert/strict";
import { testCluster } from "../upstream/test_cluster.ts";
import { startTestProxy } from "./test_proxy.ts";
import type { JsonObject } from "../config/bootstrap_types.ts";

function tcpListener(cluster: string): JsonObject {
  return {
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "proxy.filters.network.tcp_proxy",
        typed_config: {
          "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
          stat_prefix: "echo",
          cluster,
        },
      }],
    }],
  };
}

function echoServer() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const done = (async () => {
    for await (const c of l) {
      conns.push(c);
      c.readable.pipeTo(c.writable).catch(() => {});
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

async function echoes(c: Deno.Conn): Promise<boolean> {
  await c.write(new TextEncoder().encode("ping"));
  const buf = new Uint8Array(4);
  let got = 0;
  while (got < 4) {
    const n = await c.read(buf.subarray(got)).catch(() => null);
    if (n === null) return false;
    got += n;
  }
  return new TextDecoder().decode(buf) === "ping";
}

Deno.test("cluster.fields.close-connections-on-host-health-failure: the TCP proxy's connections to a host that turns unhealthy close at once, and only with the setting", async () => {
  for (const close of [true, false]) {
    const echo = echoServer();
    const p = await startTestProxy([tcpListener("echo")], [
      testCluster("echo", [["127.0.0.1", echo.port]], {
        closeConnectionsOnHostHealthFailure: close,
      }),
    ]);
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    try {
      assert.ok(await echoes(c), "the connection works");
      const host = p.cm.get("echo")!.hosts()[0];
      assert.equal(host.tcpConnections.size, 1);
      host.setFlag("failed_outlier_check", true);
      if (close) {
        const n = await c.read(new Uint8Array(16)).catch(() => null);
        assert.equal(n, null, "closed by the proxy");
        for (let i = 0; i < 200 && host.tcpConnections.size > 0; i++) {
          await new Promise((r) => setTimeout(r, 5));
        }
        assert.equal(host.tcpConnections.size, 0);
      } else {
        assert.ok(await echoes(c), "without the setting the connection stays");
      }
    } finally {
      try {
        c.close();
      } catch { /* closed */ }
      await p.close();
      await echo.close();
    }
  }
});
