import assert from "node:assert/strict";
import {
  listenerPort,
  proxyBootstrap,
  startProxyProcess,
  statsOf,
} from "./testing_proxy_process.ts";

const TLS = new URL("../../fixtures/tls/", import.meta.url);

Deno.test("cli.options.concurrency: a TLS listener (port 0) is bound by every worker, and HTTPS requests reach both", async () => {
  const o = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok\n"),
  );
  const bootstrap = proxyBootstrap(o.addr.port) as {
    static_resources: { listeners: { filter_chains: Record<string, unknown>[] }[] };
  };
  bootstrap.static_resources.listeners[0].filter_chains[0].transport_socket = {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
      common_tls_context: {
        tls_certificates: [{
          certificate_chain: { filename: new URL("server.pem", TLS).pathname },
          private_key: { filename: new URL("server.key", TLS).pathname },
        }],
      },
    },
  };
  const p = await startProxyProcess(bootstrap, ["--concurrency", "2"]);
  const client = Deno.createHttpClient({
    caCerts: [await Deno.readTextFile(new URL("ca.pem", TLS))],
  });
  try {
    const port = await listenerPort(p.admin);
    const N = 24;
    const bodies = await Promise.all(Array.from({ length: N }, async () => {
      // A new connection per request, so that connections spread over the workers.
      const c = Deno.createHttpClient({
        caCerts: [await Deno.readTextFile(new URL("ca.pem", TLS))],
        poolMaxIdlePerHost: 0,
      });
      try {
        return await (await fetch(`https://localhost:${port}/`, { client: c })).text();
      } finally {
        c.close();
      }
    }));
    assert.deepEqual(bodies, new Array(N).fill("ok\n"));
    const stats = await statsOf(p.admin);
    const l = `listener.127.0.0.1_${port}`;
    const w0 = stats.get(`${l}.worker_0.downstream_cx_total`) ?? 0;
    const w1 = stats.get(`${l}.worker_1.downstream_cx_total`) ?? 0;
    assert.equal(w0 + w1, N, [...stats].filter(([k]) => k.startsWith(l)).join(" "));
    assert.ok(w0 > 0 && w1 > 0, `connections reached both workers: ${w0} and ${w1}`);
  } finally {
    client.close();
    await p.stop();
    await o.shutdown();
  }
});
