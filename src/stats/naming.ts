/**
 * Stat naming: the cluster stat prefix rule of the specification and the Prometheus name and
 * label rules.
 *
 * @example
 * ```ts
 * import { clusterStatName, prometheusName } from "./naming.ts";
 * clusterStatName("outbound|80||web.default"); // "outbound|80||web.default"
 * clusterStatName("a:b", "alt:name"); // "alt_name"
 * prometheusName("cluster.upstream_cx_total"); // "proxy_cluster_upstream_cx_total"
 * ```
 * @module
 */

/**
 * The prefix of every Prometheus metric name (real Envoy uses `envoy_`; the conformance suite's
 * `--profile envoy` maps one to the other).
 */
export const PROMETHEUS_PREFIX = "proxy_";

/**
 * The name a cluster's stats use: `alt_stat_name` when set (non-empty), else `name`, with every
 * `:` turned into `_`.
 *
 * @example
 * ```ts
 * import { clusterStatName } from "./naming.ts";
 * clusterStatName("web:80"); // "web_80"
 * ```
 */
export function clusterStatName(name: string, altStatName?: string | null): string {
  const base = altStatName ? altStatName : name;
  return base.replaceAll(":", "_");
}

/**
 * Replaces every character outside `[a-zA-Z0-9_]` with `_`.
 *
 * @example
 * ```ts
 * import { sanitizePrometheus } from "./naming.ts";
 * sanitizePrometheus("vulture.eats-liver"); // "vulture_eats_liver"
 * ```
 */
export function sanitizePrometheus(s: string): string {
  return s.replace(/[^a-zA-Z0-9_]/g, "_");
}

/**
 * The Prometheus metric name of a tag-extracted stat name.
 *
 * @example
 * ```ts
 * import { prometheusName } from "./naming.ts";
 * prometheusName("server.live"); // "proxy_server_live"
 * ```
 */
export function prometheusName(extractedName: string): string {
  return PROMETHEUS_PREFIX + sanitizePrometheus(extractedName);
}

/**
 * Escapes a label value for the text exposition format: `\` → `\\`, `"` → `\"`, newline → `\n`.
 *
 * @example
 * ```ts
 * import { escapeLabelValue } from "./naming.ts";
 * escapeLabelValue('say "hi"'); // 'say \\"hi\\"'
 * ```
 */
export function escapeLabelValue(s: string): string {
  return s.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : "\\" + c));
}
