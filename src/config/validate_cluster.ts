/**
 * The table-driven Cluster validator. It interprets the spec tables and restates none of their
 * rules: `cluster.fields` / `cluster.objects` / `cluster.enums` (through `nested_schema.ts`:
 * kinds, ranges, enums, required fields, exclusivity groups, unknown fields), the `appliesTo` /
 * `outside` columns, and every `cluster.rules` row by its `rule.kind`. Every error names its path
 * (`static_resources.clusters[2].ring_hash_lb_config`), the rule ID and a readable sentence; all
 * errors of all clusters are reported. Clusters without errors come back in effective form.
 *
 * When two members of an exclusivity group are set, the member met first in the object is kept
 * and each later one is reported at its own path under its own row ID.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateClusters } from "./validate_cluster.ts";
 * const { errors } = validateClusters(
 *   [{ name: "a", connect_timeout: "1s", lb_policy: "ROUND_ROBBIN" }],
 *   { path: "static_resources.clusters", allowUnknown: false },
 * );
 * assert.equal(errors[0].path, "static_resources.clusters[0].lb_policy");
 * assert.equal(errors[0].rule, "cluster.enums.lb-policy");
 * ```
 * @module
 */
import type { SecretStore } from "./secrets.ts";
import type { ClusterRuleRow, DiscoveryType, FieldRow } from "../../spec/rule.ts";
import { CLUSTER_RULES } from "../../spec/cluster/rules.ts";
import { row } from "../../spec/mod.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import { type ConfigError, fillMessage as fill } from "./errors.ts";
import type { EffectiveCluster } from "./effective_cluster.ts";
import { discoveryTypeOf, valueOf } from "./defaults.ts";
import { effectiveCluster } from "./effective_cluster.ts";
import { isSet, MESSAGES, type SchemaContext, validateMessage } from "./nested_schema.ts";
import { isObject, parseDuration, show } from "./values.ts";
import { healthCheckErrors } from "./health_check_rules.ts";
import { connectionLimitsOf, upstreamHttpOf } from "./upstream_http_options.ts";
import {
  aggregateConfigProblems,
  aggregateGraphProblems,
  isAggregate,
} from "./aggregate_cluster.ts";

/** Options of {@linkcode validateClusters}. */
export interface ValidateOptions {
  /** Path prefix of the clusters array, e.g. `static_resources.clusters`. */
  path: string;
  /** Accept unknown fields (report them through `onUnknown`) instead of rejecting them. */
  allowUnknown: boolean;
  onUnknown?: (path: string) => void;
  /** The bootstrap's `cluster_manager.upstream_bind_config`: the bind of clusters without one. */
  bindConfig?: unknown;
  /** SDS secrets the clusters' TLS contexts refer to (`static_resources.secrets`). */
  secrets?: SecretStore;
  /**
   * Called with each valid cluster in effective form, and its index, as soon as it is made.
   * With `keep: false` the effective clusters are not collected (`clusters` comes back empty),
   * so a caller that only checks them holds one at a time, not thousands.
   */
  onEffective?: (cluster: EffectiveCluster, index: number) => void;
  /** Collect the effective clusters in the result (unset: true). */
  keep?: boolean;
}

type Obj = Record<string, unknown>;

/** What a rule check sees of one cluster. */
interface RuleInput {
  c: Obj;
  path: string;
  name: string;
  type: DiscoveryType;
  policy: string;
  /** `upstreamHttpOf(c)` and `connectionLimitsOf(c)`, read once by the rules that need them. */
  http?: ReturnType<typeof upstreamHttpOf>;
  limits?: ReturnType<typeof connectionLimitsOf>;
}

/** The cluster's upstream HTTP options (read once per cluster). */
function httpOf(i: RuleInput): ReturnType<typeof upstreamHttpOf> {
  return i.http ??= upstreamHttpOf(i.c);
}

/** The cluster's connection limits (read once per cluster). */
function limitsOf(i: RuleInput): ReturnType<typeof connectionLimitsOf> {
  return i.limits ??= connectionLimitsOf(i.c);
}

/** Reads a dotted path (`lb_subset_config.locality_weight_aware`) of a normalized cluster. */
function at(c: Obj, dotted: string): unknown {
  let keys = KEYS.get(dotted);
  if (!keys) KEYS.set(dotted, keys = dotted.split("."));
  let v: unknown = c;
  for (const k of keys) v = isObject(v) ? v[k] : undefined;
  return v;
}

