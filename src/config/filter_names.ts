/**
 * Filter and extension names: configuration may spell them with the `envoy.` or the `proxy.`
 * prefix, in their v2 short form (`envoy.http_connection_manager`) or their v3 form
 * (`envoy.filters.network.http_connection_manager`). {@linkcode canonicalFilterName} maps all of
 * them to one spelling for matching; the configuration keeps the name as written (config_dump
 * shows the original).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalFilterName } from "./filter_names.ts";
 * assert.equal(canonicalFilterName("envoy.router"), "proxy.filters.http.router");
 * assert.equal(canonicalFilterName("proxy.filters.http.router"), "proxy.filters.http.router");
 * ```
 * {@linkcode EXTENSIONS} lists the extensions this implementation has, by category, for
 * `--disable-extensions` (`<category>/<name>`, either spelling of both parts).
 *
 * @module
 */
import { CLUSTER_RULES, row } from "../../spec/mod.ts";

/** v2 short names (without prefix) -> v3 names (without prefix). */
const LEGACY: Readonly<Record<string, string>> = {
  http_connection_manager: "filters.network.http_connection_manager",
  tcp_proxy: "filters.network.tcp_proxy",
  router: "filters.http.router",
  health_check: "filters.http.health_check",
  "listener.tls_inspector": "filters.listener.tls_inspector",
  "listener.original_dst": "filters.listener.original_dst",
  "listener.proxy_protocol": "filters.listener.proxy_protocol",
  "listener.http_inspector": "filters.listener.http_inspector",
  "transport_sockets.tls": "transport_sockets.tls",
  tls: "transport_sockets.tls",
  raw_buffer: "transport_sockets.raw_buffer",
  statsd: "stat_sinks.statsd",
  dog_statsd: "stat_sinks.dog_statsd",
  metrics_service: "stat_sinks.metrics_service",
};

/** v3 names (without prefix) -> the type of their typed configuration. */
export const TYPE_URLS: Readonly<Record<string, string>> = {
  "filters.network.http_connection_manager":
    "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
  "filters.network.tcp_proxy": "envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy",
  "filters.http.router": "envoy.extensions.filters.http.router.v3.Router",
  "filters.http.health_check": "envoy.extensions.filters.http.health_check.v3.HealthCheck",
  "filters.listener.tls_inspector":
    "envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector",
  "filters.listener.original_dst": "envoy.extensions.filters.listener.original_dst.v3.OriginalDst",
  "filters.listener.proxy_protocol":
    "envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol",
  "filters.listener.http_inspector":
    "envoy.extensions.filters.listener.http_inspector.v3.HttpInspector",
};

/** The prefix of type URLs. */
export const TYPE_URL_PREFIX = "type.googleapis.com/";

/** The name without its `envoy.` / `proxy.` prefix, in v3 form; `null` without a prefix. */
function bare(name: string): string | null {
  const m = /^(?:envoy|proxy)\.(.*)$/.exec(name);
  if (!m) return null;
  return LEGACY[m[1]] ?? m[1];
}

/**
 * One spelling for every accepted spelling of a filter name (`proxy.filters.http.router`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalFilterName } from "./filter_names.ts";
 * assert.equal(canonicalFilterName("envoy.tcp_proxy"), "proxy.filters.network.tcp_proxy");
 * ```
 */
export function canonicalFilterName(name: string): string {
  const b = bare(name);
  return b === null ? name : `proxy.${b}`;
}

/**
 * The full type URL of a filter's typed configuration, when the filter is well known.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { typeUrlOf } from "./filter_names.ts";
 * assert.equal(
 *   typeUrlOf("envoy.router"),
 *   "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router",
 * );
 * ```
 */
export function typeUrlOf(name: string): string | undefined {
  const b = bare(name);
  const t = b === null ? undefined : TYPE_URLS[b];
  return t ? TYPE_URL_PREFIX + t : undefined;
}

/** The custom cluster types of the `custom-type` cluster rule, in canonical spelling. */
function clusterTypes(): string[] {
  const names = new Set<string>();
  for (const n of row(CLUSTER_RULES, "cluster.rules.custom-type-registered").rule.names) {
    names.add(canonicalFilterName(n.name));
  }
  return [...names];
}

const TRANSPORT_SOCKETS = ["proxy.transport_sockets.tls", "proxy.transport_sockets.raw_buffer"];

/**
 * The extensions this implementation has, by category (Envoy's category names, canonical
 * `proxy.` spelling); `--disable-extensions` only knows these, other names are warned about.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EXTENSIONS } from "./filter_names.ts";
 * assert.equal(EXTENSIONS["proxy.filters.http"].includes("proxy.filters.http.router"), true);
 * ```
 */
export const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  "proxy.filters.network": [
    "proxy.filters.network.http_connection_manager",
    "proxy.filters.network.tcp_proxy",
  ],
  "proxy.filters.http": [
    "proxy.filters.http.router",
    "proxy.filters.http.health_check",
    "proxy.filters.http.tap",
    "proxy.filters.http.cors",
    "proxy.filters.http.fault",
    "proxy.filters.http.local_ratelimit",
    "proxy.filters.http.buffer",
    "proxy.filters.http.compressor",
    "proxy.filters.http.ext_authz",
  ],

  "proxy.filters.listener": [
    "proxy.filters.listener.tls_inspector",
    "proxy.filters.listener.original_dst",
    "proxy.filters.listener.proxy_protocol",
    "proxy.filters.listener.http_inspector",
  ],
  "proxy.transport_sockets.upstream": TRANSPORT_SOCKETS,
  "proxy.transport_sockets.downstream": TRANSPORT_SOCKETS,
  "proxy.stats_sinks": ["proxy.stat_sinks.hystrix"],
  "proxy.clusters": clusterTypes(),
};

/**
 * The canonical spelling of an extension category (`envoy.filters.http` -> `proxy.filters.http`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalCategory } from "./filter_names.ts";
 * assert.equal(canonicalCategory("envoy.stats_sinks"), "proxy.stats_sinks");
 * ```
 */
export function canonicalCategory(category: string): string {
  return category.replace(/^envoy\./, "proxy.");
}
