/**
 * `/server_info`, `/ready`, `/hot_restart_version`, `/memory` and `/certs`.
 *
 * `/server_info` renders every primitive field (Envoy's always-print mode): `version`, `state`,
 * the uptimes as `"<n>s"`, `hot_restart_version`, `command_line_options` (keys and kinds from the
 * rows of `spec/cli/options.ts` that have a `field` column) and `node` (the bootstrap node with
 * the `--service-*` overrides, `user_agent_name: proxyspec` and the build version of deno.json).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SERVER_INFO_HANDLERS } from "./server_info_handler.ts";
 * import { call, testContext } from "./testing_context.ts";
 * const res = await call(testContext(), "GET", "/ready", { handlers: SERVER_INFO_HANDLERS });
 * assert.equal(await res.text(), "LIVE\n");
 * ```
 * @module
 */
import { ADMIN_RESOURCES, ERRORS, OPTIONS, row, type RowId, STATES } from "../../spec/mod.ts";
import type { OptionRow } from "../../spec/rule.ts";
import type { Options } from "../config/options.ts";
import type { Json, JsonObject, NodeConfig } from "../config/bootstrap_types.ts";
import type { ServerContext } from "../server/context.ts";
import type { Handler } from "./types.ts";
import { jsonResponse, textResponse, uint64 } from "../config/proto_json.ts";
import { collectCertificates } from "../server/certs.ts";
import denoJson from "../../deno.json" with { type: "json" };

/** The `command_line_options` object, driven by the options table. */
export function commandLineOptions(options: Options): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const row of OPTIONS as readonly OptionRow[]) {
    if (!row.field) continue;
    const key = row.long.slice(2).replaceAll("-", "_") as keyof Options;
    const v = options[key] as unknown;
    switch (row.fieldKind) {
      case "integer":
        out[row.field] = Number(v ?? 0);
        break;
      case "boolean":
        out[row.field] = Boolean(v);
        break;
      case "uint64-string":
        out[row.field] = uint64(Number(v ?? 0));
        break;
      case "duration-s":
        out[row.field] = `${Number(v ?? 0)}s`;
        break;
      case "duration-ms":
        out[row.field] = `${Number(v ?? 0) / 1000}s`;
        break;
      default: {
        const text = Array.isArray(v) ? v.map(String) : v === null ? "" : String(v ?? "");
        // Enumerated options render as their proto enum names (`serve` -> `Serve`).
        out[row.field] = typeof text === "string" && row.fieldValues?.[text] || text;
      }
    }
  }
  return out;
}

/** `{major_number, minor_number, patch}` of a semantic version string. */
export function buildVersion(
  version: string,
): { major_number: number; minor_number: number; patch: number } {
  const [major, minor, patch] = version.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  return { major_number: major ?? 0, minor_number: minor ?? 0, patch: patch ?? 0 };
}

type ResourceId = RowId<typeof ADMIN_RESOURCES>;

/** A field of an object `/server_info` prints: computed from the server, or absent (`undefined`). */
type InfoField = (server: ServerContext, now: number) => Json | undefined;

/** Fills `out` in `order` from the fields of `rows` (keyed by the last part of each row's
 * `name`) and of `extra` (fields real Envoy prints that no row lists). */