/** The keys of the dotted paths rule rows name, split once (the tables do not change). */
const KEYS = new Map<string, readonly string[]>();

/** The message and row a dotted Cluster path ends at (for defaults of rule operands). */
function rowAt(dotted: string): { message: string; row: FieldRow } | undefined {
  if (!ROWS_AT.has(dotted)) ROWS_AT.set(dotted, findRowAt(dotted));
  return ROWS_AT.get(dotted);
}

/** {@linkcode rowAt}'s answers by dotted path (the tables do not change). */
const ROWS_AT = new Map<string, { message: string; row: FieldRow } | undefined>();

function findRowAt(dotted: string): { message: string; row: FieldRow } | undefined {
  let message = "Cluster";
  let row: FieldRow | undefined;
  for (const k of dotted.split(".")) {
    row = MESSAGES.get(message)?.find((r) => r.field === k);
    if (!row) return undefined;
    if (row.type) message = row.type;
  }
  return row ? { message: row.message, row } : undefined;
}

/** Operand value of a dotted path, with the row's default when unset. */
function operand(c: Obj, dotted: string): unknown {
  const hit = rowAt(dotted);
  if (!hit) return at(c, dotted);
  let split = SPLITS.get(dotted);
  if (!split) {
    const parts = dotted.split(".");
    split = { parent: parts.length > 1 ? parts.slice(0, -1).join(".") : null, last: parts.at(-1)! };
    SPLITS.set(dotted, split);
  }
  const parent = split.parent === null ? c : at(c, split.parent);
  return valueOf(hit.message, isObject(parent) ? parent : undefined, split.last);
}

/** Each operand path's parent path (null at the top) and last key, split once. */
const SPLITS = new Map<string, { parent: string | null; last: string }>();

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
function isIp(s: string): boolean {
  if (IPV4.test(s)) return true;
  if (!s.includes(":")) return false;
  try {
    return new URL(`http://[${s}]/`).hostname !== "";
  } catch {
    return false;
  }
}

/**
 * A member address of a cluster: `load_assignment.endpoints[i].lb_endpoints[j].endpoint.address`,
 * or `hosts[i]` when `j` is -1 (its path, {@linkcode memberPath}, is built only for an error).
 */
interface Member {
  addr: Obj;
  i: number;
  j: number;
}

/** The path of a member address, relative to its cluster. */
function memberPath(m: Member): string {
  return m.j < 0
    ? `hosts[${m.i}]`
    : `load_assignment.endpoints[${m.i}].lb_endpoints[${m.j}].endpoint.address`;
}

/** Member addresses, with where they are (for semantic rules). */
function memberAddresses(c: Obj): Member[] {
  const out: Member[] = [];
  const la = c.load_assignment;
  if (isObject(la)) {
    const lles = Array.isArray(la.endpoints) ? la.endpoints : [];
    for (let i = 0; i < lles.length; i++) {
      const lle = lles[i];
      const lbs = isObject(lle) && Array.isArray(lle.lb_endpoints) ? lle.lb_endpoints : [];
      for (let j = 0; j < lbs.length; j++) {
        const a = at(lbs[j] as Obj, "endpoint.address");
        if (isObject(a)) out.push({ addr: a, i, j });
      }
    }
    return out;
  }
  const hosts = Array.isArray(c.hosts) ? c.hosts : [];
  for (let i = 0; i < hosts.length; i++) {
    const h = hosts[i];
    if (isObject(h)) out.push({ addr: h, i, j: -1 });
  }
  return out;
}

type Semantic = (i: RuleInput, row: ClusterRuleRow, err: (p: string, m: string) => void) => void;

/** The `rule.name` of every `semantic` row of the cluster rules table. */
type SemanticName = Extract<(typeof CLUSTER_RULES)[number]["rule"], { kind: "semantic" }>["name"];

/**
 * Checks of `semantic` rule rows, by the row's `rule.name`: a new semantic row without its check
 * does not compile.
 */
