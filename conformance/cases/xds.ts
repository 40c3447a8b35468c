/**
 * xDS cases: the target started on a bootstrap whose only dynamic source is an ADS stream to a
 * control plane the suite runs (`tools/xds_server.ts`, serving the JSON files of a directory the
 * case writes and watching it for changes), in front of origins the suite runs. What the control
 * plane delivers is checked through traffic and through the admin interface: a CDS cluster with
 * EDS endpoints shows in `/clusters` with the CDS version and in `/config_dump`'s
 * `dynamic_active_clusters`, an EDS change moves traffic, a removed cluster goes, and a refused
 * (NACKed) update leaves the last good configuration in effect.
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
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  ctx.onUndo(async () => {
    if (!exited) {
      try {
        child.kill("SIGTERM");
      } catch { /* exited meanwhile */ }
    }
    await status;
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
    await status.catch(() => {});
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
 * The behaviour bootstrap (one listener, `/` to the dynamic cluster `web`, not validated at
 * load since it comes later) with CDS over ADS to the control plane on `cpPort`.
 */
function adsBootstrap(listenerPort: number, cpPort: number): Obj {
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
 * Starts two origins, a control plane serving EDS cluster `web` with origin a, and the target
 * on ADS to it; waits until traffic reaches a and returns what the case needs.
 */
async function serveOverAds(ctx: CaseContext, args: readonly string[] = []) {
  const os = origins(ctx, 2);
  const cp = await startControlPlane(ctx, {
    "clusters.json": [edsCluster("web")],
    "endpoints.json": [assignment("web", os[0].port)],
  });
  const served = await serveBootstrap(ctx, (p) => adsBootstrap(p, cp.port), args);
  await until(ctx, "traffic to reach the EDS endpoint of the CDS cluster", async () => {
    const seen = await spread(served.traffic, "/", 1);
    return seen.get("a") === 1;
  }, FOLLOW_MS);
  return { os, cp, ...served };
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
