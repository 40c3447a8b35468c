import assert from "node:assert/strict";
import { listenerPort, startProxyProcess, statsOf, waitFor } from "./testing_proxy_process.ts";

const DIR = new URL("../../fixtures/tls/", import.meta.url).pathname;
const CA = Deno.readTextFileSync(`${DIR}ca.pem`);
const SECRET = "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret";

async function handshake(port: number, sni: string): Promise<boolean> {
  try {
    const c = await Deno.startTls(await Deno.connect({ hostname: "127.0.0.1", port }), {
      hostname: sni,
      caCerts: [CA],
    });
    try {
      await c.handshake();
      return true;
    } finally {
      c.close();
    }
  } catch {
    return false;
  }
}

Deno.test("SDS: a rotated certificate file counts sds.<name>.update_attempt/_success, a bad file update_failure or update_rejected, in /stats", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/sds.json`;
  const write = async (text: string) => {
    await Deno.writeTextFile(`${file}.tmp`, text);
    await Deno.rename(`${file}.tmp`, file);
  };
  const secret = (version: string, name: string, cert: string) =>
    JSON.stringify({
      version_info: version,
      resources: [{
        "@type": SECRET,
        name,
        tls_certificate: {
          certificate_chain: { filename: `${DIR}${cert}.pem` },
          private_key: { filename: `${DIR}${cert}.key` },
        },
      }],
    });
  await write(secret("v1", "server", "server"));
  const boot = {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    static_resources: {
      listeners: [{
        name: "tls",
        address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
        filter_chains: [{
          filters: [{
            name: "envoy.filters.network.tcp_proxy",
            typed_config: {
              "@type": "type.googleapis.com/envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
              stat_prefix: "t",
              cluster: "o",
            },
          }],
          transport_socket: {
            name: "envoy.transport_sockets.tls",
            typed_config: {
              "@type":
                "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext",
              common_tls_context: {
                tls_certificate_sds_secret_configs: [{
                  name: "server",
                  sds_config: { path_config_source: { path: file }, resource_api_version: "V3" },
                }],
              },
            },
          },
        }],
      }],
      clusters: [{
        name: "o",
        type: "STATIC",
        connect_timeout: "1s",
        load_assignment: {
          cluster_name: "o",
          endpoints: [{
            lb_endpoints: [{
              endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 9 } } },
            }],
          }],
        },
      }],
    },
  };
  const p = await startProxyProcess(boot, ["--concurrency", "1"]);
  try {
    const port = await listenerPort(p.admin);
    const sds = async () => {
      const s = await statsOf(p.admin);
      return ["update_attempt", "update_success", "update_rejected", "update_failure"]
        .map((n) => s.get(`sds.server.${n}`));
    };
    const until = (want: number[]) =>
      waitFor(
        async () => {
          const got = await sds();
          return JSON.stringify(got) === JSON.stringify(want) ? got : undefined;
        },
        10_000,
        `sds.server stats ${want}`,
      );
    const first = await statsOf(p.admin);
    assert.equal(first.get("sds.server.init_fetch_timeout"), 0);
    assert.equal(first.get("sds.server.key_rotation_failed"), 0);
    await until([1, 1, 0, 0]);
    assert.equal(await handshake(port, "localhost"), true);

    await write(secret("v2", "server", "other"));
    await until([2, 2, 0, 0]);
    assert.equal(await handshake(port, "other.example"), true);
    const text = await (await fetch(`${p.admin}/stats`)).text();
    assert.match(text, /^sds\.server\.version_text: "v2"$/m);

    await write("{ not json");
    await until([3, 2, 0, 1]);
    await write(secret("v3", "someone-else", "server"));
    await until([4, 2, 1, 1]);
    // The refused updates left the rotated certificate in use.
    assert.equal(await handshake(port, "other.example"), true);
  } finally {
    await p.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