const SEMANTIC: Record<SemanticName, Semantic> = {
  "logical-dns-single-endpoint"(i, row, err) {
    const la = i.c.load_assignment;
    if (i.type !== "LOGICAL_DNS" || !isObject(la)) return;
    const lles = Array.isArray(la.endpoints) ? la.endpoints : [];
    const lbs = lles.length === 1 ? at(lles[0] as Obj, "lb_endpoints") : undefined;
    if (lles.length !== 1 || !Array.isArray(lbs) || lbs.length !== 1) {
      err("load_assignment", row.message);
    }
  },
  "logical-dns-single-host"(i, row, err) {
    if (i.type !== "LOGICAL_DNS" || isSet(i.c.load_assignment) || !Array.isArray(i.c.hosts)) return;
    if (i.c.hosts.length !== 1) err("hosts", row.message);
  },
  "logical-dns-no-resolver-name"(i, row, err) {
    if (i.type !== "LOGICAL_DNS") return;
    for (const m of memberAddresses(i.c)) {
      if (isSet(at(m.addr, "socket_address.resolver_name"))) {
        err(`${memberPath(m)}.socket_address.resolver_name`, row.message);
      }
    }
  },
  "static-hosts-are-ip"(i, row, err) {
    if (i.type !== "STATIC") return;
    for (const m of memberAddresses(i.c)) {
      const sa = m.addr.socket_address;
      if (!isObject(sa) || typeof sa.address !== "string" || isSet(sa.resolver_name)) continue;
      if (!isIp(sa.address)) {
        err(`${memberPath(m)}.socket_address.address`, fill(row, { address: sa.address }));
      }
    }
  },
  "grpc-health-check-needs-http2"(i, row, err) {
    if (httpOf(i).http2 !== undefined) return;
    const hcs = Array.isArray(i.c.health_checks) ? i.c.health_checks : [];
    hcs.forEach((h, k) => {
      if (isObject(h) && isSet(h.grpc_health_check)) {
        err(`health_checks[${k}].grpc_health_check`, fill(row, { name: i.name }));
      }
    });
  },
  "http1-and-http2-need-protocol-selection"(i, row, err) {
    if (!isSet(i.c.http_protocol_options) || !isSet(i.c.http2_protocol_options)) return;
    const sel = valueOf("Cluster", i.c, "protocol_selection");
    if (sel === valueOf("Cluster", {}, "protocol_selection")) {
      err("protocol_selection", row.message);
    }
  },
  "maglev-table-size-prime"(i, row, err) {
    const n = Number(at(i.c, "maglev_lb_config.table_size"));
    if (!isSet(at(i.c, "maglev_lb_config.table_size")) || !Number.isInteger(n)) return;
    let prime = n >= 2;
    for (let d = 2; prime && d * d <= n; d++) prime = n % d !== 0;
    if (!prime) err("maglev_lb_config.table_size", row.message);
  },
  "aggregate-config"(i, row, err) {
    if (!isAggregate(i.c)) return;
    for (const [p, reason] of aggregateConfigProblems(i.c)) {
      err(p, fill(row, { name: i.name, reason }));
    }
  },
  "aggregate-needs-cluster-provided"(i, row, err) {
    if (isAggregate(i.c) && i.policy !== "CLUSTER_PROVIDED") {
      err("lb_policy", fill(row, { name: i.name }));
    }
  },
  // Across the clusters of a configuration: see validateClusters.
  "aggregate-known-clusters"() {},
  "aggregate-no-loop"() {},
  "http2-window-sizes-in-range"(i, row, err) {
    http2Range(
      i,
      ["initial_stream_window_size", "initial_connection_window_size"],
      65535,
      row,
      err,
    );
  },
  "http2-max-concurrent-streams-in-range"(i, row, err) {
    http2Range(i, ["max_concurrent_streams"], 1, row, err);
  },
  "common-http-protocol-options-values"(i, row, err) {
    const { options: o, path } = limitsOf(i);
    if (o === undefined) return;
    const bad = (field: string, what: string, v: unknown) =>
      err(`${path}.${field}`, fill(row, { field, what, value: show(v) }));
    for (const f of ["idle_timeout", "max_connection_duration", "max_stream_duration"]) {
      if (isSet(o[f]) && !parseDuration(o[f]).ok) bad(f, 'a duration such as "5s"', o[f]);
    }
    const mh = o.max_headers_count;
    if (isSet(mh)) {
      const n = Number(isObject(mh) ? mh.value : mh);
      if (!Number.isInteger(n) || n < 1 || n > 4294967295) {
        bad("max_headers_count", "an integer in 1..4294967295", mh);
      }
    }
    const raw = o.max_requests_per_connection;
    if (isSet(raw)) {
      const n = Number(isObject(raw) ? raw.value : raw);
      if (!Number.isInteger(n) || n < 0 || n > 4294967295) {
        bad("max_requests_per_connection", "an integer in 0..4294967295", raw);
      }
    }
  },
  "max-requests-per-connection-once"(i, row, err) {
    const limits = limitsOf(i);
    if (limits.maxRequestsPerConnection === undefined) return;
    if (isSet(i.c.max_requests_per_connection)) {
      err(`${limits.path}.max_requests_per_connection`, row.message);
    }
  },
  // Reported while building the effective cluster (files are read once).
  "tls-files-readable"() {},
};

