import assert from "node:assert/strict";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { SecretStore } from "../config/secrets.ts";
import { effectiveTls } from "../config/effective_cluster.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { startTestProxy } from "./test_proxy.ts";
import { validateListeners } from "./validate_listeners.ts";

const DIR = new URL("../../fixtures/tls/", import.meta.url).pathname;
const pem = (f: string) => Deno.readTextFileSync(DIR + f);
const CA = pem("ca.pem");
const SECRET = "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret";

const certSecret = (name: string, cert: string) => ({
  name,
  tls_certificate: {
    certificate_chain: { filename: `${DIR}${cert}.pem` },
    private_key: { filename: `${DIR}${cert}.key` },
  },
});
const caSecret = { name: "ca", validation_context: { trusted_ca: { filename: `${DIR}ca.pem` } } };

function origin() {
  const s = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("ok"),
  );
  return { port: s.addr.port, close: () => s.shutdown() };
}

function listener(common: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    name: "sds",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          stat_prefix: "sds",
          route_config: {
            virtual_hosts: [{
              name: "a",
              domains: ["*"],
              routes: [{ match: { prefix: "/" }, route: { cluster: "o" } }],
            }],
          },
          http_filters: [{ name: "envoy.filters.http.router" }],
        },
      }],
      transport_socket: {
        name: "envoy.transport_sockets.tls",
        typed_config: { common_tls_context: common, ...extra },
      },
    }],
  };
}

async function get(port: number, sni: string, client = false): Promise<string> {
  // Deno.startTls cannot present a client certificate; connectTls can (to "localhost").
  const c = client
    ? await Deno.connectTls({
      hostname: sni,
      port,
      caCerts: [CA],
      cert: pem("client.pem"),
      key: pem("client.key"),
    })
    : await Deno.startTls(await Deno.connect({ hostname: "127.0.0.1", port }), {
      hostname: sni,
      caCerts: [CA],
    });
  try {
    await c.handshake();
    await c.write(
      new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"),
    );
    let text = "";
    const b = new Uint8Array(4096);
    for (;;) {
      const n = await c.read(b);
      if (n === null) break;
      text += new TextDecoder().decode(b.subarray(0, n));
    }
    return text;
  } finally {
    try {
      c.close();
    } catch { /* closed */ }
  }
}

Deno.test("SDS: a listener certificate and validation context from static_resources.secrets", async () => {
  const o = origin();
  const secrets = new SecretStore([certSecret("server", "server"), caSecret]);
  const p = await startTestProxy(
    [
      listener({
        tls_certificate_sds_secret_configs: [{ name: "server" }],
        validation_context_sds_secret_config: { name: "ca" },
      }, { require_client_certificate: true }),
    ],
    [testCluster("o", [["127.0.0.1", o.port]])],
    { secrets },
  );
  try {
    assert.match(await get(p.port(), "localhost", true), /^HTTP\/1\.1 200[\s\S]*ok$/);
    await assert.rejects(get(p.port(), "localhost", false));
  } finally {
    await p.close();
    await o.close();
  }
});

Deno.test("SDS: a listener certificate from an SDS file (path_config_source) is read again when the file changes", async () => {
  const o = origin();
  const dir = await Deno.makeTempDir();
  const file = `${dir}/sds.json`;
  const write = async (cert: string) => {
    await Deno.writeTextFile(
      `${file}.tmp`,
      JSON.stringify({ resources: [{ "@type": SECRET, ...certSecret("server", cert) }] }),
    );
    await Deno.rename(`${file}.tmp`, file);
  };
  await write("server");
  const p = await startTestProxy(
    [
      listener({
        tls_certificate_sds_secret_configs: [{
          name: "server",
          sds_config: { path_config_source: { path: file }, resource_api_version: "V3" },
        }],
      }),
    ],
    [testCluster("o", [["127.0.0.1", o.port]])],
    { secrets: new SecretStore(undefined) },
  );
  try {
    assert.match(await get(p.port(), "localhost"), /ok$/);
    await write("other");
    let served = "";
    for (let i = 0; i < 100 && !served; i++) {
      await new Promise((r) => setTimeout(r, 50));
      served = await get(p.port(), "other.example").catch(() => "");
    }
    assert.match(served, /ok$/);
  } finally {
    await p.close();
    await o.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SDS: an unknown secret, a missing SDS file and a control-plane source name their path", () => {
  const secrets = new SecretStore([caSecret]);
  const errs = validateListeners(
    [
      listener({ tls_certificate_sds_secret_configs: [{ name: "nope" }] }),
      listener({
        tls_certificate_sds_secret_configs: [{
          name: "x",
          sds_config: { path: "/nonexistent/sds.yaml" },
        }],
      }),
      listener({ tls_certificate_sds_secret_configs: [{ name: "x", sds_config: { ads: {} } }] }),
      listener({ tls_certificate_sds_secret_configs: [{ name: "ca" }] }),
    ].map((l, i) => ({ ...l, name: `l${i}` })),
    "static_resources.listeners",
    ["o"],
    secrets,
  );
  const tc =
    "filter_chains[0].transport_socket.typed_config.common_tls_context.tls_certificate_sds_secret_configs[0]";
  assert.deepEqual(errs.map((e) => [e.path, e.message]), [
    [
      `static_resources.listeners[0].${tc}.name`,
      'no secret named "nope" in static_resources.secrets',
    ],
    [
      `static_resources.listeners[1].${tc}.sds_config.path`,
      "cannot read /nonexistent/sds.yaml: no such file",
    ],
    [
      `static_resources.listeners[2].${tc}.sds_config`,
      "secrets come from static_resources.secrets or a file",
    ],
    [`static_resources.listeners[3].${tc}.name`, 'secret "ca" has no tls_certificate'],
  ]);
});

Deno.test("SDS: an upstream client certificate and CA from static secrets", () => {
  const secrets = new SecretStore([certSecret("client", "client"), caSecret]);
  const t = effectiveTls(
    {
      transport_socket: {
        name: "envoy.transport_sockets.tls",
        typed_config: {
          common_tls_context: {
            tls_certificate_sds_secret_configs: [{ name: "client" }],
            validation_context_sds_secret_config: { name: "ca" },
          },
        },
      },
    },
    () => assert.fail("no error expected"),
    secrets,
  );
  assert.equal(t?.certChain, pem("client.pem"));
  assert.equal(t?.privateKey, pem("client.key"));
  assert.deepEqual(t?.trustedCa, [CA]);
});
