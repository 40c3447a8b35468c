/**
 * Where an EDS cluster's endpoints come from: `eds_cluster_config.eds_config`, a filesystem config
 * source (`path`, or v3 `path_config_source.path`) or a control plane (`ads`, or a gRPC
 * `api_config_source`: `spec`, read by `src/config/config_source.ts`); `service_name`, or else
 * the cluster name, names the ClusterLoadAssignment. Sources this build cannot use are reported
 * with their path, not ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { edsSourceOf } from "./eds_source.ts";
 * const s = edsSourceOf({
 *   name: "web",
 *   eds_cluster_config: { eds_config: { path: "/etc/proxy/eds.yaml" } },
 * });
 * assert.deepEqual(s, { ok: true, path: "/etc/proxy/eds.yaml", serviceName: "web" });
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { jsonName } from "../config/bootstrap_schema.ts";
import { isObject } from "../config/values.ts";
import { configSourceOf, type SourceSpec } from "../config/config_source.ts";

/** The source of an EDS cluster, or why it cannot be used (with the path below the cluster). */
export type EdsSource =
  | { ok: true; path: string; serviceName: string; spec?: SourceSpec }
  | { ok: false; at: string; message: string };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => isObject(v) ? v : undefined;
/** A field by its proto name or its JSON (lowerCamel) name. */
const get = (o: Obj | undefined, snake: string): unknown => o?.[snake] ?? o?.[jsonName(snake)];

/**
 * The file of a `ConfigSource` (`path`, or v3 `path_config_source.path`), or why it has none;
 * `at` is the path of the source in the configuration.
 */
export function fileSourceOf(
  source: unknown,
  at: string,
): { ok: true; path: string } | { ok: false; at: string; message: string } {
  const src = obj(source);
  if (!src) return { ok: false, at, message: `${at} must be a ConfigSource object` };
  const path = get(src, "path") ?? get(obj(get(src, "path_config_source")), "path");
  if (typeof path === "string" && path !== "") return { ok: true, path };
  const kind = ["api_config_source", "ads", "self"].find((k) => get(src, k) !== undefined);
  return {
    ok: false,
    at: kind ? `${at}.${kind}` : at,
    message: kind
      ? `${kind} needs a control-plane connection, which is not implemented ` +
        "yet; use a filesystem config source (path)"
      : "no config source set; set path to a file holding a DiscoveryResponse",
  };
}

/** Reads the EDS source of a cluster as configured. */
export function edsSourceOf(cluster: JsonObject): EdsSource {
  const eds = obj(get(cluster, "eds_cluster_config"));
  const src = get(eds, "eds_config");
  const at = "eds_cluster_config.eds_config";
  const name = String(get(cluster, "name") ?? "");
  const svc = get(eds, "service_name");
  const serviceName = typeof svc === "string" && svc !== "" ? svc : name;
  if (src === undefined || src === null) {
    return { ok: false, at, message: "an EDS cluster needs eds_cluster_config.eds_config" };
  }
  const f = configSourceOf(src, at);
  if (!f.ok) return f;
  return f.spec.kind === "path"
    ? { ok: true, path: f.spec.path, serviceName }
    : { ok: true, path: "", serviceName, spec: f.spec };
}
