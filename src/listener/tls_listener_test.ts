import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { rawExchange, startTestProxy } from "./test_proxy.ts";

const DIR = new URL("../../fixtures/tls/", import.meta.url).pathname;
const pem = (f: string) => Deno.readTextFileSync(DIR + f);
const CA = pem("ca.pem");
const TLS_NAME = "envoy.transport_sockets.tls";
const TLS_TYPE =
  "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext";

/** An origin answering with its name, the request's x-forwarded-proto and path. */
function origin(name: string) {
  const s = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) =>
      new Response(`${name} ${req.headers.get("x-forwarded-proto")} ${new URL(req.url).pathname}`),
  );
  return { port: s.addr.port, close: () => s.shutdown() };
}

function hcm(cluster: string): JsonObject {
  return {
    name: "envoy.filters.network.http_connection_manager",
    typed_config: {
      "@type":
        "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
      stat_prefix: cluster,
      route_config: {
        virtual_hosts: [{
          name: "all",
          domains: ["*"],
          routes: [{ match: { prefix: "/" }, route: { cluster } }],
        }],
      },
      http_filters: [{ name: "envoy.filters.http.router" }],
    },
  };
}

function tlsSocket(ctx: JsonObject, cert = "server"): JsonObject {
  const common = (ctx.common_tls_context ?? {}) as JsonObject;
  return {
    name: TLS_NAME,
    typed_config: {
      "@type": TLS_TYPE,
      ...ctx,
      common_tls_context: {
        tls_certificates: [{
          certificate_chain: { filename: `${DIR}${cert}.pem` },
          private_key: { filename: `${DIR}${cert}.key` },
        }],
        ...common,
      },
    },
  };
}

function listener(chains: JsonObject[], extra: JsonObject = {}): JsonObject {
  return {
    name: "tls",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: chains,
    ...extra,
  };
}

async function httpsGet(
  port: number,
  opts: { sni?: string; alpn?: string[]; cert?: string } = {},
): Promise<{ alpn: string | null; text: string }> {
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port });
  const c = await Deno.startTls(tcp, {
    hostname: opts.sni ?? "localhost",
    caCerts: [CA],
    ...(opts.alpn ? { alpnProtocols: opts.alpn } : {}),
  });
  try {
    const h = await c.handshake();
    await c.write(
      new TextEncoder().encode("GET /hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
    );
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const b = new Uint8Array(4096);
    for (;;) {
      const n = await c.read(b);
      if (n === null) break;
      chunks.push(b.slice(0, n));
    }
    return { alpn: h.alpnProtocol, text: new TextDecoder().decode(await new Blob(chunks).bytes()) };
  } finally {
    try {
      c.close();
    } catch { /* closed */ }
  }
}

/** Connects with an optional client certificate; resolves to the answer, or "" when closed. */
async function mtlsGet(port: number, client: string | null): Promise<string> {
  const cc = client ? { cert: pem(`${client}.pem`), key: pem(`${client}.key`) } : {};
  try {
    const c = await Deno.connectTls({ hostname: "localhost", port, caCerts: [CA], ...cc });
    try {
      await c.handshake();
      await c.write(
        new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
      );
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      const b = new Uint8Array(4096);
      for (;;) {
        const n = await c.read(b);
        if (n === null) break;
        chunks.push(b.slice(0, n));
      }
      return new TextDecoder().decode(await new Blob(chunks).bytes());
    } finally {
      try {
        c.close();
      } catch { /* closed */ }
    }
  } catch {
    return "";
  }
}

