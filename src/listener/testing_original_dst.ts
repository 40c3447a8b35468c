/**
 * The original-destination scenario, run inside a network namespace by
 * `original_dst_listener_test.ts` (it binds fixed ports, so never outside one): origins on
 * 127.0.0.1:8000 and :8001, a proxy listener on 127.0.0.1:9000 with the `original_dst` listener
 * filter in front of an `ORIGINAL_DST` cluster, and clients whose connections to :8000 and :8001
 * (from source ports 1000-1100) netfilter redirects to :9000. Prints one JSON line: what each
 * client got, the cluster's hosts, and what the access log saw as the downstream local address.
 *
 * @module
 */
import net from "node:net";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { namedOrigin, routeAllTo } from "./test_origins.ts";

/** The listener the redirect rule sends connections to. */
export const PROXY_PORT = 9000;
/** The destinations clients address. */
export const ORIGIN_PORTS = [8000, 8001];
/** The client source ports the redirect rule matches. */
export const CLIENT_PORTS = "1000:1100";

/** One GET over a connection from `localPort` to 127.0.0.1:`port`, answered whole. */
function get(port: number, localPort: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: "127.0.0.1", port, localPort }, () => {
      s.write("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n");
    });
    let got = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => got += d);
    s.on("end", () => resolve(got.slice(got.indexOf("\r\n\r\n") + 4)));
    s.on("error", reject);
  });
}

async function main(): Promise<void> {
  const origins = ORIGIN_PORTS.map((port) =>
    Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response(`o${port}`))
  );
  const dir = await Deno.makeTempDir();
  const listener = httpListener(routeAllTo("dst"), {
    access_log: [{
      name: "envoy.access_loggers.file",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
        path: `${dir}/access.log`,
        log_format: { text_format: "%DOWNSTREAM_LOCAL_ADDRESS%\n" },
      },
    }],
  });
  listener.address = { socket_address: { address: "127.0.0.1", port_value: PROXY_PORT } };
  listener.listener_filters = [{ name: "envoy.filters.listener.original_dst" }];
  const p = await startTestProxy([listener], [
    testCluster("dst", [], {
      type: "ORIGINAL_DST",
      lbPolicy: "CLUSTER_PROVIDED",
      cleanupIntervalMs: 3_600_000,
    }),
  ], { fileFlushIntervalMs: 0 });
  try {
    const bodies: string[] = [];
    let client = 1000;
    for (const port of [...ORIGIN_PORTS, ...ORIGIN_PORTS]) bodies.push(await get(port, client++));
    const hosts = p.cm.get("dst")!.hosts().map((h) => `${h.address}:${h.port}`).sort();
    const log = (await Deno.readTextFile(`${dir}/access.log`)).trim().split("\n");
    console.log(JSON.stringify({ bodies, hosts, log }));
  } finally {
    await p.close();
    for (const o of origins) await o.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
