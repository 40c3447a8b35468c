/**
 * What a `core.ConfigSource` asks for, read once so the managers do not each re-parse it: a file
 * (`path`, v3 `path_config_source.path`), the aggregated stream (`ads: {}`, over the bootstrap's
 * `dynamic_resources.ads_config`) or a stream of its own (`api_config_source` with `api_type`
 * `GRPC` or `DELTA_GRPC` and one `grpc_services[].envoy_grpc.cluster_name`). Everything else a
 * control plane could be reached by (REST, `google_grpc`, `self`, rate limits, validators) is
 * refused with its path, never ignored. `initial_fetch_timeout` (default 15 s, 0 waits forever)
 * bounds how long start-up waits for the first update.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { configSourceOf } from "./config_source.ts";
 * const s = configSourceOf({
 *   api_config_source: {
 *     api_type: "GRPC",
 *     grpc_services: [{ envoy_grpc: { cluster_name: "xds" } }],
 *   },
 * }, "dynamic_resources.cds_config");
 * assert.deepEqual(s, {
 *   ok: true,
 *   spec: { kind: "grpc", delta: false, clusterName: "xds", initialFetchTimeoutMs: 15000 },
 * });
 * ```
 * @module
 */
import { jsonName } from "./bootstrap_schema.ts";
import { isObject, parseDuration } from "./values.ts";

/** Where a subscription's updates come from. */
export type SourceSpec =
  | { kind: "path"; path: string }
  | { kind: "ads"; initialFetchTimeoutMs: number }
  | { kind: "grpc"; delta: boolean; clusterName: string; initialFetchTimeoutMs: number };

/** A source, or why it cannot be used (`at` is the field path). */
export type SourceResult =
  | { ok: true; spec: SourceSpec }
  | { ok: false; at: string; message: string };

/** An `ApiConfigSource` (an `api_config_source` or the bootstrap's `ads_config`). */
export type ApiSourceResult =
  | { ok: true; delta: boolean; clusterName: string }
  | { ok: false; at: string; message: string };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => isObject(v) ? v : undefined;
const get = (o: Obj | undefined, snake: string): unknown => o?.[snake] ?? o?.[jsonName(snake)];
const has = (o: Obj | undefined, snake: string) => get(o, snake) !== undefined;

/** Fields of ApiConfigSource that this build reads. */
const API_FIELDS = new Set([
  "api_type",
  "transport_api_version",
  "grpc_services",
  "set_node_on_first_message_only",
]);

/** Reads an `ApiConfigSource` at `at`. */
export function apiSourceOf(source: unknown, at: string): ApiSourceResult {
  const src = obj(source);
  if (!src) return { ok: false, at, message: "must be an ApiConfigSource object" };
  for (const k of Object.keys(src)) {
    const snake = k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
    if (!API_FIELDS.has(snake)) {
      return {
        ok: false,
        at: `${at}.${k}`,
        message: `${snake} is not supported by this build (gRPC control planes are: ` +
          "api_type, transport_api_version, grpc_services)",
      };
    }
  }
  const type = get(src, "api_type");
  if (type !== "GRPC" && type !== "DELTA_GRPC") {
    return {
      ok: false,
      at: `${at}.api_type`,
      message: `api_type ${
        JSON.stringify(type ?? "LEGACY_REST")
      } is not supported by this build (GRPC and DELTA_GRPC are)`,
    };
  }
  const services = get(src, "grpc_services");
  if (!Array.isArray(services) || services.length !== 1) {
    return {
      ok: false,
      at: `${at}.grpc_services`,
      message: "exactly one gRPC service is needed",
    };
  }
  const svc = obj(services[0]);
  const g = obj(get(svc, "envoy_grpc"));
  for (const k of Object.keys(svc ?? {})) {
    if (k !== "envoy_grpc" && k !== "envoyGrpc") {
      return {
        ok: false,
        at: `${at}.grpc_services[0].${k}`,
        message: `${k} is not supported by this build (envoy_grpc is)`,
      };
    }
  }
  const name = get(g, "cluster_name");
  if (typeof name !== "string" || name === "") {
    return {
      ok: false,
      at: `${at}.grpc_services[0].envoy_grpc.cluster_name`,
      message: "a gRPC service needs envoy_grpc.cluster_name, the name of a static cluster",
    };
  }
  for (const k of Object.keys(g ?? {})) {
    if (k !== "cluster_name" && k !== "clusterName") {
      return {
        ok: false,
        at: `${at}.grpc_services[0].envoy_grpc.${k}`,
        message: `${k} is not supported by this build`,
      };
    }
  }
  return { ok: true, delta: type === "DELTA_GRPC", clusterName: name };
}

/** Reads a `ConfigSource` at `at`. */
export function configSourceOf(source: unknown, at: string): SourceResult {
  const src = obj(source);
  if (!src) return { ok: false, at, message: `${at} must be a ConfigSource object` };
  const path = get(src, "path") ?? get(obj(get(src, "path_config_source")), "path");
  if (typeof path === "string" && path !== "") return { ok: true, spec: { kind: "path", path } };
  let initialFetchTimeoutMs = 15000;
  const t = get(src, "initial_fetch_timeout");
  if (t !== undefined) {
    const d = parseDuration(t);
    if (!d.ok) return { ok: false, at: `${at}.initial_fetch_timeout`, message: d.error };
    initialFetchTimeoutMs = d.value;
  }
  if (has(src, "ads")) return { ok: true, spec: { kind: "ads", initialFetchTimeoutMs } };
  if (has(src, "api_config_source")) {
    const a = apiSourceOf(get(src, "api_config_source"), `${at}.api_config_source`);
    if (!a.ok) return a;
    return {
      ok: true,
      spec: { kind: "grpc", delta: a.delta, clusterName: a.clusterName, initialFetchTimeoutMs },
    };
  }
  if (has(src, "self")) {
    return {
      ok: false,
      at: `${at}.self`,
      message: "a self config source is not supported by this build (use ads or " +
        "api_config_source)",
    };
  }
  return {
    ok: false,
    at,
    message: "no config source set; set path, ads or api_config_source",
  };
}
