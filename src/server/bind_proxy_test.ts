/**
 * `upstream_bind_config` through the proxy core: HTTP and TCP proxy listeners connect to the
 * origin from the configured source address; a source address that is not on this host is a
 * connect failure; the bootstrap's `cluster_manager.upstream_bind_config` reaches clusters
 * without their own when the server starts from a bootstrap.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { parseArgs } from "../config/args.ts";
import { createLogging } from "./logger.ts";
import { startServer } from "./server.ts";
import { httpListener, startTestProxy, type TestProxy } from "../listener/test_proxy.ts";
import { testCluster } from "../upstream/test_cluster.ts";

const RESET_BODY =
  "upstream connect error or disconnect/reset before headers. reset reason: connection failure";

/** An origin on 127.0.0.1:0 that answers with the address the request came from. */
function origin() {
  return Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (_r, info) => new Response(info.remoteAddr.hostname),
  );
}

function route(prefix: string, cluster: string): JsonObject {
  return { match: { prefix }, route: { cluster } };
}

function routeConfig(...routes: JsonObject[]): JsonObject {
  return { virtual_hosts: [{ name: "all", domains: ["*"], routes }] };
}

function tcpListener(cluster: string): JsonObject {
  return {
    name: "tcp",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{ name: "envoy.tcp_proxy", config: { stat_prefix: "t", cluster } }],
    }],
  };
}

async function withProxy(
  listeners: JsonObject[],
  clusters: EffectiveCluster[],
  fn: (p: TestProxy) => Promise<void>,
) {
  const p = await startTestProxy(listeners, clusters);
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

Deno.test("cluster.fields.upstream-bind-config: HTTP through the proxy reaches the origin from the source address", async () => {
  const o = origin();
  const c = testCluster("c", [["127.0.0.1", o.addr.port]], {
    upstreamBind: { address: "127.0.0.2", port: 0 },
  });
  await withProxy([httpListener(routeConfig(route("/", "c")))], [c], async (p) => {
    const r = await fetch(`http://127.0.0.1:${p.port()}/`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "127.0.0.2");
  });
  await o.shutdown();
});

Deno.test("cluster.fields.upstream-bind-config: HTTP/2 upstream sessions start from the source address too", async () => {
  const o = origin();
  const c = testCluster("c", [["127.0.0.1", o.addr.port]], {
    upstreamBind: { address: "127.0.0.3", port: 0 },
    http2: true,
  });
  await withProxy([httpListener(routeConfig(route("/", "c")))], [c], async (p) => {
    const r = await fetch(`http://127.0.0.1:${p.port()}/`);
    assert.equal(r.status, 200);
    assert.equal(await r.text(), "127.0.0.3");
    assert.equal(p.store.counter("cluster.c.upstream_cx_http2_total").value(), 1);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.upstream-bind-config: a source address not on this host is a connect failure (503, counted), and the proxy keeps serving", async () => {
  const o = origin();
  const c = testCluster("c", [["127.0.0.1", o.addr.port]], {
    upstreamBind: { address: "192.0.2.1", port: 0 },
  });
  await withProxy([httpListener(routeConfig(route("/", "c")))], [c], async (p) => {
    for (let i = 1; i <= 2; i++) {
      const r = await fetch(`http://127.0.0.1:${p.port()}/`);
      assert.equal(r.status, 503);
      assert.equal(await r.text(), RESET_BODY);
      assert.equal(p.store.counter("cluster.c.upstream_cx_connect_fail").value(), i);
    }
    assert.equal(p.cm.get("c")!.hosts()[0].stats.cx_connect_fail.value(), 2);
    assert.equal(p.store.gauge("cluster.c.upstream_cx_active").value(), 0);
  });
  await o.shutdown();
});

/** A TCP server that writes the peer's address, then echoes until the peer half-closes. */
function addressEcho() {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const done = (async () => {
    for await (const c of l) {
      await c.write(new TextEncoder().encode(`${(c.remoteAddr as Deno.NetAddr).hostname}|`));
      await c.readable.pipeTo(c.writable).catch(() => {});
    }
  })().catch(() => {});
  return {
    port: l.addr.port,
    async close() {
      l.close();
      await done;
    },
  };
}

async function readToEnd(c: Deno.Conn): Promise<string> {
  const buf = new Uint8Array(256);
  let s = "";
  for (;;) {
    const n = await c.read(buf).catch(() => null);
    if (n === null) return s;
    s += new TextDecoder().decode(buf.subarray(0, n));
  }
}

Deno.test("cluster.fields.upstream-bind-config: a tcp_proxy listener connects from the source address", async () => {
  const e = addressEcho();
  const c = testCluster("t", [["127.0.0.1", e.port]], {
    upstreamBind: { address: "127.0.0.2", port: 0 },
  });
  await withProxy([tcpListener("t")], [c], async (p) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    await conn.write(new TextEncoder().encode("ping"));
    await conn.closeWrite();
    assert.equal(await readToEnd(conn), "127.0.0.2|ping");
    conn.close();
  });
  await e.close();
});

Deno.test("cluster.fields.upstream-bind-config: tcp_proxy with a source address not on this host counts a connect failure and closes", async () => {
  const e = addressEcho();
  const c = testCluster("t", [["127.0.0.1", e.port]], {
    upstreamBind: { address: "192.0.2.1", port: 0 },
  });
  await withProxy([tcpListener("t")], [c], async (p) => {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    assert.equal(await readToEnd(conn), "");
    conn.close();
    assert.equal(p.store.counter("cluster.t.upstream_cx_connect_fail").value(), 1);
  });
  await e.close();
});

Deno.test("cluster.fields.upstream-bind-config: from a bootstrap, cluster_manager.upstream_bind_config binds clusters without their own; a cluster's own wins", async () => {
  const o = origin();
  const member = (name: string) => ({
    cluster_name: name,
    endpoints: [{
      lb_endpoints: [{
        endpoint: {
          address: { socket_address: { address: "127.0.0.1", port_value: o.addr.port } },
        },
      }],
    }],
  });
  const options = parseArgs(["--config-yaml", "{}"]);
  const logging = createLogging(options, {
    sink: { write() {}, reopen: () => Promise.resolve(), close() {} },
  });
  const running = await startServer(options, {
    cluster_manager: {
      upstream_bind_config: { source_address: { address: "127.0.0.3", port_value: 0 } },
    },
    static_resources: {
      clusters: [
        { name: "inherits", connect_timeout: "1s", load_assignment: member("inherits") },
        {
          name: "own",
          connect_timeout: "1s",
          upstream_bind_config: {
            source_address: { socket_address: { address: "127.0.0.2", port_value: 0 } },
          },
          load_assignment: member("own"),
        },
      ],
      listeners: [httpListener(routeConfig(route("/own", "own"), route("/", "inherits")))],
    },
  }, { signals: false, logging });
  try {
    const port = running.context.listeners.listeners()[0]?.port;
    assert.ok(port);
    const own = await fetch(`http://127.0.0.1:${port}/own`);
    assert.equal(own.status, 200);
    assert.equal(await own.text(), "127.0.0.2");
    const inherits = await fetch(`http://127.0.0.1:${port}/other`);
    assert.equal(inherits.status, 200);
    assert.equal(await inherits.text(), "127.0.0.3");
  } finally {
    await running.shutdown();
    await running.finished;
    logging.close();
    await o.shutdown();
  }
});
