/**
 * Upgrade of a v2 bootstrap to the internal (v3-shaped) form, done after the v2 bootstrap has
 * passed its checks. The v2 spellings stay readable beside the v3 ones where the cluster
 * validator and config_dump need them:
 *
 * - Cluster `hosts` -> `load_assignment` (unless set; `hosts` is kept);
 * - Cluster `tls_context` -> `transport_socket` named `envoy.transport_sockets.tls` (unless set;
 *   `tls_context` is kept); FilterChain `tls_context` likewise (downstream);
 * - filter and listener filter `config` (Struct) -> `typed_config` (the well-known filters get
 *   their v3 type, others a `udpa.type.v1.TypedStruct` holding the Struct);
 * - the deprecated `runtime` -> `layered_runtime` with Envoy's layers `base`, `root`, `override`,
 *   `admin`.
 *
 * @example
 * ```ts
 * import { upgradeV2 } from "./bootstrap_upgrade.ts";
 * const b = upgradeV2({ static_resources: { clusters: [{ name: "c", hosts: [] }] } });
 * ```
 * @module
 */
import type { Json, JsonObject } from "./bootstrap_types.ts";
import { TYPE_URL_PREFIX, typeUrlOf } from "./filter_names.ts";
import { isJsonObject as isObj } from "./values.ts";

const list = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** `config` (Struct) -> `typed_config`, also inside an HTTP connection manager's http_filters. */
function upgradeFilter(f: JsonObject): JsonObject {
  if (!isObj(f.config) || f.typed_config !== undefined) return f;
  const { config, ...rest } = f;
  const name = typeof f.name === "string" ? f.name : "";
  const url = typeUrlOf(name);
  let body: JsonObject = config;
  if (Array.isArray(config.http_filters)) {
    body = { ...config, http_filters: list(config.http_filters).map(upgradeFilter) };
  }
  const typed: JsonObject = url
    ? { "@type": url, ...body }
    : { "@type": `${TYPE_URL_PREFIX}udpa.type.v1.TypedStruct`, type_url: "", value: body };
  return { ...rest, typed_config: typed };
}

function tlsSocket(ctx: JsonObject, kind: "Upstream" | "Downstream"): JsonObject {
  return {
    name: "envoy.transport_sockets.tls",
    typed_config: {
      "@type": `${TYPE_URL_PREFIX}envoy.extensions.transport_sockets.tls.v3.${kind}TlsContext`,
      ...ctx,
    },
  };
}

/** A v2 cluster in the internal form: itself when it has nothing to upgrade (most have not). */
function upgradeCluster(c: JsonObject): JsonObject {
  const hosts = Array.isArray(c.hosts) && c.load_assignment === undefined ? c.hosts : undefined;
  if (!hosts && !(isObj(c.tls_context) && c.transport_socket === undefined)) return c;
  const out: JsonObject = { ...c };
  if (hosts) {
    out.load_assignment = {
      cluster_name: typeof c.name === "string" ? c.name : "",
      endpoints: [{ lb_endpoints: hosts.map((address) => ({ endpoint: { address } })) }],
    };
  }
  if (isObj(c.tls_context) && c.transport_socket === undefined) {
    out.transport_socket = tlsSocket(c.tls_context, "Upstream");
  }
  return out;
}

function upgradeListener(l: JsonObject): JsonObject {
  const out: JsonObject = { ...l };
  if (Array.isArray(l.filter_chains)) {
    out.filter_chains = list(l.filter_chains).map((fc) => {
      const chain: JsonObject = { ...fc };
      if (Array.isArray(fc.filters)) chain.filters = list(fc.filters).map(upgradeFilter);
      if (isObj(fc.tls_context) && fc.transport_socket === undefined) {
        chain.transport_socket = tlsSocket(fc.tls_context, "Downstream");
      }
      return chain;
    });
  }
  if (Array.isArray(l.listener_filters)) {
    out.listener_filters = list(l.listener_filters).map(upgradeFilter);
  }
  return out;
}

/**
 * The layers of a v2 `runtime` block (`base`, `symlink_root`, `subdirectory`,
 * `override_subdirectory`) as a `layered_runtime`: a static `base` layer, the `root` and
 * `override` disk layers when there is a symlink root, and an `admin` layer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { upgradeRuntime } from "./bootstrap_upgrade.ts";
 * assert.deepEqual(
 *   upgradeRuntime({ base: { a: 1 } }).layers.map((l) => l.name),
 *   ["base", "admin"],
 * );
 * ```
 */
export function upgradeRuntime(r: JsonObject): { layers: JsonObject[] } {
  const layers: JsonObject[] = [{ name: "base", static_layer: r.base ?? {} }];
  if (typeof r.symlink_root === "string" && r.symlink_root !== "") {
    layers.push({
      name: "root",
      disk_layer: { symlink_root: r.symlink_root, subdirectory: r.subdirectory ?? "" },
    });
    layers.push({
      name: "override",
      disk_layer: {
        symlink_root: r.symlink_root,
        subdirectory: r.override_subdirectory ?? "",
        append_service_cluster: true,
      },
    });
  }
  layers.push({ name: "admin", admin_layer: {} });
  return { layers };
}

/**
 * Upgrades a checked v2 bootstrap to the internal form (the input is not changed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { upgradeV2 } from "./bootstrap_upgrade.ts";
 * const b = upgradeV2({ static_resources: { clusters: [{ name: "c", hosts: [] }] } });
 * assert.deepEqual(b.static_resources, {
 *   clusters: [{
 *     name: "c",
 *     hosts: [],
 *     load_assignment: { cluster_name: "c", endpoints: [{ lb_endpoints: [] }] },
 *   }],
 * });
 * ```
 */
export function upgradeV2(b: JsonObject): JsonObject {
  const out: JsonObject = { ...b };
  if (isObj(b.static_resources)) {
    const sr: JsonObject = { ...b.static_resources };
    if (Array.isArray(sr.clusters)) sr.clusters = list(sr.clusters).map(upgradeCluster);
    if (Array.isArray(sr.listeners)) sr.listeners = list(sr.listeners).map(upgradeListener);
    out.static_resources = sr;
  }
  if (isObj(b.runtime) && b.layered_runtime === undefined) {
    out.layered_runtime = upgradeRuntime(b.runtime);
  }
  return out;
}
