/**
 * Stat naming: the cluster stat prefix rule of the specification and the Prometheus name and
 * label rules.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterStatName, prometheusName } from "./naming.ts";
 * assert.equal(clusterStatName("outbound|80||web.default"), "outbound|80||web.default");
 * assert.equal(clusterStatName("a:b", "alt:name"), "alt_name");
 * assert.equal(prometheusName("cluster.upstream_cx_total"), "proxy_cluster_upstream_cx_total");
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
 * import assert from "node:assert/strict";
 * import { clusterStatName } from "./naming.ts";
 * assert.equal(clusterStatName("web:80"), "web_80");
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
 * import assert from "node:assert/strict";
 * import { sanitizePrometheus } from "./naming.ts";
 * assert.equal(sanitizePrometheus("vulture.eats-liver"), "vulture_eats_liver");
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
 * import assert from "node:assert/strict";
 * import { prometheusName } from "./naming.ts";
 * assert.equal(prometheusName("server.live"), "proxy_server_live");
 * ```
 */
export function prometheusName(extractedName: string): string {
  return PROMETHEUS_PREFIX + sanitizePrometheus(extractedName);
}

/**
 * Escapes a label value for the text exposition format: `\` -> `\\`, `"` -> `\"`, newline -> `\n`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeLabelValue } from "./naming.ts";
 * assert.equal(escapeLabelValue('say "hi"'), 'say \\"hi\\"');
 * ```
 */
export function escapeLabelValue(s: string): string {
  return s.replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : "\\" + c));
}
