/**
 * Helpers of the control-plane tests: resources for `tools/xds_server.ts` directories, a proxy
 * started in-process on a bootstrap whose only static cluster leads to the control plane, and
 * polling until a condition holds.
 *
 * @example Not run: it starts a proxy.
 * ```ts ignore
 * import { adsBootstrap, startTestProxy } from "./xds_testing.ts";
 * const p = await startTestProxy(adsBootstrap(18000, { lds: true }));
 * console.log(await p.stat("cluster_manager.cds.update_success"));
 * await p.close();
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import { parseArgs } from "../src/config/args.ts";
import type { JsonObject } from "../src/config/bootstrap_types.ts";
import { createLogging } from "../src/server/logger.ts";
import { type RunningServer, startServer } from "../src/server/server.ts";
import { ADMIN } from "../src/admin/mod.ts";

/** Cluster and ClusterLoadAssignment type URLs. */
export const CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
export const CLA = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

/** An HTTP origin on loopback answering `text`. */
export function origin(text: string): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response(text));
}

/** An LbEndpoint on 127.0.0.1. */
export const endpoint = (port: number): JsonObject => ({
  endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: port } } },
});

/** An EDS cluster resource whose endpoints come over ADS. */
export function edsCluster(name: string, extra: JsonObject = {}): JsonObject {
  return {
    "@type": CLUSTER,
    name,
    connect_timeout: "1s",
    type: "EDS",
    eds_cluster_config: { eds_config: { ads: {}, resource_api_version: "V3" } },
    ...extra,
  };
}

/** A ClusterLoadAssignment resource for `name` with endpoints on `ports`. */
export function assignment(name: string, ...ports: number[]): JsonObject {
  return {
    "@type": CLA,
    cluster_name: name,
    endpoints: [{ lb_endpoints: ports.map(endpoint) }],
  };
}

/** Polls `cond` every 10 ms, up to 10 s; fails naming `what`. */
export async function until(cond: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 1000; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** `"<status> <body>"` of a GET. */
export async function body(url: string): Promise<string> {
  const r = await fetch(url);
  return `${r.status} ${await r.text()}`;
}

/** Writes `resources` as YAML to `dir/name`. */
export function write(dir: string, name: string, resources: JsonObject[]) {
  Deno.writeTextFileSync(join(dir, name), yaml.dump(resources));
}

/** The static cluster `xds_cluster` with one endpoint on `port` (and `extra` fields). */
export function xdsCluster(port: number, extra: JsonObject = {}): JsonObject {
  return {
    name: "xds_cluster",
    connect_timeout: "1s",
    http2_protocol_options: {},
    load_assignment: {
      cluster_name: "xds_cluster",
      endpoints: [{ lb_endpoints: [endpoint(port)] }],
    },
    ...extra,
  };
}

/**
 * A bootstrap with CDS (and LDS with `lds`) over ADS to `xds_cluster` on `port`, an admin on a
 * free port, and `extra` merged at the top (its `static_resources` beside `xds_cluster`).
 */
export function adsBootstrap(
  port: number,
  opts: { apiType?: string; lds?: boolean; cluster?: JsonObject; extra?: JsonObject } = {},
): JsonObject {
  const { static_resources: sr, ...rest } = opts.extra ?? {};
  return {
    admin: { address: { socket_address: { address: "127.0.0.1", port_value: 0 } } },
    dynamic_resources: {
      ...(opts.lds ? { lds_config: { ads: {} } } : {}),
      cds_config: { ads: {}, resource_api_version: "V3" },
      ads_config: {
        api_type: opts.apiType ?? "GRPC",
        transport_api_version: "V3",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds_cluster" } }],
      },
    },
    static_resources: {
      ...(sr as JsonObject | undefined),
      clusters: [
        xdsCluster(port, opts.cluster),
        ...(((sr as JsonObject | undefined)?.clusters as JsonObject[] | undefined) ?? []),
      ],
    },
    ...rest,
  };
}

/** A proxy started in-process by {@linkcode startTestProxy}. */
export interface TestProxy {
  running: RunningServer;
  /** `http://<admin address>`. */
  admin: string;
  /** The text value of one stat (`""` when absent). */
  stat(name: string): Promise<string>;
  /** The port of the live listener `name` (0 when there is none). */
  portOf(name: string): number;
  close(): Promise<void>;
}

/** Starts the proxy on `bootstrap` with the command-line `args`, without signals or log output. */
export async function startTestProxy(
  bootstrap: JsonObject,
  args: string[] = [],
): Promise<TestProxy> {
  const options = parseArgs(["--config-yaml", "{}", ...args]);
  const logging = createLogging(options, {
    sink: { write() {}, reopen: () => Promise.resolve(), close() {} },
  });
  let running: RunningServer;
  try {
    running = await startServer(options, bootstrap, { signals: false, logging, admin: ADMIN });
  } catch (e) {
    logging.close();
    throw e;
  }
  const admin = `http://${running.adminAddress}`;
  return {
    running,
    admin,
    stat: async (name) => {
      const t = await (await fetch(`${admin}/stats?filter=^${name}$`)).text();
      return t.trim().split(": ")[1] ?? "";
    },
    portOf: (name) =>
      running.context.listeners.listeners().find((l) => l.name === name && !l.stopped)?.port ??
        0,
    close: async () => {
      await running.shutdown();
      await running.finished;
      logging.close();
    },
  };
}
