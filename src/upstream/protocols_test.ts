import assert from "node:assert/strict";
import { Store } from "../stats/store.ts";
import { ClusterManager } from "./cluster_manager.ts";
import { forwardResponse, testCluster, testRequest } from "./test_cluster.ts";
import type { UpstreamRequest } from "./upstream_request.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";

const tlsDir = new URL("../../fixtures/tls/", import.meta.url);
const CA = Deno.readTextFileSync(new URL("ca.pem", tlsDir));
const CERT = Deno.readTextFileSync(new URL("server.pem", tlsDir));
const KEY = Deno.readTextFileSync(new URL("server.key", tlsDir));

function req(over: Partial<UpstreamRequest> = {}): UpstreamRequest {
  return testRequest({ path: "/p?q=1", headers: [["x-test", "1"]], ...over });
}

async function run(c: EffectiveCluster, fn: (cm: ClusterManager, s: Store) => Promise<void>) {
  const store = new Store();
  const cm = new ClusterManager([c], { stats: store });
  try {
    await fn(cm, store);
  } finally {
    await cm.close();
  }
}

const echo = (r: Request) =>
  new Response(`${r.method} ${new URL(r.url).pathname} ${r.headers.get("x-test")}`);

/** An echo server on 127.0.0.1, port 0; over TLS with the fixture certificate when `tls`. */
const serveEcho = (tls: boolean) =>
  Deno.serve(
    { hostname: "127.0.0.1", port: 0, ...(tls ? { cert: CERT, key: KEY } : {}), onListen() {} },
    echo,
  );

