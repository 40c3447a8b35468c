/**
 * The original-destination scenarios, run inside a network namespace by
 * `original_dst_listener_test.ts` (they bind fixed ports, so never outside one): origins on
 * 127.0.0.1:8000 and :8001, a proxy listener on 127.0.0.1:9000 in front of an `ORIGINAL_DST`
 * cluster, and clients whose connections to :8000, :8001 and :8002 (from source ports 1000-1100)
 * netfilter redirects to :9000. Prints one JSON line per scenario:
 *
 * - `filter`: the listener has the `original_dst` listener filter; what each client got, the
 *   cluster's hosts, and what the access log saw as the downstream local address;
 * - `handoff`: the listener has `use_original_dst`, and a second listener is bound to
 *   127.0.0.1:8002 (answering `listener-8002` itself); what each client got, and each
 *   listener's `downstream_cx_total`.
 *
 * @module
 */
import net from "node:net";
import type { JsonObject } from "../config/bootstrap_types.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import { httpListener, startTestProxy } from "./test_proxy.ts";
import { routeAllTo } from "./test_origins.ts";

/** The listener the redirect rule sends connections to. */
export const PROXY_PORT = 9000;
/** The destinations clients address: two origins, and a port only a listener is bound to. */
export const ORIGIN_PORTS = [8000, 8001];
/** The port of the listener a `use_original_dst` listener hands connections to. */
export const HANDOFF_PORT = 8002;
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

/** The cluster every redirected request goes to: its hosts are the original destinations. */
const DST = testCluster("dst", [], {
  type: "ORIGINAL_DST",
  lbPolicy: "CLUSTER_PROVIDED",
  cleanupIntervalMs: 3_600_000,
});

/** A listener on 127.0.0.1:`port` routing every request to cluster `dst`. */
function proxyListener(port: number, extra: JsonObject = {}): JsonObject {
  const l = httpListener(routeAllTo("dst"), extra);
  l.address = { socket_address: { address: "127.0.0.1", port_value: port } };
  return l;
}

/** The handoff scenario: see the module documentation. */
async function handoff(): Promise<void> {
  const own = proxyListener(HANDOFF_PORT);
  own.name = "own";
  (((own.filter_chains as JsonObject[])[0].filters as JsonObject[])[0].typed_config as JsonObject)
    .route_config = {
      virtual_hosts: [{
        name: "v",
        domains: ["*"],
        routes: [{
          match: { prefix: "/" },
          direct_response: { status: 200, body: { inline_string: "listener-8002" } },
        }],
      }],
    };
  const redirected = proxyListener(PROXY_PORT);
  redirected.name = "redirected";
  redirected.use_original_dst = true;
  const p = await startTestProxy([redirected, own], [DST]);
  try {
    const bodies: string[] = [];
    let client = 1050;
    for (const port of [ORIGIN_PORTS[0], HANDOFF_PORT, HANDOFF_PORT]) {
      bodies.push(await get(port, client++));
    }
    const cx = (port: number) =>
      p.store.counter(`listener.127.0.0.1_${port}.downstream_cx_total`).value();
    console.log(JSON.stringify({
      scenario: "handoff",
      bodies,
      cx: { [PROXY_PORT]: cx(PROXY_PORT), [HANDOFF_PORT]: cx(HANDOFF_PORT) },
    }));
  } finally {
    await p.close();
  }
}

async function main(): Promise<void> {
  const origins = ORIGIN_PORTS.map((port) =>
    Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, () => new Response(`o${port}`))
  );
  try {
    await filter();
    await handoff();
  } finally {
    for (const o of origins) await o.shutdown();
  }
}

/** The filter scenario: see the module documentation. */
async function filter(): Promise<void> {
  const dir = await Deno.makeTempDir();
  const listener = proxyListener(PROXY_PORT, {
    access_log: [{
      name: "envoy.access_loggers.file",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
        path: `${dir}/access.log`,
        log_format: { text_format: "%DOWNSTREAM_LOCAL_ADDRESS%\n" },
      },
    }],
  });
  listener.listener_filters = [{ name: "envoy.filters.listener.original_dst" }];
  const p = await startTestProxy([listener], [DST], { fileFlushIntervalMs: 0 });
  try {
    const bodies: string[] = [];
    let client = 1000;
    for (const port of [...ORIGIN_PORTS, ...ORIGIN_PORTS]) bodies.push(await get(port, client++));
    const hosts = p.cm.get("dst")!.hosts().map((h) => `${h.address}:${h.port}`).sort();
    const log = (await Deno.readTextFile(`${dir}/access.log`)).trim().split("\n");
    console.log(JSON.stringify({ scenario: "filter", bodies, hosts, log }));
  } finally {
    await p.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
