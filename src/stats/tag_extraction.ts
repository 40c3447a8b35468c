/**
 * Tag extraction: turns a flat stat name into a tag-extracted name and tags, with real Envoy's
 * default extractors (`source/common/config/well_known_names.cc`) renamed from `envoy.` to
 * `proxy.`. An extractor's regex runs on the full name; its first capture group is removed from
 * the name and its last capture group is the tag value. Extractors without a leading literal
 * token run first, then those whose token equals the name's first token, as in Envoy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractTags } from "./tag_extraction.ts";
 * assert.deepEqual(extractTags("cluster.web.upstream_rq_200"), {
 *   name: "cluster.upstream_rq",
 *   tags: [["proxy.response_code", "200"], ["proxy.cluster_name", "web"]],
 * });
 * ```
 * @module
 */

/** A name after tag extraction. */
export interface TaggedName {
  name: string;
  tags: ReadonlyArray<readonly [string, string]>;
}

/** One default extractor: tag name, regex, optional substring that must occur. */
interface Extractor {
  tag: string;
  re: RegExp;
  /** The name's first token that the regex requires (undefined: applies to every name). */
  token?: string;
  substr?: string;
}

const DEFAULTS: ReadonlyArray<[string, string, string?]> = [
  ["cluster_name", String.raw`^cluster\.((.+?)\.)`],
  ["http_conn_manager_prefix", String.raw`^listener(?=\.).*?\.http\.(([^.]+)\.)`, ".http."],
  ["http_conn_manager_prefix", String.raw`^http\.((.*?)\.)`],
  ["http_user_agent", String.raw`^http(?=\.).*?\.user_agent\.((.+?)\.)\w+?$`, ".user_agent."],
  ["virtual_host", String.raw`^vhost\.((.*?)\.)`],
  ["virtual_cluster", String.raw`^vhost(?=\.).*?\.vcluster\.((.*?)\.)\w+?$`, ".vcluster."],
  ["fault_downstream_cluster", String.raw`^http(?=\.).*?\.fault\.((.*?)\.)\w+?$`, ".fault."],
  ["response_code", String.raw`_rq(_(\d{3}))$`, "_rq_"],
  ["response_code_class", String.raw`_rq_(\d)xx$`, "_rq_"],
  [
    "dynamo_operation",
    String.raw`^http(?=\.).*?\.dynamodb\.operation\.((.*?)\.)\w+?$`,
    ".dynamodb.operation.",
  ],
  ["dynamo_table", String.raw`^http(?=\.).*?\.dynamodb\.table\.((.*?)\.)\w+?$`, ".dynamodb.table."],
  [
    "dynamo_partition_id",
    String
      .raw`^http(?=\.).*?\.dynamodb\.table(?=\.).*?\.capacity(?=\.).*?(\.__partition_id=(\w{7}))$`,
    ".__partition_id=",
  ],
  ["grpc_bridge_service", String.raw`^cluster(?=\.).*?\.grpc\.((.*?)\.)`, ".grpc."],
  ["grpc_bridge_method", String.raw`^cluster(?=\.).*?\.grpc(?=\.).*\.((.*?)\.)\w+?$`, ".grpc."],
  ["ssl_cipher", String.raw`^listener(?=\.).*?\.ssl\.cipher(\.(.*?))$`, ".ssl.cipher"],
  ["ssl_cipher_suite", String.raw`^cluster(?=\.).*?\.ssl\.ciphers(\.(.*?))$`, ".ssl.ciphers."],
  ["clientssl_prefix", String.raw`^auth\.clientssl\.((.*?)\.)\w+?$`],
  ["mongo_prefix", String.raw`^mongo\.((.*?)\.)`],
  ["mongo_cmd", String.raw`^mongo(?=\.).*?\.cmd\.((.*?)\.)\w+?$`, ".cmd."],
  ["mongo_collection", String.raw`^mongo(?=\.).*?\.collection\.((.*?)\.).*?query\.\w+?$`],
  [
    "mongo_callsite",
    String.raw`^mongo(?=\.).*?\.collection(?=\.).*?\.callsite\.((.*?)\.).*?query\.\w+?$`,
    ".callsite.",
  ],
  ["ratelimit_prefix", String.raw`^ratelimit\.((.*?)\.)\w+?$`],
  ["tcp_prefix", String.raw`^tcp\.((.*?)\.)\w+?$`],
  ["udp_prefix", String.raw`^udp\.((.*?)\.)\w+?$`],
  ["thrift_prefix", String.raw`^thrift\.((.*?)\.)`],
  ["rds_route_config", String.raw`^http(?=\.).*?\.rds\.((.*?)\.)\w+?$`, ".rds."],
  ["listener_address", String.raw`^listener\.(((?:[_.\d]*|[_\[\]aAbBcCdDeEfF\d]*))\.)`],
  ["worker_id", String.raw`^(?:listener_manager|server)\.(worker_(\d+)\.)`, "worker_"],
];

/** The prefix of every default tag name. */
export const TAG_NAME_PREFIX = "proxy.";

function leadingToken(re: string): string | undefined {
  const m = /^\^([a-z_]+)(?:\\\.|\(\?=\\\.\))/.exec(re);
  return m ? m[1] : undefined;
}

const EXTRACTORS: Extractor[] = DEFAULTS.map(([tag, re, substr]) => ({
  tag: TAG_NAME_PREFIX + tag,
  re: new RegExp(re, "d"),
  token: leadingToken(re),
  substr,
}));
const UNPREFIXED = EXTRACTORS.filter((e) => e.token === undefined);
const BY_TOKEN = new Map<string, Extractor[]>();
for (const e of EXTRACTORS) {
  if (e.token === undefined) continue;
  const list = BY_TOKEN.get(e.token) ?? [];
  list.push(e);
  BY_TOKEN.set(e.token, list);
}

/**
 * Applies the default tag extractors to `statName`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractTags } from "./tag_extraction.ts";
 * assert.deepEqual(extractTags("server.live"), { name: "server.live", tags: [] });
 * ```
 */
export function extractTags(statName: string): TaggedName {
  const dot = statName.indexOf(".");
  const token = dot < 0 ? statName : statName.slice(0, dot);
  const tags: [string, string][] = [];
  const cuts: [number, number][] = [];
  const apply = (e: Extractor) => {
    if (e.substr !== undefined && !statName.includes(e.substr)) return;
    const m = e.re.exec(statName);
    if (m === null || m.indices === undefined) return;
    const range = m.indices[1];
    if (range === undefined) return;
    tags.push([e.tag, m[2] ?? m[1]]);
    cuts.push([range[0], range[1]]);
  };
  for (const e of UNPREFIXED) apply(e);
  for (const e of BY_TOKEN.get(token) ?? []) apply(e);
  if (cuts.length === 0) return { name: statName, tags };
  cuts.sort((a, b) => a[0] - b[0]);
  let name = "";
  let pos = 0;
  for (const [from, to] of cuts) {
    if (from > pos) name += statName.slice(pos, from);
    if (to > pos) pos = to;
  }
  name += statName.slice(pos);
  return { name, tags };
}
