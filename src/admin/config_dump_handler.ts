/**
 * `/config_dump` and `/init_dump`.
 *
 * `/config_dump` answers `{"configs":[...]}` with one dump per component in Envoy's order
 * (bootstrap, clusters, [endpoints with `include_eds`], listeners, scoped routes, routes,
 * secrets), each packed with its `type.googleapis.com/envoy.admin.v3.*` type. Query parameters
 * (an empty value counts as absent, as newer Envoy): `mask` (FieldMask applied to each dump),
 * `resource` (the elements of one repeated field, each packed with its own type; unknown -> 404
 * `<r> not found in config dump`; not repeated -> 400), `resource`+`mask` (mask per element),
 * `name_regex` (full match against each resource's name; invalid -> 400). Private keys and
 * passwords are redacted. The JSON is streamed in slices with event-loop turns between them
 * (`json_stream.ts`), so a huge dump does not hold up `/ready` or proxied traffic.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildConfigDumps } from "./config_dump_handler.ts";
 * import { testContext } from "./testing_context.ts";
 * const dumps = buildConfigDumps(testContext(), { includeEds: true });
 * assert.ok(dumps.length > 0);
 * ```
 * @module
 */
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
import type { ServerContext } from "../server/context.ts";
import type { ClusterView } from "../upstream/types.ts";
import type { ListenerView } from "../listener/types.ts";
import type { Handler } from "./types.ts";
import { jsonResponse, textResponse } from "../config/proto_json.ts";
import { streamedJsonResponse } from "./json_stream.ts";
import { applyMask, parseMask } from "./field_mask.ts";
import { redact } from "./config_redact.ts";
import { ADMIN_REGEX_MAX_LENGTH, compileLinear, type LinearRegex } from "../platform/re2.ts";

const ADMIN = "type.googleapis.com/envoy.admin.v3.";
const CLUSTER_TYPE = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
const LISTENER_TYPE = "type.googleapis.com/envoy.config.listener.v3.Listener";
const ROUTE_TYPE = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
const SECRET_TYPE = "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret";
const CLA_TYPE = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

type Obj = Record<string, unknown>;

/** A declared field of a dump message: repeated ones name their element type and name path. */
interface DumpField {
  name: string;
  element?: string;
  /** Where the resource name is inside an element. */
  namePath?: string[];
}

/** A repeated field of `element`s whose resource name is at `namePath`. */
function repeated(name: string, element: string, ...namePath: string[]): DumpField {
  return { name, element, namePath };
}