function fill(
  rows: Readonly<Record<string, InfoField>>,
  extra: Readonly<Record<string, InfoField>>,
  order: readonly string[],
  server: ServerContext,
  now: number,
): JsonObject {
  const byName = new Map<string, InfoField>(Object.entries(extra));
  for (const [id, f] of Object.entries(rows)) {
    const name = row(ADMIN_RESOURCES, id as ResourceId).name;
    byName.set(name.slice(name.lastIndexOf(".") + 1), f);
  }
  const out: JsonObject = {};
  for (const name of order) {
    const f = byName.get(name);
    if (f === undefined) throw new Error(`no field ${name} of /server_info`);
    const v = f(server, now);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function bootstrapNode(server: ServerContext): NodeConfig {
  return server.bootstrap.node ?? {};
}

/** Every `node` field row of `admin.resources`, as `/server_info` fills it. */
const NODE_FIELDS: Readonly<
  Record<Extract<ResourceId, `admin.resources.node.${string}`>, InfoField>
> = {
  "admin.resources.node.id": (s) => {
    const id = bootstrapNode(s).id;
    return s.options.service_node || (typeof id === "string" ? id : "");
  },
  "admin.resources.node.cluster": (s) => {
    const cluster = bootstrapNode(s).cluster;
    return s.options.service_cluster || (typeof cluster === "string" ? cluster : "");
  },
  "admin.resources.node.user_agent_name": () => "proxyspec",
  "admin.resources.node.user_agent_build_version": () => ({
    version: buildVersion(denoJson.version),
  }),
  "admin.resources.node.metadata": (s) => bootstrapNode(s).metadata ?? {},
  "admin.resources.node.extensions": () => [],
  "admin.resources.node.client_features": (s) => {
    const features = bootstrapNode(s).client_features;
    return Array.isArray(features) ? features : [];
  },
  "admin.resources.node.listening_addresses": () => [],
};

/** `node.locality`: the bootstrap's, with `--service-zone` as its zone; absent when empty. */
const NODE_ENVOY_FIELDS: Readonly<Record<string, InfoField>> = {
  locality: (s) => {
    const locality = { ...(bootstrapNode(s).locality ?? {}) };
    if (s.options.service_zone) locality.zone = s.options.service_zone;
    return Object.keys(locality).length > 0 ? locality : undefined;
  },
};

/** The `node` fields in the order of `envoy.config.core.v3.Node`. */
const NODE_ORDER = [
  "id",
  "cluster",
  "metadata",
  "locality",
  "user_agent_name",
  "user_agent_build_version",
  "extensions",
  "client_features",
  "listening_addresses",
];

/** The `node` object of `/server_info`. */
export function nodeInfo(server: ServerContext): JsonObject {
  return fill(NODE_FIELDS, NODE_ENVOY_FIELDS, NODE_ORDER, server, Date.now());
}

const seconds = (ms: number) => `${Math.max(0, Math.floor(ms / 1000))}s`;

/** Every `/server_info` field row of `admin.resources`, as the handler fills it
 * (`fields-not-shown` is about the meaning of them all and names no field). */
const SERVER_INFO_FIELDS: Readonly<
  Record<
    Exclude<
      Extract<ResourceId, `admin.resources.server_info.${string}`>,
      "admin.resources.server_info.fields-not-shown"
    >,
    InfoField
  >
> = {
  "admin.resources.server_info.version": (s) => s.version,
  "admin.resources.server_info.state": (s) => s.state(),
  "admin.resources.server_info.command_line_options": (s) => commandLineOptions(s.options),
  "admin.resources.server_info.uptime_current_epoch": (s, now) => seconds(now - s.startedAt),
  "admin.resources.server_info.uptime_all_epochs": (s, now) => seconds(now - s.firstEpochStartedAt),
  "admin.resources.server_info.node": (s) => nodeInfo(s),
};

/** `hot_restart_version`, which real Envoy prints and the specification's table does not list. */
const SERVER_INFO_ENVOY_FIELDS: Readonly<Record<string, InfoField>> = {
  hot_restart_version: (s) => s.hotRestartVersion,
};

/** The fields of `envoy.admin.v3.ServerInfo`, in its order. */
const SERVER_INFO_ORDER = [
  "version",
  "state",
  "uptime_current_epoch",
  "uptime_all_epochs",
  "hot_restart_version",
  "command_line_options",
  "node",
];

const serverInfo: Handler = (_req, server) =>
  jsonResponse(
    fill(SERVER_INFO_FIELDS, SERVER_INFO_ENVOY_FIELDS, SERVER_INFO_ORDER, server, Date.now()),
    { alwaysPrintPrimitives: true },
  );

/** The state in which `/ready` answers 200 (`admin.states.server-live-ready`). */
const READY_STATE = row(STATES, "admin.states.server-live-ready").from;

const READY_STATUS = {
  live: row(ERRORS, "errors.ready-live").status,
  notLive: row(ERRORS, "errors.ready-not-live").status,
};

const ready: Handler = (_req, server) => {
  const state = server.state();
  return textResponse(
    `${state}\n`,
    state === READY_STATE ? READY_STATUS.live : READY_STATUS.notLive,
  );
};

const memory: Handler = () => {
  const m = Deno.memoryUsage();
  return jsonResponse({
    allocated: uint64(m.heapUsed + m.external),
    heap_size: uint64(m.heapTotal),
    pageheap_unmapped: "0",
    pageheap_free: uint64(m.heapTotal - m.heapUsed),
    total_thread_cache: "0",
    total_physical_bytes: uint64(m.rss),
  }, { alwaysPrintPrimitives: true });
};

/** Handlers of this family, by path. */
export const SERVER_INFO_HANDLERS = {
  "/server_info": serverInfo,
  "/ready": ready,
  "/hot_restart_version": (_req, server) => textResponse(server.hotRestartVersion),
  "/memory": memory,
  "/certs": (_req, server) =>
    jsonResponse({ certificates: collectCertificates(server, Date.now()) }, {
      alwaysPrintPrimitives: true,
    }),
} satisfies Record<string, Handler>;
