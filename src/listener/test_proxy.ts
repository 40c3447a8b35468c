/**
 * Test helper: a proxy (cluster manager + listener manager) on loopback port 0, built from
 * listener JSON and test clusters, closed by `close()`.
 *
 * @example Not run: it starts a proxy on loopback and needs an upstream server on `port`.
 * ```ts ignore
 * import { startTestProxy } from "./test_proxy.ts";
 * const p = await startTestProxy([httpListener(routeConfig)], [testCluster("c", [["127.0.0.1", port]])]);
 * await fetch(`http://127.0.0.1:${p.port()}/`);
 * await p.close();
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import { Store } from "../stats/store.ts";
import { ClusterManager, type ClusterManagerDeps } from "../upstream/cluster_manager.ts";
import { ListenerManager } from "./listener_manager.ts";
import { testCluster } from "../upstream/test_cluster.ts";
import type { OverloadView } from "./overload_state.ts";
import type { SecretStore } from "../config/secrets.ts";

/** A running test proxy. */
export interface TestProxy {
  store: Store;
  cm: ClusterManager;
  lm: ListenerManager;
  /** Port of listener `i` (default 0). */
  port(i?: number): number;
  state: { failed: boolean };
  close(): Promise<void>;
}

/** An HTTP listener on 127.0.0.1:0 with an inline route config (v3 typed_config form). */
export function httpListener(
  routeConfig: JsonObject,
  extra: JsonObject = {},
  filters?: JsonObject[],
): JsonObject {
  return {
    name: "test_http",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type":
            "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
          stat_prefix: "test",
          route_config: routeConfig,
          http_filters: filters ?? [{ name: "envoy.filters.http.router" }],
          ...extra,
        },
      }],
    }],
  };
}

/** Starts a proxy. */
export async function startTestProxy(
  listeners: JsonObject[],
  clusters: EffectiveCluster[],
  opts: {
    fileFlushIntervalMs?: number;
    overload?: OverloadView;
    cm?: Partial<ClusterManagerDeps>;
    secrets?: SecretStore;
  } = {},
): Promise<TestProxy> {
  const store = new Store();
  const cm = new ClusterManager(clusters, { ...opts.cm, stats: store });
  const state = { failed: false };
  const lm = new ListenerManager(listeners, {
    clusters: cm,
    stats: store,
    fileFlushIntervalMs: opts.fileFlushIntervalMs,
    overload: opts.overload,
    secrets: opts.secrets,
    hooks: {
      healthCheckFailed: () => state.failed,
      localAddressIpVersion: "v4",
      drainTimeS: 600,
      drainStrategy: "gradual",
      log: () => {},
    },
  });
  await cm.start();
  await lm.start();
  return {
    store,
    cm,
    lm,
    state,
    port: (i = 0) => lm.listeners()[i].port,
    async close() {
      await lm.close();
      await cm.close();
    },
  };
}

/** Sends raw bytes and returns everything the proxy answers until it closes (or `max` bytes). */
export async function rawExchange(port: number, bytes: string, max = 65536): Promise<string> {
  const c = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await c.write(new TextEncoder().encode(bytes));
    const buf = new Uint8Array(max);
    let n = 0;
    for (;;) {
      const r = await c.read(buf.subarray(n));
      if (r === null) break;
      n += r;
      if (n >= max || /\r\n\r\n/.test(new TextDecoder().decode(buf.subarray(0, n)))) {
        const text = new TextDecoder().decode(buf.subarray(0, n));
        const m = /content-length: (\d+)/i.exec(text);
        const headEnd = text.indexOf("\r\n\r\n") + 4;
        if (m && text.length - headEnd >= Number(m[1])) break;
      }
    }
    return new TextDecoder().decode(buf.subarray(0, n));
  } finally {
    c.close();
  }
}

/** Routes every path to cluster `c`, with no route timeout. */
const ROUTE_ALL_TO_C: JsonObject = {
  virtual_hosts: [{
    name: "v",
    domains: ["*"],
    routes: [{ match: { prefix: "/" }, route: { cluster: "c", timeout: "0s" } }],
  }],
};

/**
 * Runs `fn` with a proxy whose one HTTP listener sends everything (no route timeout) to cluster
 * `c` at 127.0.0.1:`port` and writes a file access log line in `format` per request. `log()`
 * resolves with the log once a whole line is in it (lines are written when streams end), or
 * rejects after about 10 s.
 */
export async function withLoggedProxy(
  port: number,
  format: string,
  fn: (p: TestProxy, log: () => Promise<string>) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const accessLog = [{
    name: "envoy.access_loggers.file",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.access_loggers.file.v3.FileAccessLog",
      path: `${dir}/access.log`,
      log_format: { text_format: format },
    },
  }];
  const p = await startTestProxy([httpListener(ROUTE_ALL_TO_C, { access_log: accessLog })], [
    testCluster("c", [["127.0.0.1", port]]),
  ], { fileFlushIntervalMs: 0 });
  const log = async () => {
    for (let i = 0; i < 2000; i++) {
      const t = await Deno.readTextFile(`${dir}/access.log`).catch(() => "");
      if (t.endsWith("\n")) return t;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error("never happened: the access log line");
  };
  try {
    await fn(p, log);
  } finally {
    await p.close();
    await Deno.remove(dir, { recursive: true });
  }
}
