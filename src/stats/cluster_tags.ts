/**
 * Tag extraction shared by the stats of every cluster. With the default extractors, a name
 * `cluster.<name>.<rest><leaf>` (every segment non-empty, none containing `grpc` or `ssl`) is
 * touched by two kinds of extractors only: the cluster-name extractor, which takes segment two,
 * and the response-code extractors, which are anchored at the end of the last segment and
 * contain no dot. So its extraction is that of `cluster.x.<rest><leaf>` with the cluster-name
 * tag's value swapped: the Prometheus index extracts once per `<rest><leaf>` instead of once per
 * stat. The gRPC bridge and TLS cipher-suite extractors, the only other ones for `cluster.`
 * names, need `.grpc.` or `.ssl.ciphers.` in the name, which the conditions exclude.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterOfHead, leafTags } from "./cluster_tags.ts";
 * assert.deepEqual(clusterOfHead("cluster.web.circuit_breakers.default."), {
 *   cluster: "web",
 *   rest: "circuit_breakers.default.",
 * });
 * assert.deepEqual(leafTags("", "upstream_rq_200"), {
 *   name: "cluster.upstream_rq",
 *   tags: [["proxy.response_code", "200"]],
 * });
 * ```
 * @module
 */
import { extractTags, TAG_NAME_PREFIX, type TaggedName } from "./tag_extraction.ts";

/** The tag that carries the cluster name. */
export const CLUSTER_NAME_TAG = `${TAG_NAME_PREFIX}cluster_name`;

const PREFIX = "cluster.";

function plain(s: string): boolean {
  return s !== "" && !s.includes(".") && !s.includes("grpc") && !s.includes("ssl");
}

/** A head `cluster.<name>.<rest>` split. */
export interface ClusterHead {
  /** The cluster's stat name. */
  cluster: string;
  /** What follows `cluster.<name>.` in the head: `""` or segments each ending in a dot. */
  rest: string;
}

/**
 * The parts of a head `cluster.<name>.<rest>` whose stats can share extraction, or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterOfHead } from "./cluster_tags.ts";
 * assert.deepEqual(clusterOfHead("cluster.web."), { cluster: "web", rest: "" });
 * assert.equal(clusterOfHead("http.ingress."), undefined);
 * ```
 */
export function clusterOfHead(head: string): ClusterHead | undefined {
  if (!head.startsWith(PREFIX) || !head.endsWith(".")) return undefined;
  const segments = head.slice(PREFIX.length, -1).split(".");
  if (!segments.every(plain)) return undefined;
  const cluster = segments[0];
  return { cluster, rest: head.slice(PREFIX.length + cluster.length + 1) };
}

/**
 * The extraction of `cluster.<name>.<rest><leaf>` without the cluster-name tag (which comes
 * last), for a `rest` from {@linkcode clusterOfHead}; undefined when `leaf` does not qualify.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leafTags } from "./cluster_tags.ts";
 * assert.deepEqual(leafTags("", "upstream_cx_total"), {
 *   name: "cluster.upstream_cx_total",
 *   tags: [],
 * });
 * assert.equal(leafTags("", "grpc"), undefined);
 * ```
 */
export function leafTags(rest: string, leaf: string): TaggedName | undefined {
  if (!plain(leaf)) return undefined;
  const r = extractTags(`${PREFIX}x.${rest}${leaf}`);
  const last = r.tags[r.tags.length - 1];
  if (last === undefined || last[0] !== CLUSTER_NAME_TAG || last[1] !== "x") return undefined;
  return { name: r.name, tags: r.tags.slice(0, -1) };
}
