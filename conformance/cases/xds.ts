/**
 * xDS cases: the target started on a bootstrap whose only dynamic source is an ADS stream to a
 * control plane the suite runs (`tools/xds_server.ts`, serving the JSON files of a directory the
 * case writes and watching it for changes), in front of origins the suite runs. What the control
 * plane delivers is checked through traffic and through the admin interface: a CDS cluster with
 * EDS endpoints shows in `/clusters` with the CDS version and in `/config_dump`'s
 * `dynamic_active_clusters`, an EDS change moves traffic, a removed cluster goes, and a refused
 * (NACKed) update leaves the last good configuration in effect; a listener added over LDS shows
 * in `/init_dump` while it waits for its RDS routes; a cluster carrying a field its message does
 * not have is taken and counted, NACKed, or taken silently, as the dynamic-fields flags say.
 * Processes the suite starts are ended with SIGTERM, then SIGKILL (`../supervise.ts`).
 *
 * The control plane is started as a subprocess of the Deno running the suite, from this
 * repository's `tools/` (the suite imports only `spec/`): a run from elsewhere gets
 * NOT_APPLICABLE.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { xdsCases } from "./xds.ts";
 * const cases = xdsCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.every((c) => c.serves === true && c.id.startsWith("xds:")));
 * ```
 * @module
 */
import { type CaseContext, CaseFailure, NotApplicable } from "../types.ts";
import type { Case } from "../types.ts";
import { keepTail } from "../admin_address.ts";
import { supervise } from "../supervise.ts";
import type { HttpClient } from "../http_client.ts";
import {
  httpBootstrap,
  type Obj,
  serveBootstrap,
  spread,
  statValue,
  until,
} from "../served_target.ts";
import { asCases, type Behaviour, describe, origins } from "./behaviour.ts";
import { type BuildInput, expect } from "./util.ts";

const CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
const CLA = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";
const LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener";
const ROUTES = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
const HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3." +
  "HttpConnectionManager";
const ROUTER = "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router";

/** How long a change the control plane pushes may take to show (file watch, stream, warming). */
const FOLLOW_MS = 20_000;

/** A running control plane: its port and the directory it serves. */
interface ControlPlane {
  port: number;
  dir: string;
  /** Replaces the resources of one file of the directory (the control plane picks it up). */
  write(name: string, resources: readonly Obj[]): Promise<void>;
}

/**
 * Starts `tools/xds_server.ts` on a fresh directory holding `files`, on a free loopback port,
 * and stops it when the case ends.
 */