/** The dump messages and their declared fields (envoy/admin/v3/config_dump*.proto). */
export const DUMP_SCHEMAS: Readonly<Record<string, readonly DumpField[]>> = {
  BootstrapConfigDump: [{ name: "bootstrap" }, { name: "last_updated" }],
  ClustersConfigDump: [
    { name: "version_info" },
    repeated("static_clusters", "StaticCluster", "cluster", "name"),
    repeated("dynamic_active_clusters", "DynamicCluster", "cluster", "name"),
    repeated("dynamic_warming_clusters", "DynamicCluster", "cluster", "name"),
  ],
  EndpointsConfigDump: [
    repeated("static_endpoint_configs", "StaticEndpointConfig", "endpoint_config", "cluster_name"),
    repeated(
      "dynamic_endpoint_configs",
      "DynamicEndpointConfig",
      "endpoint_config",
      "cluster_name",
    ),
  ],
  ListenersConfigDump: [
    { name: "version_info" },
    repeated("static_listeners", "StaticListener", "listener", "name"),
    repeated("dynamic_listeners", "DynamicListener", "name"),
  ],
  ScopedRoutesConfigDump: [
    repeated("inline_scoped_route_configs", "InlineScopedRouteConfigs", "name"),
    repeated("dynamic_scoped_route_configs", "DynamicScopedRouteConfigs", "name"),
  ],
  RoutesConfigDump: [
    repeated("static_route_configs", "StaticRouteConfig", "route_config", "name"),
    repeated("dynamic_route_configs", "DynamicRouteConfig", "route_config", "name"),
  ],
  SecretsConfigDump: [
    repeated("static_secrets", "StaticSecret", "name"),
    repeated("dynamic_active_secrets", "DynamicSecret", "name"),
    repeated("dynamic_warming_secrets", "DynamicSecret", "name"),
  ],
};

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function isObj(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Inline route configurations of HTTP connection managers in a listener. */
function inlineRoutes(listener: JsonObject): JsonObject[] {
  const out: JsonObject[] = [];
  const chains = Array.isArray(listener.filter_chains) ? listener.filter_chains : [];
  for (const fc of chains) {
    const filters = isObj(fc) && Array.isArray(fc.filters) ? fc.filters : [];
    for (const f of filters) {
      if (!isObj(f)) continue;
      const cfg = isObj(f.typed_config) ? f.typed_config : isObj(f.config) ? f.config : undefined;
      if (cfg && isObj(cfg.route_config)) out.push(cfg.route_config);
    }
  }
  return out;
}

/** A cluster's hosts as a `ClusterLoadAssignment`, grouped by priority and locality. */
function endpointConfig(c: ClusterView): JsonObject {
  const groups = new Map<string, JsonObject & { lb_endpoints: Json[] }>();
  for (const h of c.hosts()) {
    const key = JSON.stringify([h.priority, h.region, h.zone, h.sub_zone]);
    let g = groups.get(key);
    if (!g) {
      g = {
        locality: { region: h.region, zone: h.zone, sub_zone: h.sub_zone },
        lb_endpoints: [],
        priority: h.priority,
      };
      groups.set(key, g);
    }
    g.lb_endpoints.push({
      endpoint: {
        address: { socket_address: { address: h.address, port_value: h.port } },
        hostname: h.hostname,
      },
      health_status: h.health.failed_eds_health ? "UNHEALTHY" : "HEALTHY",
      load_balancing_weight: h.weight,
    });
  }
  const eds = isObj(c.config.eds_cluster_config) ? c.config.eds_cluster_config : {};
  return {
    "@type": CLA_TYPE,
    cluster_name: typeof eds.service_name === "string" && eds.service_name
      ? eds.service_name
      : c.name,
    endpoints: [...groups.values()],
    policy: { overprovisioning_factor: 140 },
  };
}

/** The top-level dumps, each with its `@type`, in Envoy's order. */
export function buildConfigDumps(
  server: ServerContext,
  opts: { includeEds: boolean; redacted?: boolean },
): Obj[] {
  const updated = rfc3339(server.startedAt);
  const clusters = server.clusters.clusters();
  const staticClusters = clusters.filter((c) => !c.addedViaApi);
  const dynamicClusters = clusters.filter((c) => c.addedViaApi);
  const warming = server.clusters.warmingClusters?.() ?? [];
  const listeners = server.listeners.listeners();
  const version = server.clusters.versionInfo();
  const dumps: Obj[] = [
    { "@type": `${ADMIN}BootstrapConfigDump`, bootstrap: server.bootstrap, last_updated: updated },
    {
      "@type": `${ADMIN}ClustersConfigDump`,
      version_info: version ?? undefined,
      static_clusters: staticClusters.map((c) => ({
        cluster: { "@type": CLUSTER_TYPE, ...c.config },
        last_updated: updated,
      })),
      dynamic_active_clusters: dynamicClusters.map((c) => ({
        version_info: c.apiUpdate?.version_info ?? version ?? undefined,
        cluster: { "@type": CLUSTER_TYPE, ...c.config },
        last_updated: c.apiUpdate?.last_updated ?? updated,
      })),
      ...(warming.length
        ? {
          dynamic_warming_clusters: warming.map((c) => ({
            version_info: c.apiUpdate?.version_info ?? version ?? undefined,
            cluster: { "@type": CLUSTER_TYPE, ...c.config },
            last_updated: c.apiUpdate?.last_updated ?? updated,
          })),
        }
        : {}),
    },
  ];
  if (opts.includeEds) {
    // EDS clusters' assignments come from their subscription, with its version; the others'
    // are built from their hosts, static or dynamic by how the cluster was added.
    const notEds = (c: ClusterView) => c.config.type !== "EDS";
    dumps.push({
      "@type": `${ADMIN}EndpointsConfigDump`,
      static_endpoint_configs: staticClusters.filter(notEds).map((c) => ({
        endpoint_config: endpointConfig(c),
        last_updated: updated,
      })),
      dynamic_endpoint_configs: [
        ...dynamicClusters.filter(notEds).map((c) => ({
          endpoint_config: endpointConfig(c),
          last_updated: updated,
        })),
        ...(server.clusters.dynamicEndpointConfigs?.() ?? []),
      ],
    });
  }
  dumps.push(
    {
      "@type": `${ADMIN}ListenersConfigDump`,
      version_info: server.listeners.versionInfo?.() ?? undefined,
      static_listeners: listeners.filter((l) => !l.apiUpdate).map((l) => ({
        listener: { "@type": LISTENER_TYPE, ...l.config },
        last_updated: updated,
      })),
      dynamic_listeners: dynamicListeners(
        listeners.filter((l) => l.apiUpdate),
        server.listeners.drainingListeners?.() ?? [],
        server.listeners.warmingListeners?.() ?? [],
      ),
    },
    { "@type": `${ADMIN}ScopedRoutesConfigDump` },
    {
      "@type": `${ADMIN}RoutesConfigDump`,
      static_route_configs: listeners.flatMap((l) => inlineRoutes(l.config)).map((r) => ({
        route_config: { "@type": ROUTE_TYPE, ...r },
        last_updated: updated,
      })),
      dynamic_route_configs: [...(server.listeners.routeConfigs?.values() ?? [])].map((r) => ({
        version_info: r.version_info,
        route_config: r.route_config,
        last_updated: r.last_updated,
      })),
    },
    {
      "@type": `${ADMIN}SecretsConfigDump`,
      static_secrets: (server.bootstrap.static_resources?.secrets ?? []).map((s) => ({
        name: typeof s.name === "string" ? s.name : "",
        last_updated: updated,
        secret: { "@type": SECRET_TYPE, ...s },
      })),
    },
  );
  // Unredacted dumps are only for a renderer that redacts as it writes (`json_stream.ts`).
  return opts.redacted === false ? dumps : dumps.map((d) => redact(d) as Obj);
}

function schemaOf(dump: Obj): readonly DumpField[] {
  return DUMP_SCHEMAS[String(dump["@type"]).slice(ADMIN.length)] ?? [];
}

function nameOf(element: unknown, path: readonly string[]): string {
  let v: unknown = element;
  for (const p of path) v = isObj(v) ? v[p] : undefined;
  return typeof v === "string" ? v : "";
}

function filterByName(dump: Obj, re: LinearRegex): Obj {
  const out: Obj = { ...dump };
  for (const f of schemaOf(dump)) {
    if (f.namePath && Array.isArray(out[f.name])) {
      out[f.name] = (out[f.name] as unknown[]).filter((e) => re.fullMatch(nameOf(e, f.namePath!)));
    }
  }
  return out;
}

function param(req: { params: ReadonlyMap<string, string> }, k: string): string | undefined {
  const v = req.params.get(k);
  return v === undefined || v === "" ? undefined : v;
}

const configDump: Handler = (req, server) => {
  const resource = param(req, "resource");
  const mask = param(req, "mask");
  const nameRegex = param(req, "name_regex");
  let re: LinearRegex | undefined;
  if (nameRegex !== undefined) {
    const c = compileLinear(nameRegex, ADMIN_REGEX_MAX_LENGTH);
    if (!c.ok) {
      const shown = c.tooLong ? "the query" : nameRegex;
      return textResponse(`Error while parsing name_regex from ${shown}: ${c.error}`, 400);
    }
    re = c.re;
  }
  let dumps = buildConfigDumps(server, {
    includeEds: req.params.has("include_eds"),
    redacted: false,
  });
  if (re) dumps = dumps.map((d) => filterByName(d, re));
  const fieldMask = mask === undefined ? undefined : parseMask(mask);
  if (resource === undefined) {
    const configs = fieldMask ? dumps.map((d) => applyMask(d, fieldMask)) : dumps;
    return streamedJsonResponse({ configs }, { redact: true });
  }
  for (const d of dumps) {
    const field = schemaOf(d).find((f) => f.name === resource);
    if (!field) continue;
    if (!field.element) {
      return textResponse(
        `${resource} is not a repeated field. Use ?mask=${resource} to get only this field`,
        400,
      );
    }
    const type = `${String(d["@type"])}.${field.element}`;
    const elements = Array.isArray(d[resource]) ? (d[resource] as Obj[]) : [];
    const configs = elements.map((e) => {
      const packed: Obj = { "@type": type, ...e };
      return fieldMask ? applyMask(packed, fieldMask) : packed;
    });
    return streamedJsonResponse({ configs }, { redact: true });
  }
  return textResponse(`${resource} not found in config dump`, 404);
};

/**
 * `/init_dump`: `{"unready_targets_dumps":[{name, target_names}]}`, one element per init manager
 * (of the component the mask names: `server`, `listener`), listing its unready targets; `{}` once
 * start-up has finished or when the mask names no component.
 */
const initDump: Handler = (req, server) => {
  const dumps = server.init?.dump(param(req, "mask")) ?? [];
  return jsonResponse({ unready_targets_dumps: dumps });
};

/** Handlers of this family, by path. */
export const CONFIG_DUMP_HANDLERS = {
  "/config_dump": configDump,
  "/init_dump": initDump,
} satisfies Record<string, Handler>;

/**
 * One `DynamicListener` per name: its `active_state`, while a newer one waits for its routes
 * `warming_state`, and while it drains `draining_state`.
 */
function dynamicListeners(
  active: readonly ListenerView[],
  draining: readonly ListenerView[],
  warming: readonly ListenerView[] = [],
): JsonObject[] {
  const state = (l: ListenerView) => ({
    version_info: l.apiUpdate!.version_info,
    listener: { "@type": LISTENER_TYPE, ...l.config },
    last_updated: l.apiUpdate!.last_updated,
  });
  const out = new Map<string, JsonObject>();
  for (const l of active) out.set(l.name, { name: l.name, active_state: state(l) });
  for (const l of draining) {
    if (!l.apiUpdate) continue;
    const e = out.get(l.name) ?? { name: l.name };
    out.set(l.name, { ...e, draining_state: state(l) });
  }
  for (const l of warming) {
    if (!l.apiUpdate) continue;
    const e = out.get(l.name) ?? { name: l.name };
    out.set(l.name, { ...e, warming_state: state(l) });
  }
  return [...out.values()];
}