/** Reports `fields` of the cluster's HTTP/2 options outside `min`..2^31-1 (UInt32Values). */
function http2Range(
  i: RuleInput,
  fields: readonly string[],
  min: number,
  row: ClusterRuleRow,
  err: (path: string, message: string) => void,
): void {
  const { http2: o, http2Path } = httpOf(i);
  if (!isObject(o)) return;
  for (const f of fields) {
    const raw = o[f];
    if (raw === undefined || raw === null) continue;
    const v = isObject(raw) ? raw.value : raw;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > 2147483647) {
      err(`${http2Path}.${f}`, fill(row, { value: String(v) }));
    }
  }
}

/** Reports the errors of one cluster under the ID of the rule row being applied. */
interface Reporter {
  row: ClusterRuleRow | null;
  /** Reports `message` at `path`, relative to the cluster (`""`: the cluster itself). */
  readonly report: (path: string, message: string) => void;
}

/** The reporter of the cluster `i`'s errors (one per cluster, not one per rule). */
function reporter(i: RuleInput, push: (e: ConfigError) => void): Reporter {
  const r: Reporter = {
    row: null,
    report: (p, m) => push({ path: p ? `${i.path}.${p}` : i.path, rule: r.row!.id, message: m }),
  };
  return r;
}

/**
 * Applies one rule row to one cluster; `err` reports at a path relative to the cluster under
 * `row`'s ID (one reporter per cluster: {@linkcode reporter}).
 */
function applyRule(row: ClusterRuleRow, i: RuleInput, err: Reporter): void {
  err.row = row;
  const r = row.rule;
  switch (r.kind) {
    case "requires-policy":
      if (isSet(i.c[r.field]) && !r.policies.includes(i.policy)) {
        err.report(r.field, fill(row, { policy: i.policy, field: r.field }));
      }
      return;
    case "unique-name": // across clusters: see validateClusters
      return;
    case "hosts-required": {
      const hosts = i.c.hosts;
      const has = isSet(i.c.load_assignment) || (Array.isArray(hosts) && hosts.length > 0);
      if (r.types.includes(i.type) && !has && !isAggregate(i.c)) {
        err.report("load_assignment", fill(row, { type: i.type, name: i.name }));
      }
      return;
    }
    case "min-not-above-max": {
      const min = operand(i.c, r.min);
      const max = operand(i.c, r.max);
      const relevant = isSet(at(i.c, r.min)) || isSet(at(i.c, r.max));
      if (relevant && typeof min === "number" && typeof max === "number" && min > max) {
        err.report(r.min, fill(row, { min, max }));
      }
      return;
    }
    case "type-policy":
      if (i.type === r.type && !r.policies.includes(i.policy)) {
        err.report("lb_policy", fill(row, { policy: i.policy, type: i.type, name: i.name }));
      }
      return;
    case "policy-type":
      if (i.policy === r.policy && !r.types.includes(i.type) && !isAggregate(i.c)) {
        err.report("lb_policy", fill(row, { policy: i.policy, type: i.type, name: i.name }));
      }
      return;
    case "type-requires":
      if (i.type === r.type && !isSet(i.c[r.field])) {
        err.report("", fill(row, { name: i.name, field: r.field }));
      }
      return;
    case "group": // enforced with every other group by the schema check (nested_schema.ts)
      return;
    case "policy-forbids":
      if (isSet(i.c[r.field]) && r.policies.includes(i.policy)) {
        err.report(r.field, fill(row, { policy: i.policy, name: i.name }));
      }
      return;
    case "requires-field": {
      const v = at(i.c, r.field);
      if (isSet(v) && v !== false && !isSet(at(i.c, r.requires))) {
        err.report(r.field, fill(row, { name: i.name }));
      }
      return;
    }
    case "max-items": {
      const v = i.c[r.field];
      if (Array.isArray(v) && v.length > r.max) err.report(r.field, fill(row, { name: i.name }));
      return;
    }
    case "custom-type": {
      const name = at(i.c, "cluster_type.name");
      if (typeof name === "string" && !r.names.some((n) => n.name === name)) {
        err.report("cluster_type.name", fill(row, { value: name }));
      }
      return;
    }
    case "semantic": {
      const check = SEMANTIC[r.name as SemanticName];
      check(i, row, err.report);
      return;
    }
  }
}

