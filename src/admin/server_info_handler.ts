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
import { OPTIONS } from "../../spec/cli/options.ts";
import type { OptionRow } from "../../spec/rule.ts";
import type { Options } from "../config/options.ts";
import type { Json, JsonObject } from "../config/bootstrap_types.ts";
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
        // Enumerated options render as their proto enum names (`serve` → `Serve`).
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

/** The `node` object of `/server_info`. */
export function nodeInfo(server: ServerContext): JsonObject {
  const n = server.bootstrap.node ?? {};
  const o = server.options;
  const locality = { ...(n.locality ?? {}) };
  if (o.service_zone) locality.zone = o.service_zone;
  const node: JsonObject = {
    id: o.service_node || (typeof n.id === "string" ? n.id : ""),
    cluster: o.service_cluster || (typeof n.cluster === "string" ? n.cluster : ""),
    metadata: n.metadata ?? {},
  };
  if (Object.keys(locality).length > 0) node.locality = locality;
  node.user_agent_name = "proxyspec";
  node.user_agent_build_version = { version: buildVersion(denoJson.version) };
  node.extensions = [];
  node.client_features = Array.isArray(n.client_features) ? n.client_features : [];
  node.listening_addresses = [];
  return node;
}

const seconds = (ms: number) => `${Math.max(0, Math.floor(ms / 1000))}s`;

const serverInfo: Handler = (_req, server) => {
  const now = Date.now();
  return jsonResponse({
    version: server.version,
    state: server.state(),
    uptime_current_epoch: seconds(now - server.startedAt),
    uptime_all_epochs: seconds(now - server.firstEpochStartedAt),
    hot_restart_version: server.hotRestartVersion,
    command_line_options: commandLineOptions(server.options),
    node: nodeInfo(server),
  }, { alwaysPrintPrimitives: true });
};

const ready: Handler = (_req, server) => {
  const state = server.state();
  return textResponse(`${state}\n`, state === "LIVE" ? 200 : 503);
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
