import assert from "node:assert/strict";
import http2 from "node:http2";
import https from "node:https";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { effectiveCluster } from "../config/effective_cluster.ts";
import { clusterSupportErrors } from "../config/support_check.ts";
import { protocolCluster } from "../config/protocol_test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { routeAllTo } from "./test_origins.ts";

const TLS_DIR = new URL("../../fixtures/tls/", import.meta.url);
const key = Deno.readTextFileSync(new URL("server.key", TLS_DIR));
const cert = Deno.readTextFileSync(new URL("server.pem", TLS_DIR));

/** A TLS transport socket trusting the test CA. */
const TLS_SOCKET: JsonObject = {
  transport_socket: {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
      common_tls_context: {
        validation_context: { trusted_ca: { filename: new URL("ca.pem", TLS_DIR).pathname } },
      },
    },
  },
};

/** A TLS origin answering with the HTTP version it served: HTTP/2 only, or HTTP/1.1 only. */
async function tlsOrigin(h2: boolean) {
  const handshakes: (string | false)[] = [];
  const server = h2 ? http2.createSecureServer({ key, cert }) : https.createServer({ key, cert });
  server.on("request", (req: { httpVersion: string }, res: { end(s: string): void }) => {
    res.end(`HTTP/${req.httpVersion}`);
  });
  server.on("secureConnection", (s: { alpnProtocol: string | false }) => {
    handshakes.push(s.alpnProtocol);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    handshakes,
    close: () =>
      new Promise<void>((r) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

const AUTO: JsonObject = { auto_config: { http2_protocol_options: {} } };

Deno.test("upstreams.HttpProtocolOptions.auto_config: each host speaks what its TLS handshake chooses by ALPN (HTTP/2 with h2, else HTTP/1.1)", async () => {
  for (const h2 of [true, false]) {
    const o = await tlsOrigin(h2);
    const p = await startTestProxy([httpListener(routeAllTo("o"))], [
      effectiveCluster(protocolCluster(o.port, AUTO, TLS_SOCKET)),
    ]);
    try {
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`http://127.0.0.1:${p.port()}/`);
        assert.equal(await r.text(), h2 ? "HTTP/2.0" : "HTTP/1.1");
      }
      // The host was asked once, offering h2 and http/1.1; the requests' own connections then
      // offered the protocol chosen.
      assert.equal(o.handshakes[0], h2 ? "h2" : "http/1.1");
      const counter = h2 ? "upstream_cx_http2_total" : "upstream_cx_http1_total";
      assert.equal(p.store.counter(`cluster.o.${counter}`).value(), 1);
    } finally {
      await p.close();
      await o.close();
    }
  }
});

Deno.test("upstreams.HttpProtocolOptions.auto_config: refused with its path on a cluster without a TLS transport socket, as Envoy refuses ALPN without it", () => {
  const errors = clusterSupportErrors([protocolCluster(1, AUTO)], "clusters");
  assert.deepEqual(errors.map((e) => e.path), [
    "clusters[0].typed_extension_protocol_options.envoy.extensions.upstreams.http.v3.HttpProtocolOptions.auto_config",
  ]);
  assert.match(
    errors[0].message,
    /^ALPN configured for cluster o which has a non-ALPN transport socket/,
  );
  assert.deepEqual(clusterSupportErrors([protocolCluster(1, AUTO, TLS_SOCKET)], "clusters"), []);
  const h3 = { auto_config: { http3_protocol_options: {} } };
  assert.match(
    clusterSupportErrors([protocolCluster(1, h3, TLS_SOCKET)], "clusters")[0].message,
    /http3_protocol_options is not supported by this build/,
  );
});