/** The Cluster rows with `appliesTo` and `outside: "error"`. */
const TYPED_ROWS = (MESSAGES.get("Cluster") ?? []).filter((r) =>
  r.appliesTo && r.outside === "error"
);

/** `appliesTo` / `outside: "error"` of the Cluster rows. */
function checkAppliesTo(i: RuleInput, push: (e: ConfigError) => void): void {
  for (const row of TYPED_ROWS) {
    if (!isSet(i.c[row.field])) continue;
    const types = row.appliesTo ?? [];
    if (!types.includes(i.type)) {
      push({
        path: `${i.path}.${row.field}`,
        rule: row.id,
        message: `${row.field} set in a non-${types.join("/")} cluster`,
      });
    }
  }
}

/**
 * Validates clusters; returns every error found and the effective clusters (unless `keep` is
 * false; see {@linkcode ValidateOptions}).
 */
export function validateClusters(
  clusters: readonly unknown[],
  opts: ValidateOptions,
): { errors: ConfigError[]; clusters: EffectiveCluster[] } {
  const errors: ConfigError[] = [];
  const ctx: SchemaContext = { errors, allowUnknown: opts.allowUnknown, onUnknown: opts.onUnknown };
  const push = (e: ConfigError) => void errors.push(e);
  const out: EffectiveCluster[] = [];
  const seen = new Map<string, number>();
  const normalized: { c: Obj; path: string }[] = [];
  const unique = row(CLUSTER_RULES, "cluster.rules.unique-name");
  const keep = opts.keep ?? true;
  if (!Array.isArray(clusters)) {
    errors.push({
      path: opts.path,
      rule: "",
      message: `expected a list of clusters, got ${show(clusters)}`,
    });
    return { errors, clusters: out };
  }
  clusters.forEach((raw, idx) => {
    const path = `${opts.path}[${idx}]`;
    const before = errors.length;
    if (!isObject(raw)) {
      errors.push({ path, rule: "", message: `expected a Cluster object, got ${show(raw)}` });
      return;
    }
    const c = validateMessage("Cluster", raw, path, ctx);
    normalized.push({ c, path });
    const name = typeof c.name === "string" ? c.name : "";
    const input: RuleInput = {
      c,
      path,
      name,
      type: discoveryTypeOf(c).type,
      policy: valueOf("Cluster", c, "lb_policy") as string,
    };
    checkAppliesTo(input, push);
    for (const e of healthCheckErrors(c.health_checks)) {
      errors.push({ path: `${path}.${e.path}`, rule: e.rule, message: e.message });
    }
    const err = reporter(input, push);
    for (const row of CLUSTER_RULES) applyRule(row, input, err);
    if (unique && name) {
      if (seen.has(name)) {
        errors.push({ path: `${path}.name`, rule: unique.id, message: fill(unique, { name }) });
      } else seen.set(name, idx);
    }
    if (errors.length > before) return;
    const eff = effectiveCluster(
      c as JsonObject,
      (p, message, rule) => errors.push({ path: `${path}.${p}`, rule, message }),
      opts.bindConfig,
      opts.secrets,
    );
    if (errors.length !== before) return;
    if (keep) out.push(eff);
    opts.onEffective?.(eff, idx);
  });
  errors.push(...aggregateErrors(normalized, opts.path === "static_resources.clusters"));
  return { errors, clusters: out };
}

/**
 * Aggregate clusters that reach themselves through their lists, and (`closed`: the list is the
 * whole static configuration) that list clusters it does not define.
 */
function aggregateErrors(list: { c: Obj; path: string }[], closed: boolean): ConfigError[] {
  const out: ConfigError[] = [];
  const unknown = row(CLUSTER_RULES, "cluster.rules.aggregate-known-clusters");
  const loop = row(CLUSTER_RULES, "cluster.rules.aggregate-no-loop");
  for (const p of aggregateGraphProblems(list.map((x) => x.c))) {
    if (p.kind === "unknown" && !closed) continue;
    const r = p.kind === "unknown" ? unknown : loop;
    const { c, path } = list[p.index];
    out.push({
      path: `${path}.${p.path}`,
      rule: r.id,
      message: fill(r, { name: String(c.name), value: p.detail }),
    });
  }
  return out;
}