Deno.test("downstream TLS: HTTPS through a TLS filter chain, x-forwarded-proto https, ssl stats", async () => {
  const o = origin("a");
  const p = await startTestProxy([
    listener([{ filters: [hcm("a")], transport_socket: tlsSocket({}) }]),
  ], [
    testCluster("a", [["127.0.0.1", o.port]]),
  ]);
  try {
    const r = await httpsGet(p.port());
    assert.match(r.text, /^HTTP\/1\.1 200/);
    assert.match(r.text, /a https \/hello$/);
    const ls = `listener.127.0.0.1_${p.port()}`;
    assert.equal(p.store.counter(`${ls}.ssl.handshake`).value(), 1);
    assert.equal(p.store.counter(`${ls}.downstream_cx_total`).value(), 1);
    assert.equal(p.store.counter("http.a.downstream_cx_total").value(), 1);
    // Plain HTTP on a TLS chain is a failed handshake.
    const plain = await rawExchange(p.port(), "GET / HTTP/1.1\r\nhost: x\r\n\r\n");
    assert.doesNotMatch(plain, /200/);
    assert.equal(p.store.counter(`${ls}.ssl.connection_error`).value(), 1);
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("downstream TLS: alpn_protocols h2 and http/1.1, HTTP/2 over TLS by ALPN", async () => {
  const o = origin("a");
  const p = await startTestProxy([
    listener([{
      filters: [hcm("a")],
      transport_socket: tlsSocket({ common_tls_context: { alpn_protocols: ["h2", "http/1.1"] } }),
    }]),
  ], [testCluster("a", [["127.0.0.1", o.port]])]);
  try {
    const r = await httpsGet(p.port(), { alpn: ["http/1.1"] });
    assert.equal(r.alpn, "http/1.1");
    assert.match(r.text, /a https \/hello$/);
    const client = Deno.createHttpClient({ caCerts: [CA], http1: false, http2: true });
    try {
      const res = await fetch(`https://localhost:${p.port()}/h2`, { client });
      assert.equal(await res.text(), "a https /h2");
    } finally {
      client.close();
    }
    const tcp = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    const c = await Deno.startTls(tcp, {
      hostname: "localhost",
      caCerts: [CA],
      alpnProtocols: ["h2"],
    });
    assert.equal((await c.handshake()).alpnProtocol, "h2");
    c.close();
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("downstream TLS: require_client_certificate with trusted_ca refuses no certificate and a foreign CA's", async () => {
  const o = origin("a");
  const ctx = {
    require_client_certificate: true,
    common_tls_context: { validation_context: { trusted_ca: { filename: `${DIR}ca.pem` } } },
  };
  const p = await startTestProxy([
    listener([{ filters: [hcm("a")], transport_socket: tlsSocket(ctx) }]),
  ], [
    testCluster("a", [["127.0.0.1", o.port]]),
  ]);
  try {
    assert.match(await mtlsGet(p.port(), "client"), /a https \/$/);
    assert.equal(await mtlsGet(p.port(), null), "");
    assert.equal(await mtlsGet(p.port(), "rogue_client"), "");
    const ssl = `listener.127.0.0.1_${p.port()}.ssl`;
    assert.equal(p.store.counter(`${ssl}.handshake`).value(), 1);
    assert.equal(p.store.counter(`${ssl}.fail_verify_no_cert`).value(), 1);
    assert.equal(p.store.counter(`${ssl}.fail_verify_error`).value(), 1);
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("downstream TLS: without require_client_certificate a missing certificate is counted, SAN matchers refuse", async () => {
  const o = origin("a");
  const optional = {
    common_tls_context: { validation_context: { trusted_ca: { filename: `${DIR}ca.pem` } } },
  };
  const san = {
    common_tls_context: {
      validation_context: {
        trusted_ca: { filename: `${DIR}ca.pem` },
        match_typed_subject_alt_names: [{
          san_type: "URI",
          matcher: { exact: "spiffe://ns/client" },
        }],
      },
    },
  };
  const plainSan = {
    common_tls_context: {
      validation_context: {
        trusted_ca: { filename: `${DIR}ca.pem` },
        match_subject_alt_names: [{ suffix: ".example" }],
      },
    },
  };
  const p = await startTestProxy([
    listener([{ filters: [hcm("a")], transport_socket: tlsSocket(optional) }]),
    { ...listener([{ filters: [hcm("a")], transport_socket: tlsSocket(san) }]), name: "san" },
    { ...listener([{ filters: [hcm("a")], transport_socket: tlsSocket(plainSan) }]), name: "san2" },
  ], [testCluster("a", [["127.0.0.1", o.port]])]);
  try {
    assert.match(await mtlsGet(p.port(0), null), /a https/);
    assert.equal(p.store.counter(`listener.127.0.0.1_${p.port(0)}.ssl.no_certificate`).value(), 1);
    assert.equal(await mtlsGet(p.port(1), "client"), "");
    assert.equal(p.store.counter(`listener.127.0.0.1_${p.port(1)}.ssl.fail_verify_san`).value(), 1);
    assert.equal(await mtlsGet(p.port(2), "client"), "");
    assert.equal(p.store.counter(`listener.127.0.0.1_${p.port(2)}.ssl.fail_verify_san`).value(), 1);
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("downstream TLS: tls_params bound the TLS version", async () => {
  const o = origin("a");
  const ctx = { common_tls_context: { tls_params: { tls_maximum_protocol_version: "TLSv1_2" } } };
  const p = await startTestProxy([
    listener([{ filters: [hcm("a")], transport_socket: tlsSocket(ctx) }]),
  ], [
    testCluster("a", [["127.0.0.1", o.port]]),
  ]);
  try {
    assert.match((await httpsGet(p.port())).text, /a https/);
    const ls = `listener.127.0.0.1_${p.port()}`;
    assert.equal(p.store.counter(`${ls}.ssl.versions.TLSv1.2`).value(), 1);
    assert.equal(p.store.counter(`${ls}.ssl.versions.TLSv1.3`).value(), 0);
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("filter_chain_match: server_names choose the chain and its certificate, default_filter_chain takes plain text, tls_inspector stats", async () => {
  const [a, b, d] = [origin("a"), origin("b"), origin("d")];
  const p = await startTestProxy([
    listener([
      {
        filter_chain_match: { server_names: ["backend.example"] },
        filters: [hcm("a")],
        transport_socket: tlsSocket({}),
      },
      {
        filter_chain_match: { server_names: ["*.wild.example"] },
        filters: [hcm("b")],
        transport_socket: tlsSocket({}, "other"),
      },
    ], {
      listener_filters: [{ name: "envoy.filters.listener.tls_inspector" }],
      default_filter_chain: { filters: [hcm("d")] },
    }),
  ], [
    testCluster("a", [["127.0.0.1", a.port]]),
    testCluster("b", [["127.0.0.1", b.port]]),
    testCluster("d", [["127.0.0.1", d.port]]),
  ]);
  try {
    assert.match((await httpsGet(p.port(), { sni: "backend.example" })).text, /a https/);
    assert.match(
      (await httpsGet(p.port(), { sni: "x.wild.example", alpn: ["http/1.1"] })).text,
      /b https/,
    );
    const plain = await rawExchange(p.port(), "GET /p HTTP/1.1\r\nhost: x\r\n\r\n");
    assert.match(plain, /d http \/p$/);
    assert.equal(p.store.counter("tls_inspector.tls_found").value(), 2);
    assert.equal(p.store.counter("tls_inspector.tls_not_found").value(), 1);
    assert.equal(p.store.counter("tls_inspector.sni_found").value(), 2);
    assert.equal(p.store.counter("tls_inspector.alpn_found").value(), 1);
    assert.equal(p.store.counter("tls_inspector.alpn_not_found").value(), 1);
  } finally {
    await p.close();
    for (const o of [a, b, d]) await o.close();
  }
});

Deno.test("filter_chain_match: a connection no chain matches is closed and counted as no_filter_chain_match", async () => {
  const a = origin("a");
  const p = await startTestProxy([
    listener([{
      filter_chain_match: { transport_protocol: "tls" },
      filters: [hcm("a")],
      transport_socket: tlsSocket({}),
    }], { listener_filters: [{ name: "proxy.filters.listener.tls_inspector" }] }),
  ], [testCluster("a", [["127.0.0.1", a.port]])]);
  try {
    assert.equal(await rawExchange(p.port(), "GET / HTTP/1.1\r\nhost: x\r\n\r\n"), "");
    assert.equal(
      p.store.counter(`listener.127.0.0.1_${p.port()}.no_filter_chain_match`).value(),
      1,
    );
    assert.match((await httpsGet(p.port())).text, /a https/);
  } finally {
    await p.close();
    await a.close();
  }
});

Deno.test("filter_chain_match: http_inspector sets the application protocol of plain connections", async () => {
  const [a, b] = [origin("a"), origin("b")];
  const p = await startTestProxy([
    listener([
      { filter_chain_match: { application_protocols: ["http/1.0"] }, filters: [hcm("a")] },
      { filters: [hcm("b")] },
    ], { listener_filters: [{ name: "envoy.filters.listener.http_inspector" }] }),
  ], [testCluster("a", [["127.0.0.1", a.port]]), testCluster("b", [["127.0.0.1", b.port]])]);
  try {
    assert.match(await rawExchange(p.port(), "GET /x HTTP/1.0\r\nhost: x\r\n\r\n"), /a http \/x/);
    assert.match(await rawExchange(p.port(), "GET /y HTTP/1.1\r\nhost: x\r\n\r\n"), /b http \/y/);
    assert.equal(p.store.counter("http_inspector.http10_found").value(), 1);
    assert.equal(p.store.counter("http_inspector.http11_found").value(), 1);
  } finally {
    await p.close();
    await a.close();
    await b.close();
  }
});

Deno.test("downstream TLS: tcp_proxy over a TLS listener", async () => {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const echo = (async () => {
    for await (const c of l) c.readable.pipeTo(c.writable).catch(() => {});
  })();
  const p = await startTestProxy([
    listener([{
      filters: [{
        name: "envoy.filters.network.tcp_proxy",
        typed_config: { stat_prefix: "e", cluster: "e" },
      }],
      transport_socket: tlsSocket({}),
    }]),
  ], [testCluster("e", [["127.0.0.1", l.addr.port]])]);
  try {
    const c = await Deno.connectTls({ hostname: "localhost", port: p.port(), caCerts: [CA] });
    await c.write(new TextEncoder().encode("ping over tls"));
    const b = new Uint8Array(64);
    const n = await c.read(b);
    assert.equal(new TextDecoder().decode(b.subarray(0, n ?? 0)), "ping over tls");
    c.close();
    assert.equal(p.store.counter("tcp.e.downstream_cx_total").value(), 1);
  } finally {
    await p.close();
    l.close();
    await echo;
  }
});

Deno.test("downstream TLS: v2 tls_context on a filter chain, and require_sni", async () => {
  const o = origin("a");
  const ctx = {
    common_tls_context: {
      tls_certificates: [{
        certificate_chain: { inline_string: pem("server.pem") },
        private_key: { inline_string: pem("server.key") },
      }],
    },
  };
  const p = await startTestProxy([
    listener([{ filters: [hcm("a")], tls_context: ctx }]),
    {
      ...listener([{ filters: [hcm("a")], tls_context: { ...ctx, require_sni: true } }]),
      name: "sni",
    },
  ], [testCluster("a", [["127.0.0.1", o.port]])]);
  try {
    assert.match((await httpsGet(p.port(0))).text, /a https/);
    assert.match((await httpsGet(p.port(1), { sni: "localhost" })).text, /a https/);
    // An IP address as the server name sends no SNI.
    await assert.rejects(httpsGet(p.port(1), { sni: "127.0.0.1" }));
    assert.equal(
      p.store.counter(`listener.127.0.0.1_${p.port(1)}.ssl.connection_error`).value(),
      1,
    );
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("listener filters: listener_filters_timeout closes a silent connection; continue_on_listener_filters_timeout goes on", async () => {
  const o = origin("a");
  const chains = [{ filters: [hcm("a")] }];
  const lf = [{ name: "envoy.filters.listener.http_inspector" }];
  const p = await startTestProxy([
    listener(chains, { listener_filters: lf, listener_filters_timeout: "0.05s" }),
    {
      ...listener(chains, {
        listener_filters: lf,
        listener_filters_timeout: "0.05s",
        continue_on_listener_filters_timeout: true,
      }),
      name: "go-on",
    },
  ], [testCluster("a", [["127.0.0.1", o.port]])]);
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port(0) });
    assert.equal(await c.read(new Uint8Array(10)), null);
    c.close();
    const d = await Deno.connect({ hostname: "127.0.0.1", port: p.port(1) });
    await new Promise((r) => setTimeout(r, 150));
    await d.write(
      new TextEncoder().encode("GET /late HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
    );
    const b = new Uint8Array(4096);
    let text = "";
    for (;;) {
      const n = await d.read(b);
      if (n === null) break;
      text += new TextDecoder().decode(b.subarray(0, n));
    }
    d.close();
    assert.match(text, /a http \/late$/);
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("downstream TLS: transport_socket_connect_timeout closes a handshake that does not start", async () => {
  const o = origin("a");
  const p = await startTestProxy([
    listener([{
      filters: [hcm("a")],
      transport_socket: tlsSocket({}),
      transport_socket_connect_timeout: "0.1s",
    }]),
  ], [testCluster("a", [["127.0.0.1", o.port]])]);
  try {
    const c = await Deno.connect({ hostname: "127.0.0.1", port: p.port() });
    assert.equal(await c.read(new Uint8Array(10)), null);
    c.close();
    assert.equal(p.store.counter(`listener.127.0.0.1_${p.port()}.ssl.connection_error`).value(), 1);
  } finally {
    await p.close();
    await o.close();
  }
});