async function startControlPlane(
  ctx: CaseContext,
  files: Record<string, readonly Obj[]>,
): Promise<ControlPlane> {
  const root = new URL("../../", import.meta.url);
  if (root.protocol !== "file:") {
    throw new NotApplicable("the suite does not run from a checkout: no control plane to start");
  }
  const tool = new URL("tools/xds_server.ts", root).pathname;
  const config = new URL("deno.json", root).pathname;
  try {
    await Deno.stat(tool);
  } catch {
    throw new NotApplicable(`the control plane ${tool} is not there`);
  }
  const dir = await ctx.tempDir();
  const write = async (name: string, resources: readonly Obj[]) => {
    // Written aside and renamed, so the watcher never reads half a file.
    const tmp = `${dir}/.${name}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(resources, null, 2));
    await Deno.rename(tmp, `${dir}/${name}`);
  };
  for (const [name, resources] of Object.entries(files)) await write(name, resources);
  const argv = ["run", "-A", "--config", config, tool, "--dir", dir, "--host", "127.0.0.1"];
  ctx.command.log.push(`${Deno.execPath()} ${argv.join(" ")} --port 0`);
  const child = new Deno.Command(Deno.execPath(), {
    args: [...argv, "--port", "0"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const err = keepTail(child.stderr, 4000);
  const run = supervise(child);
  ctx.onUndo(async () => {
    await run.stop();
    await err.ended;
  });
  // The first line on standard output says where it listens: `serving DIR on HOST:PORT`.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let port = 0;
  const deadline = Date.now() + FOLLOW_MS;
  while (port === 0 && Date.now() < deadline) {
    const timer = new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now()));
    const next = await Promise.race([reader.read(), timer]);
    if (next === null || next.done) break;
    out += next.value;
    const m = /serving .* on [^\s,]*:(\d+)/.exec(out);
    if (m) port = Number(m[1]);
  }
  // The rest of its output (ACK and NACK lines) is drained so the process never blocks.
  (async () => {
    try {
      while (!(await reader.read()).done) { /* drained */ }
    } catch { /* closed */ }
  })();
  if (port === 0) {
    const exited = run.exited();
    await run.stop();
    throw new CaseFailure(
      `the control plane did not start${exited ? "" : " in time"}; its stderr ended with:\n` +
        err.text(),
    );
  }
  return { port, dir, write };
}

/** A Cluster resource of type EDS whose endpoints come over the same ADS stream. */
function edsCluster(name: string, extra: Obj = {}): Obj {
  return {
    "@type": CLUSTER,
    name,
    type: "EDS",
    connect_timeout: "2s",
    eds_cluster_config: { eds_config: { ads: {}, resource_api_version: "V3" } },
    ...extra,
  };
}

/** A ClusterLoadAssignment for `name` with endpoints on 127.0.0.1 at `ports`. */
function assignment(name: string, ...ports: number[]): Obj {
  return {
    "@type": CLA,
    cluster_name: name,
    endpoints: [{
      lb_endpoints: ports.map((p) => ({
        endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: p } } },
      })),
    }],
  };
}

/**
 * An LDS listener on a port the OS picks whose HTTP connection manager takes the routes named
 * `routes` from RDS over ADS, waiting for them without a time limit (`initial_fetch_timeout: 0s`).
 */
function rdsListener(name: string, routes: string): Obj {
  return {
    "@type": LISTENER,
    name,
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{
      filters: [{
        name: "envoy.filters.network.http_connection_manager",
        typed_config: {
          "@type": HCM,
          stat_prefix: name,
          rds: {
            config_source: { ads: {}, resource_api_version: "V3", initial_fetch_timeout: "0s" },
            route_config_name: routes,
          },
          http_filters: [{ name: "envoy.filters.http.router", typed_config: { "@type": ROUTER } }],
        },
      }],
    }],
  };
}

/** A RouteConfiguration `name` sending everything to `cluster`. */
function routeConfig(name: string, cluster: string): Obj {
  return {
    "@type": ROUTES,
    name,
    virtual_hosts: [{
      name: "all",
      domains: ["*"],
      routes: [{ match: { prefix: "/" }, route: { cluster } }],
    }],
  };
}

/**
 * The behaviour bootstrap (one listener, `/` to the dynamic cluster `web`, not validated at
 * load since it comes later) with CDS over ADS to the control plane on `cpPort`.
 */
function adsBootstrap(listenerPort: number, cpPort: number, lds = false): Obj {
  const b = httpBootstrap(listenerPort, [{ prefix: "/", cluster: "web" }], [{
    name: "xds_cluster",
    type: "STATIC",
    connect_timeout: "2s",
    http2_protocol_options: {},
    load_assignment: {
      cluster_name: "xds_cluster",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: cpPort } } },
        }],
      }],
    },
  }]);
  const sr = b.static_resources as { listeners: Obj[] };
  const hcm = (((sr.listeners[0].filter_chains as Obj[])[0].filters as Obj[])[0]
    .typed_config) as Obj;
  (hcm.route_config as Obj).validate_clusters = false;
  return {
    ...b,
    node: { id: "conformance", cluster: "conformance" },
    dynamic_resources: {
      cds_config: { ads: {}, resource_api_version: "V3" },
      ...(lds ? { lds_config: { ads: {}, resource_api_version: "V3" } } : {}),
      ads_config: {
        api_type: "GRPC",
        transport_api_version: "V3",
        grpc_services: [{ envoy_grpc: { cluster_name: "xds_cluster" } }],
      },
    },
  };
}

/** The CDS version `/clusters` prints on its `version_info::` line (null without one). */
async function clustersVersion(admin: HttpClient): Promise<string | null> {
  const r = await admin.request("GET", "/clusters");
  const line = r.body.split("\n").find((l) => l.startsWith("version_info::"));
  return line === undefined ? null : line.slice("version_info::".length).trim();
}

/** Whether `/clusters` lists any host of `cluster`. */
async function listsCluster(admin: HttpClient, cluster: string): Promise<boolean> {
  const r = await admin.request("GET", "/clusters");
  return r.body.split("\n").some((l) => l.startsWith(`${cluster}::`));
}

/** The `version_info` of each cluster in `/config_dump`'s `dynamic_active_clusters`, by name. */
async function activeClusters(admin: HttpClient): Promise<Map<string, string>> {
  const r = await admin.request("GET", "/config_dump?resource=dynamic_active_clusters");
  expect(
    r.status === 200,
    `GET /config_dump?resource=dynamic_active_clusters answered ${r.status}`,
  );
  const out = new Map<string, string>();
  let v: { configs?: { version_info?: string; cluster?: { name?: string } }[] };
  try {
    v = JSON.parse(r.body);
  } catch {
    throw new CaseFailure(`/config_dump?resource=dynamic_active_clusters is not JSON: ${r.body}`);
  }
  for (const c of v.configs ?? []) {
    if (typeof c.cluster?.name === "string") out.set(c.cluster.name, String(c.version_info ?? ""));
  }
  return out;
}

/**
 * The elements of `/init_dump` (with `?mask=` when `mask` is given) that mention `name` in the
 * init manager's name or a target's: an implementation names the listener or the route
 * configuration a warming listener waits for, in its own words.
 */
async function unreadyMentioning(
  admin: HttpClient,
  name: string,
  mask?: string,
): Promise<string[]> {
  const path = mask === undefined ? "/init_dump" : `/init_dump?mask=${mask}`;
  const r = await admin.request("GET", path);
  expect(r.status === 200, `GET ${path} answered ${r.status}`);
  let v: { unready_targets_dumps?: { name?: string; target_names?: string[] }[] };
  try {
    v = JSON.parse(r.body);
  } catch {
    throw new CaseFailure(`GET ${path} is not JSON: ${r.body}`);
  }
  return (v.unready_targets_dumps ?? [])
    .map((d) => JSON.stringify(d))
    .filter((d) => d.includes(name));
}

/** The proto3 JSON of cluster `name` in `/config_dump`'s `dynamic_active_clusters`. */
async function activeCluster(admin: HttpClient, name: string): Promise<Obj | undefined> {
  const r = await admin.request("GET", "/config_dump?resource=dynamic_active_clusters");
  try {
    const v = JSON.parse(r.body) as { configs?: { cluster?: Obj }[] };
    return (v.configs ?? []).map((c) => c.cluster).find((c) => c?.name === name);
  } catch {
    throw new CaseFailure(`/config_dump?resource=dynamic_active_clusters is not JSON: ${r.body}`);
  }
}

/**
 * Starts two origins, a control plane serving EDS cluster `web` with origin a, and the target
 * on ADS to it; waits until traffic reaches a and returns what the case needs.
 */
async function serveOverAds(ctx: CaseContext, args: readonly string[] = [], lds = false) {
  const os = origins(ctx, 2);
  const cp = await startControlPlane(ctx, {
    "clusters.json": [edsCluster("web")],
    "endpoints.json": [assignment("web", os[0].port)],
  });
  const served = await serveBootstrap(ctx, (p) => adsBootstrap(p, cp.port, lds), args);
  await until(ctx, "traffic to reach the EDS endpoint of the CDS cluster", async () => {
    const seen = await spread(served.traffic, "/", 1);
    return seen.get("a") === 1;
  }, FOLLOW_MS);
  return { os, cp, ...served };
}

/** A CDS cluster field number no Cluster message has (sent as a varint by the control plane). */
const UNKNOWN_FIELD = "9999";

/**
 * Serves `web` over ADS with `flags`, then sends it changed (`connect_timeout: 3s`) and
 * carrying an unknown field; returns what the target showed before and after the update was
 * either taken (`cluster_manager.cds.update_success` rose) or refused (`update_rejected` rose).
 */
async function sendUnknownField(ctx: CaseContext, flags: readonly string[]) {
  const { cp, admin, traffic } = await serveOverAds(ctx, flags);
  const stat = (name: string) => statValue(admin, name);
  const before = {
    version: await clustersVersion(admin),
    unknown: await stat("server.dynamic_unknown_fields"),
    success: await stat("cluster_manager.cds.update_success"),
    rejected: await stat("cluster_manager.cds.update_rejected"),
  };
  await cp.write("clusters.json", [
    { ...edsCluster("web", { connect_timeout: "3s" }), "@unknown_fields": { [UNKNOWN_FIELD]: 1 } },
  ]);
  let taken = false;
  await until(ctx, "cluster_manager.cds.update_success or update_rejected to rise", async () => {
    taken = (await stat("cluster_manager.cds.update_success")) > before.success;
    return taken || (await stat("cluster_manager.cds.update_rejected")) > before.rejected;
  }, FOLLOW_MS);
  const web = await activeCluster(admin, "web");
  return {
    before,
    taken,
    version: await clustersVersion(admin),
    activeVersion: (await activeClusters(admin)).get("web"),
    connectTimeout: web?.connect_timeout,
    unknown: await stat("server.dynamic_unknown_fields"),
    traffic,
  };
}

/** The xDS behaviours. */
const XDS: readonly Behaviour[] = [
  {
    id: "cds-eds-follow",
    title:
      "a CDS cluster with EDS endpoints over ADS serves traffic and shows with its version in /clusters and /config_dump; an EDS change moves traffic; a removed cluster goes",
    rules: [
      "admin.resources.clusters.version_info-static",
      "admin.endpoints.config_dump",
      "admin.endpoints.config_dump-resource",
      "admin.endpoints.clusters",
      "cluster.fields.type",
      "cluster.fields.eds-cluster-config",
    ],
    async run(ctx) {
      const { os, cp, admin, traffic } = await serveOverAds(ctx);
      const version = await clustersVersion(admin);
      expect(
        version !== null && version !== "" && version !== "static",
        `with CDS set up, /clusters printed version_info::${version} (expected the CDS version)`,
      );
      const active = await activeClusters(admin);
      expect(
        active.get("web") === version,
        `dynamic_active_clusters has web at version ${
          active.get("web")
        }, /clusters says ${version}`,
      );
      expect(await listsCluster(admin, "web"), "/clusters lists no host of web");
      const seen = await spread(traffic, "/", 4);
      expect(seen.get("a") === 4, `traffic to web before the EDS change: ${describe(seen)}`);

      await cp.write("endpoints.json", [assignment("web", os[1].port)]);
      await until(ctx, "traffic to move to the new EDS endpoint (origin b)", async () => {
        const s = await spread(traffic, "/", 2);
        return s.get("b") === 2;
      }, FOLLOW_MS);

      await cp.write("clusters.json", [edsCluster("spare")]);
      await cp.write("endpoints.json", [assignment("spare", os[0].port)]);
      await until(ctx, "the removed cluster web to leave /clusters", async () => {
        return !(await listsCluster(admin, "web")) && await listsCluster(admin, "spare");
      }, FOLLOW_MS);
      const after = await activeClusters(admin);
      expect(
        !after.has("web") && after.has("spare"),
        `dynamic_active_clusters after web was removed: ${JSON.stringify([...after.keys()])}`,
      );
      const next = await clustersVersion(admin);
      expect(
        next !== null && next !== version && after.get("spare") === next,
        `after the CDS update /clusters printed version_info::${next} (before: ${version}), ` +
          `dynamic_active_clusters has spare at ${after.get("spare")}`,
      );
      const gone = await spread(traffic, "/", 2);
      expect(
        !gone.has("a") && !gone.has("b"),
        `the route to the removed cluster still reached an origin: ${describe(gone)}`,
      );
    },
  },
  {
    id: "nack-keeps-last-good",
    title:
      "a CDS update with an invalid cluster (connect_timeout -1s) is rejected; the last good cluster, its version and its traffic stay",
    rules: [
      "cluster.fields.connect-timeout",
      "admin.resources.clusters.version_info-static",
      "admin.endpoints.config_dump",
    ],
    async run(ctx) {
      const { os, cp, admin, traffic } = await serveOverAds(ctx);
      const version = await clustersVersion(admin);
      const rejected = await statValue(admin, "cluster_manager.cds.update_rejected");
      await cp.write("clusters.json", [
        edsCluster("web", { connect_timeout: "-1s" }),
        edsCluster("other"),
      ]);
      await cp.write("endpoints.json", [
        assignment("web", os[0].port),
        assignment("other", os[1].port),
      ]);
      await until(
        ctx,
        "cluster_manager.cds.update_rejected to count the invalid update",
        async () => (await statValue(admin, "cluster_manager.cds.update_rejected")) > rejected,
        FOLLOW_MS,
      );
      const now = await clustersVersion(admin);
      expect(
        now === version,
        `after a rejected update /clusters printed version_info::${now} (before: ${version})`,
      );
      const active = await activeClusters(admin);
      expect(
        active.get("web") === version && !active.has("other"),
        `dynamic_active_clusters after a rejected update: ${
          JSON.stringify(Object.fromEntries(active))
        } (expected only web at ${version})`,
      );
      expect(
        !(await listsCluster(admin, "other")),
        "/clusters lists a cluster of the rejected update",
      );
      const seen = await spread(traffic, "/", 4);
      expect(seen.get("a") === 4, `traffic after the rejected update: ${describe(seen)}`);
    },
  },
  {
    id: "init-dump-warming-listener",
    title:
      "a listener added over LDS whose RDS routes have not arrived is listed by /init_dump (and ?mask=listener) while it warms, and leaves the list once they arrive",
    rules: ["admin.endpoints.init_dump", "admin.endpoints.init_dump-mask"],
    async run(ctx) {
      const { cp, admin } = await serveOverAds(ctx, [], true);
      const listener = "xds_warming_listener";
      const routes = "xds_warming_routes";
      const mentions = async (mask?: string) =>
        (await unreadyMentioning(admin, listener, mask)).length +
        (await unreadyMentioning(admin, routes, mask)).length;
      expect(
        (await mentions()) === 0,
        `/init_dump names ${listener} before the control plane sent it`,
      );
      await cp.write("listeners.json", [rdsListener(listener, routes)]);
      await until(
        ctx,
        `/init_dump to list the listener ${listener}, warming for its routes ${routes}`,
        async () => (await mentions()) > 0,
        FOLLOW_MS,
      );
      expect(
        (await mentions("listener")) > 0,
        `/init_dump?mask=listener does not list the warming listener ${listener}`,
      );
      await cp.write("routes.json", [routeConfig(routes, "web")]);
      await until(
        ctx,
        `the listener ${listener} to leave /init_dump once its routes ${routes} arrived`,
        async () => (await mentions()) === 0 && (await mentions("listener")) === 0,
        FOLLOW_MS,
      );
    },
  },
  {
    id: "unknown-dynamic-field-accepted",
    title:
      "by default a CDS cluster carrying an unknown field is accepted (its new version shows) and counted in server.dynamic_unknown_fields",
    rules: ["errors.unknown-dynamic-fields", "cli.options.reject-unknown-dynamic-fields"],
    async run(ctx) {
      const r = await sendUnknownField(ctx, []);
      expect(
        r.taken,
        "the update with an unknown field was rejected without --reject-unknown-dynamic-fields",
      );
      expect(
        r.version !== r.before.version && r.activeVersion === r.version &&
          r.connectTimeout === "3s",
        `after the update /clusters printed version_info::${r.version} (before: ` +
          `${r.before.version}); dynamic_active_clusters has web at ${r.activeVersion} with ` +
          `connect_timeout ${r.connectTimeout} (expected the new version and 3s)`,
      );
      expect(
        r.unknown > r.before.unknown,
        `server.dynamic_unknown_fields stayed at ${r.unknown} after a cluster with an unknown ` +
          "field was accepted",
      );
    },
  },
  {
    id: "unknown-dynamic-field-rejected",
    title:
      "with --reject-unknown-dynamic-fields a CDS cluster carrying an unknown field is NACKed: update_rejected rises, the previous version and cluster stay",
    rules: ["cli.options.reject-unknown-dynamic-fields", "errors.unknown-dynamic-fields"],
    async run(ctx) {
      const r = await sendUnknownField(ctx, ["--reject-unknown-dynamic-fields"]);
      expect(
        !r.taken,
        "with --reject-unknown-dynamic-fields the update with an unknown field was accepted " +
          "(cluster_manager.cds.update_success rose)",
      );
      expect(
        r.version === r.before.version && r.activeVersion === r.before.version &&
          r.connectTimeout === "2s",
        `after the rejected update /clusters printed version_info::${r.version} (before: ` +
          `${r.before.version}); dynamic_active_clusters has web at ${r.activeVersion} with ` +
          `connect_timeout ${r.connectTimeout} (expected the previous version and 2s)`,
      );
      const seen = await spread(r.traffic, "/", 2);
      expect(seen.get("a") === 2, `traffic after the rejected update: ${describe(seen)}`);
    },
  },
  {
    id: "unknown-dynamic-field-ignored",
    title:
      "with --ignore-unknown-dynamic-fields a CDS cluster carrying an unknown field is accepted and not counted",
    rules: ["cli.options.ignore-unknown-dynamic-fields"],
    async run(ctx) {
      const r = await sendUnknownField(ctx, ["--ignore-unknown-dynamic-fields"]);
      expect(
        r.taken && r.activeVersion === r.version && r.connectTimeout === "3s",
        `with --ignore-unknown-dynamic-fields the update was ${
          r.taken ? "taken" : "rejected"
        }; dynamic_active_clusters has web at ${r.activeVersion} (/clusters: ${r.version}) ` +
          `with connect_timeout ${r.connectTimeout}`,
      );
      expect(
        r.unknown === r.before.unknown,
        `server.dynamic_unknown_fields rose from ${r.before.unknown} to ${r.unknown} with ` +
          "--ignore-unknown-dynamic-fields",
      );
    },
  },
];

/**
 * Builds the xDS cases whose rules exist in this run.
 *
 * @param input the rules and variant
 * @returns one `command` case per behaviour, serving traffic
 */
export function xdsCases(input: BuildInput): Case[] {
  return asCases(XDS, input).map((c) => ({ ...c, id: `xds:${c.id}` }));
}