Deno.test("cluster.fields.http2-protocol-options: HTTP/2 prior knowledge (h2c), one session, http2 counters", async () => {
  const o = serveEcho(false);
  const c = testCluster("h2", [["127.0.0.1", o.addr.port]], { http2: true });
  await run(c, async (cm, store) => {
    for (let i = 0; i < 3; i++) {
      const r = await forwardResponse(cm.get("h2")!, req());
      assert.equal(r.status, 200);
      assert.equal(await r.text(), "GET /p 1");
    }
    const post = await forwardResponse(
      cm.get("h2")!,
      req({
        method: "POST",
        body: new Blob(["abc"]).stream(),
        contentLength: 3,
      }),
    );
    assert.equal(await post.text(), "POST /p 1");
    assert.equal(store.counter("cluster.h2.upstream_cx_http2_total").value(), 1);
    assert.equal(store.counter("cluster.h2.upstream_cx_http1_total").value(), 0);
    assert.equal(store.counter("cluster.h2.upstream_rq_total").value(), 4);
    assert.equal(store.counter("cluster.h2.upstream_rq_2xx").value(), 4);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.protocol-selection: USE_DOWNSTREAM_PROTOCOL follows the downstream protocol", async () => {
  const o = serveEcho(false);
  const c = testCluster("d", [["127.0.0.1", o.addr.port]], {
    protocolSelection: "USE_DOWNSTREAM_PROTOCOL",
  });
  await run(c, async (cm, store) => {
    assert.equal((await forwardResponse(cm.get("d")!, req({ downstreamH2: true }))).status, 200);
    assert.equal((await forwardResponse(cm.get("d")!, req({ downstreamH2: false }))).status, 200);
    assert.equal(store.counter("cluster.d.upstream_cx_http2_total").value(), 1);
    assert.equal(store.counter("cluster.d.upstream_cx_http1_total").value(), 1);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.tls-context security.upstream-tls: verified against trusted_ca with SNI (HTTP/1.1 and HTTP/2)", async () => {
  const o = serveEcho(true);
  for (const http2 of [false, true]) {
    const c = testCluster("t", [["127.0.0.1", o.addr.port]], {
      http2,
      tls: { sni: "backend.example", trustedCa: [CA] },
    });
    await run(c, async (cm) => {
      const r = await forwardResponse(cm.get("t")!, req());
      assert.equal(r.status, 200, `http2=${http2}`);
      assert.equal(await r.text(), "GET /p 1");
    });
  }
  await o.shutdown();
});

Deno.test("cluster.fields.tls-context security.upstream-tls: with trusted_ca a certificate not valid for the SNI is refused", async () => {
  const o = serveEcho(true);
  const c = testCluster("t", [["127.0.0.1", o.addr.port]], {
    tls: { sni: "wrong.example", trustedCa: [CA] },
  });
  await run(c, async (cm, store) => {
    const r = await forwardResponse(cm.get("t")!, req());
    assert.equal(r.status, 503);
    assert.match(await r.text(), /connection failure/);
    assert.equal(store.counter("cluster.t.upstream_cx_connect_fail").value(), 1);
  });
  await o.shutdown();
});

Deno.test("cluster.fields.tls-context security.upstream-tls: without trusted_ca the server certificate is not verified", async () => {
  const o = serveEcho(true);
  for (const http2 of [false, true]) {
    const c = testCluster("t", [["127.0.0.1", o.addr.port]], {
      http2,
      tls: { sni: "any.example" },
    });
    await run(c, async (cm) => {
      const r = await forwardResponse(cm.get("t")!, req());
      assert.equal(r.status, 200, `http2=${http2}`);
      assert.equal(await r.text(), "GET /p 1");
    });
  }
  await o.shutdown();
});

Deno.test("cluster.fields.tls-context: a TLS handshake that never completes ends at connect_timeout", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    try {
      for await (const c of l) held.push(c);
    } catch { /* closed */ }
  })();
  const c = testCluster("t", [["127.0.0.1", l.addr.port]], {
    connectTimeoutMs: 100,
    tls: { sni: "backend.example", trustedCa: [CA] },
  });
  await run(c, async (cm, store) => {
    const r = await forwardResponse(cm.get("t")!, req());
    assert.equal(r.status, 503);
    assert.match(await r.text(), /connection failure/);
    assert.equal(store.counter("cluster.t.upstream_cx_connect_timeout").value(), 1);
    assert.equal(store.counter("cluster.t.upstream_cx_connect_fail").value(), 1);
  });
  l.close();
  for (const h of held) h.close();
  await accepting;
});

/** An HTTPS server (HTTP/1.1 and h2) that requires a client certificate signed by the test CA. */
async function serveMutualTls(): Promise<{ port: number; close(): Promise<void> }> {
  const { createSecureServer } = await import("node:http2");
  const server = createSecureServer({
    cert: CERT,
    key: KEY,
    ca: CA,
    requestCert: true,
    rejectUnauthorized: true,
    allowHTTP1: true,
  }, (rq, rs) => {
    const peer = (rq.socket as unknown as import("node:tls").TLSSocket).getPeerCertificate();
    rs.end(`client ${peer.subject?.CN}`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // Sessions kept alive by the pools close with the cluster manager.
      }),
  };
}

Deno.test("cluster.fields.tls-context: the client certificate is presented to the upstream (mTLS, HTTP/1.1 and HTTP/2)", async () => {
  const o = await serveMutualTls();
  const CLIENT = Deno.readTextFileSync(new URL("client.pem", tlsDir));
  const CLIENT_KEY = Deno.readTextFileSync(new URL("client.key", tlsDir));
  try {
    for (const http2 of [false, true]) {
      const mtls = testCluster("m", [["127.0.0.1", o.port]], {
        http2,
        tls: { sni: "backend.example", trustedCa: [CA], certChain: CLIENT, privateKey: CLIENT_KEY },
      });
      await run(mtls, async (cm) => {
        const r = await forwardResponse(cm.get("m")!, req());
        assert.equal(r.status, 200);
        assert.equal(await r.text(), "client proxyspec test client");
      });
      // Without the certificate the upstream refuses the handshake: no 200.
      const plain = testCluster("p", [["127.0.0.1", o.port]], {
        http2,
        tls: { sni: "backend.example", trustedCa: [CA] },
      });
      await run(plain, async (cm) => {
        const r = await forwardResponse(cm.get("p")!, req());
        assert.notEqual(r.status, 200);
        await r.body?.cancel();
      });
    }
  } finally {
    await o.close();
  }
});

Deno.test("cluster.fields.tls-context: alpn_protocols are offered in the TLS handshake", async () => {
  const { createServer } = await import("node:https");
  const server = createServer(
    { cert: CERT, key: KEY, ALPNProtocols: ["x-proxyspec", "http/1.1"] },
    (rq, rs) => rs.end(`alpn ${(rq.socket as import("node:tls").TLSSocket).alpnProtocol}`),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  try {
    const cases = [[["x-proxyspec"], "alpn x-proxyspec"], [undefined, "alpn http/1.1"]] as const;
    for (const [alpn, want] of cases) {
      const c = testCluster("a", [["127.0.0.1", port]], {
        tls: { sni: "backend.example", trustedCa: [CA], ...(alpn ? { alpn: [...alpn] } : {}) },
      });
      await run(c, async (cm) => {
        const r = await forwardResponse(cm.get("a")!, req());
        assert.equal(await r.text(), want);
      });
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

Deno.test("cluster.fields.http2-protocol-options: a headers-only HTTP/2 response (END_STREAM on HEADERS) ends its body", async () => {
  const http2 = await import("node:http2");
  const server = http2.createServer();
  server.on("stream", (s: import("node:http2").ServerHttp2Stream) => {
    s.respond({ ":status": 404, "x-empty": "1" }, { endStream: true });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const c = testCluster("h2e", [["127.0.0.1", port]], { http2: true });
  try {
    await run(c, async (cm, store) => {
      for (let i = 0; i < 3; i++) {
        const r = await forwardResponse(cm.get("h2e")!, req());
        assert.equal(r.status, 404);
        assert.equal(r.headers.get("x-empty"), "1");
        let timer: ReturnType<typeof setTimeout> | undefined;
        const body = await Promise.race([
          r.text(),
          new Promise<string>((resolve) => timer = setTimeout(() => resolve("<no end>"), 10_000)),
        ]);
        clearTimeout(timer);
        assert.equal(body, "");
      }
      assert.equal(store.counter("cluster.h2e.upstream_rq_404").value(), 3);
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
});
