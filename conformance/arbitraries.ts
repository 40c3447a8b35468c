/**
 * fast-check arbitraries derived from the Cluster tables (`cluster.fields`, `cluster.objects`,
 * `cluster.enums`, `cluster.rules`): where each described message sits inside a Cluster, valid
 * and invalid values for each field row by its kind, range and enum, and a valid Cluster built
 * from the rows. Nothing here restates a field: kinds, ranges, defaults and enum values all come
 * from the rows.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validClusterArbitrary } from "./arbitraries.ts";
 * const [cluster] = fc.sample(validClusterArbitrary(), 1);
 * ```
 * @module
 */
import fc from "fast-check";
import { CLUSTER_ENUMS, CLUSTER_FIELDS, CLUSTER_OBJECTS, CLUSTER_RULES } from "../spec/mod.ts";
import type { ClusterRuleRow, DiscoveryType, EnumRow, FieldRow } from "../spec/mod.ts";
import { baseCluster } from "./cases/bootstrap_files.ts";
import type { Obj } from "./cases/bootstrap_files.ts";

/** A field row with the range bounds some tables add (`exclusiveMin`). */
export type Field = FieldRow & {
  range?: { min?: number; max?: number; gtZero?: boolean; exclusiveMin?: number };
};

/** Every field row of the Cluster message and of the described nested messages. */
export const FIELDS: readonly Field[] = [
  ...(CLUSTER_FIELDS as readonly Field[]),
  ...(CLUSTER_OBJECTS as readonly Field[]),
];

/** One step from a message to a nested one. */
export interface Step {
  field: string;
  repeated: boolean;
}

/**
 * Finds, for every message reachable from `Cluster` through message-typed rows, the shortest
 * path of fields that leads to it.
 *
 * @returns message name → steps (empty for `Cluster`)
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { messagePaths } from "./arbitraries.ts";
 * assert.deepEqual(
 *   messagePaths().get("Cluster.RingHashLbConfig"),
 *   [{ field: "ring_hash_lb_config", repeated: false }],
 * );
 * ```
 */
export function messagePaths(): Map<string, Step[]> {
  const paths = new Map<string, Step[]>([["Cluster", []]]);
  const queue = ["Cluster"];
  while (queue.length > 0) {
    const m = queue.shift()!;
    for (const f of FIELDS.filter((r) => r.message === m && r.kind === "message" && r.type)) {
      if (paths.has(f.type!)) continue;
      paths.set(f.type!, [...paths.get(m)!, {
        field: f.field,
        repeated: f.cardinality === "repeated",
      }]);
      queue.push(f.type!);
    }
  }
  return paths;
}

/** The enum row a field names, if any. */
export function enumOf(f: Field): EnumRow | undefined {
  return f.enum === undefined ? undefined : ENUMS.get(f.enum);
}

/** Formats milliseconds as a proto3 JSON Duration. */
export function duration(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

/**
 * Valid values of a field row, from its kind, range and enum (`null` when the suite cannot
 * make one: `any`, messages, maps).
 *
 * @param f the row
 * @returns an arbitrary, or null
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import fc from "fast-check";
 * import { FIELDS, validValue } from "./arbitraries.ts";
 * const arb = validValue(FIELDS[0]);
 * if (arb) assert.equal(fc.sample(arb, 3).length, 3);
 * ```
 */
export function validValue(f: Field): fc.Arbitrary<unknown> | null {
  if (f.cardinality === "map") return null;
  const r = f.range ?? {};
  const lo = Math.max(
    r.min ?? 0,
    r.gtZero ? 1 : 0,
    r.exclusiveMin !== undefined ? r.exclusiveMin + 1 : 0,
  );
  let one: fc.Arbitrary<unknown> | null;
  switch (f.kind) {
    case "string":
      one = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
      break;
    case "bytes":
      one = fc.base64String({ minLength: 4, maxLength: 16 });
      break;
    case "bool":
      one = fc.boolean();
      break;
    case "enum": {
      const e = enumOf(f);
      one = e ? fc.constantFrom(...e.values.map((v) => v.name)) : null;
      break;
    }
    case "duration":
      one = fc.integer({ min: lo, max: Math.min(r.max ?? 3_600_000, 3_600_000) }).map(duration);
      break;
    case "uint32":
    case "UInt32Value":
    case "uint64":
    case "UInt64Value":
    case "int64":
      one = fc.integer({ min: lo, max: Math.min(r.max ?? 1_000_000, 1_000_000) });
      break;
    case "double":
      one = fc.double({ min: lo, max: r.max ?? 1000, noNaN: true });
      break;
    case "Percent":
      one = fc.integer({ min: r.min ?? 0, max: r.max ?? 100 }).map((value) => ({ value }));
      break;
    case "struct":
      one = fc.constant({});
      break;
    default:
      one = null;
  }
  if (one === null) return null;
  return f.cardinality === "repeated" ? fc.array(one, { minLength: 1, maxLength: 3 }) : one;
}

/**
 * Values of a field row that its kind, range or enum forbids, each with what makes it bad.
 *
 * @param f the row
 * @returns labelled bad values (empty when the suite knows none)
 * @example
 * ```ts
 * import { FIELDS, invalidValues } from "./arbitraries.ts";
 * invalidValues(FIELDS[0]).map((b) => b.why);
 * ```
 */
export function invalidValues(f: Field): Array<{ why: string; value: unknown }> {
  const out: Array<{ why: string; value: unknown }> = [];
  const r = f.range ?? {};
  const wrap = (v: unknown) => f.cardinality === "repeated" ? [v] : v;
  switch (f.kind) {
    case "enum":
      out.push({ why: "an unknown enum value", value: wrap("CONFORMANCE_UNKNOWN_VALUE") });
      break;
    case "duration":
      out.push({ why: "a malformed duration", value: wrap("abc") });
      if (r.gtZero) out.push({ why: "a zero duration (must be > 0)", value: wrap("0s") });
      if (r.exclusiveMin !== undefined) {
        out.push({
          why: `a duration of ${r.exclusiveMin} ms (must be more)`,
          value: wrap(duration(r.exclusiveMin)),
        });
      }
      if (r.min !== undefined) {
        out.push({ why: "a negative duration", value: wrap(duration(r.min - 1000)) });
      }
      if (r.max !== undefined) {
        out.push({ why: "a duration above the maximum", value: wrap(duration(r.max + 1)) });
      }
      break;
    case "uint32":
    case "UInt32Value":
    case "uint64":
    case "UInt64Value":
      out.push({ why: "a negative number", value: wrap(-1) });
      if (r.max !== undefined) {
        out.push({ why: `${r.max + 1} (above ${r.max})`, value: wrap(r.max + 1) });
      }
      if (r.min !== undefined && r.min > 0) {
        out.push({ why: `${r.min - 1} (below ${r.min})`, value: wrap(r.min - 1) });
      }
      if (r.gtZero) out.push({ why: "0 (must be > 0)", value: wrap(0) });
      break;
    case "Percent":
      if (r.max !== undefined) {
        out.push({ why: "a percentage above the maximum", value: wrap({ value: r.max + 1 }) });
      }
      if (r.min !== undefined) {
        out.push({ why: "a negative percentage", value: wrap({ value: r.min - 1 }) });
      }
      break;
    case "bool":
      out.push({ why: "a string where a bool belongs", value: wrap("notabool") });
      break;
  }
  return out;
}

/** The lb_policy values the rules table ties to a cluster type, or to a cluster_type. */
function policiesNeedingContext(): Set<string> {
  const s = new Set<string>();
  for (const r of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    if (r.rule.kind === "policy-type") s.add(r.rule.policy);
    if (r.rule.kind === "type-policy") { for (const p of r.rule.policies) s.add(p); }
  }
  // Until the rules table ties them to their cluster types: CLUSTER_PROVIDED is for cluster
  // types that bring their own balancer (the enum's meaning), ORIGINAL_DST_LB for ORIGINAL_DST.
  s.add("CLUSTER_PROVIDED");
  s.add("ORIGINAL_DST_LB");
  return s;
}

/**
 * Scalar top-level Cluster fields that any STATIC cluster may carry with any valid value: no
 * group, no discovery-type restriction, not `name`/`type`, and not tied to a policy by a rule.
 *
 * @returns the rows
 * @example
 * ```ts
 * import { freeClusterFields } from "./arbitraries.ts";
 * freeClusterFields().map((f) => f.field);
 * ```
 */
export function freeClusterFields(): Field[] {
  const tied = new Set(
    (CLUSTER_RULES as readonly ClusterRuleRow[]).flatMap((r) =>
      r.rule.kind === "requires-policy" ? [r.rule.field] : []
    ),
  );
  return (CLUSTER_FIELDS as readonly Field[]).filter((f) =>
    f.kind !== "message" && f.kind !== "any" && !f.group && !f.appliesTo && !f.deprecated &&
    !f.required && f.field !== "type" && !tied.has(f.field) && validValue(f) !== null
  );
}

/**
 * A valid STATIC cluster with a random subset of the free fields set to random valid values.
 *
 * @param name the cluster name
 * @returns an arbitrary Cluster (proto3 JSON)
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validClusterArbitrary } from "./arbitraries.ts";
 * fc.sample(validClusterArbitrary("c1"), 2);
 * ```
 */
export function validClusterArbitrary(name = "conformance_cluster"): fc.Arbitrary<Obj> {
  const avoid = policiesNeedingContext();
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of freeClusterFields()) {
    let arb = validValue(f)!;
    if (f.field === "lb_policy") arb = arb.filter((v) => !avoid.has(String(v)));
    parts[f.field] = arb;
  }
  return fc.record(parts, { requiredKeys: [] }).map((extra) => ({
    ...baseCluster(name),
    ...extra,
  }));
}

// ---------------------------------------------------------------------------------------------
// Random valid clusters of every discovery type and policy. Every field value is generated from
// its row (kind, range, enum, cardinality, groups, required), and the choices the cross-field
// rules constrain (type and lb_policy, lb configs, members, health checks, protocol options,
// subsets) are made so the result is valid. The validator's own tests use these too.

type Entries = [string, unknown][];

const RULES: readonly ClusterRuleRow[] = CLUSTER_RULES as readonly ClusterRuleRow[];

/** Every described message (`Cluster`, `Cluster.RingHashLbConfig`, `core.Address`), by name. */
export const MESSAGES: ReadonlyMap<string, readonly Field[]> = (() => {
  const m = new Map<string, Field[]>();
  for (const r of FIELDS) m.set(r.message, [...(m.get(r.message) ?? []), r]);
  return m;
})();

/** Every enumeration of the Cluster tables, by name. */
export const ENUMS: ReadonlyMap<string, EnumRow> = new Map(
  (CLUSTER_ENUMS as readonly EnumRow[]).map((e) => [e.name, e]),
);

/**
 * The row of a field of a described message.
 *
 * @throws {Error} when the tables describe no such field
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fieldRow } from "./arbitraries.ts";
 * assert.equal(fieldRow("Cluster", "connect_timeout").kind, "duration");
 * ```
 */
export function fieldRow(message: string, field: string): Field {
  const row = MESSAGES.get(message)?.find((r) => r.field === field);
  if (!row) throw new Error(`no table row for ${message}.${field}`);
  return row;
}

/** Integer bounds of a row's range, clamped to `[lo, hi]`. */
function bounds(row: Field, lo: number, hi: number): { min: number; max: number } {
  const r = row.range ?? {};
  let min = Math.max(lo, r.min ?? lo);
  if (r.gtZero) min = Math.max(min, 1);
  if (r.exclusiveMin !== undefined) min = Math.max(min, Math.floor(r.exclusiveMin) + 1);
  return { min, max: Math.min(hi, r.max ?? hi) };
}

/**
 * An arbitrary of one valid element (not a list) of a field, from its row.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { elementArbitrary, fieldRow } from "./arbitraries.ts";
 * fc.sample(elementArbitrary(fieldRow("Cluster", "connect_timeout")), 1); // e.g. ["12.345s"]
 * ```
 */
export function elementArbitrary(row: Field): fc.Arbitrary<unknown> {
  switch (row.kind) {
    case "string":
      return fc.string({ minLength: row.required ? 1 : 0, maxLength: 8 });
    case "bytes":
      return fc.base64String({ minLength: row.required ? 4 : 0, maxLength: 16 });
    case "bool":
      return fc.boolean();
    case "enum": {
      const e = ENUMS.get(row.enum ?? "")!;
      return fc.constantFrom(...e.values).chain((v) =>
        fc.constantFrom<unknown>(v.name, v.name.toLowerCase(), v.number)
      );
    }
    case "duration": {
      const { min, max } = bounds(row, 0, 3_600_000);
      return fc.integer({ min, max }).map(duration);
    }
    case "uint32":
    case "UInt32Value": {
      const { min, max } = bounds(row, 0, 4294967295);
      return fc.integer({ min, max }).chain((n) => fc.constantFrom<unknown>(n, String(n)));
    }
    case "uint64":
    case "UInt64Value": {
      const { min, max } = bounds(row, 0, Number.MAX_SAFE_INTEGER);
      return fc.integer({ min, max }).chain((n) => fc.constantFrom<unknown>(n, String(n)));
    }
    case "double":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
    case "Percent": {
      const r = row.range ?? {};
      return fc.double({ min: r.min ?? 0, max: r.max ?? 100, noNaN: true }).map((value) => ({
        value,
      }));
    }
    case "struct":
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 5 }),
        fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean()),
        { maxKeys: 2 },
      );
    case "any":
      return fc.constant({ "@type": "type.googleapis.com/google.protobuf.Struct" });
    case "message":
      if (row.type === "type.matcher.StringMatcher") return stringMatcher;
      return MESSAGES.has(row.type ?? "") ? messageArbitrary(row.type!) : fc.constant({});
    default:
      return fc.constant(null);
  }
}

/**
 * A valid `type.matcher.StringMatcher`: exactly one kind of its `match_pattern` oneof, which Envoy
 * requires (`prefix`, `suffix` and `contains` at least one character long).
 */
const stringMatcher: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ exact: fc.string({ maxLength: 5 }) }),
  fc.record({ prefix: fc.string({ minLength: 1, maxLength: 5 }), ignore_case: fc.boolean() }),
  fc.record({ suffix: fc.string({ minLength: 1, maxLength: 5 }) }),
  fc.record({ contains: fc.string({ minLength: 1, maxLength: 5 }) }),
  fc.constant({ safe_regex: { regex: "[a-z]+" } }),
);

/** An arbitrary of a valid field value with its cardinality. */
export function fieldArbitrary(row: Field): fc.Arbitrary<unknown> {
  // A socket address outside the members (a bind source, a resolver) is an IP literal: Envoy
  // refuses anything else when it creates the cluster ("malformed IP address").
  const el = row.message === "core.SocketAddress" && row.field === "address"
    ? ipv4
    : elementArbitrary(row);
  if (row.cardinality === "repeated") return fc.array(el, { maxLength: 2 });
  if (row.cardinality === "map") {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), el, { maxKeys: 2 });
  }
  return el;
}

/**
 * An arbitrary of a valid object of a described message: required fields always, optional ones
 * sometimes, at most one member of each group (exactly one of a required group). Fields in
 * `skip` are left out.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { messageArbitrary } from "./arbitraries.ts";
 * fc.sample(messageArbitrary("core.SocketAddress"), 1); // e.g. [{ address: "x", port_value: 80 }]
 * ```
 */
export function messageArbitrary(
  message: string,
  skip: ReadonlySet<string> = new Set(),
): fc.Arbitrary<Obj> {
  const rows = (MESSAGES.get(message) ?? []).filter((r) => !skip.has(r.field));
  const parts: fc.Arbitrary<Entries>[] = [];
  const groups = new Map<string, Field[]>();
  for (const r of rows) {
    if (r.group) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
    else if (r.required) parts.push(fieldArbitrary(r).map((v) => [[r.field, v]]));
    else {
      parts.push(
        fc.option(fieldArbitrary(r), { nil: undefined, freq: 2 }).map((v) =>
          v === undefined ? [] : [[r.field, v]]
        ),
      );
    }
  }
  for (const members of groups.values()) {
    const choices: fc.Arbitrary<Entries>[] = members.map((m) =>
      fieldArbitrary(m).map((v): Entries => [[m.field, v]])
    );
    if (!members[0].groupRequired) choices.push(fc.constant([]));
    parts.push(fc.oneof(...choices));
  }
  return fc.tuple(...parts).map((ps) => Object.fromEntries(ps.flat()));
}

/** Policies no `type-policy` / `policy-type` rule row forbids for a discovery type. */
export function allowedPolicies(type: DiscoveryType): string[] {
  const all = ENUMS.get(fieldRow("Cluster", "lb_policy").enum!)!.values.map((v) => v.name);
  return all.filter((p) =>
    RULES.every((row) => {
      const r = row.rule;
      if (r.kind === "type-policy") return r.type !== type || r.policies.includes(p);
      if (r.kind === "policy-type") return r.policy !== p || r.types.includes(type);
      return true;
    })
  );
}

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join("."));
const dnsName = fc.constantFrom("localhost", "example.com", "backend.internal", "db-1.local");

function membersArbitrary(type: DiscoveryType, name: string): fc.Arbitrary<Entries> {
  const addr = type === "STATIC" ? ipv4 : dnsName;
  // A member needs a port to be reached at (Envoy: port 0 fails when the host is created).
  const socket = fc.record({ address: addr, port_value: fc.integer({ min: 1, max: 65535 }) }).map((
    s,
  ) => ({ socket_address: s }));
  const weight = bounds(fieldRow("endpoint.LbEndpoint", "load_balancing_weight"), 1, 1000);
  const prio = bounds(fieldRow("endpoint.LocalityLbEndpoints", "priority"), 0, 1000);
  const one = type === "LOGICAL_DNS";
  const lbEndpoint = fc.record({ endpoint: fc.record({ address: socket }) }, {
    requiredKeys: ["endpoint"],
  }).chain((e) =>
    fc.option(fc.integer(weight), { nil: undefined }).map((w) =>
      w === undefined ? e : { ...e, load_balancing_weight: w }
    )
  );
  const lle = fc.record({
    lb_endpoints: fc.array(lbEndpoint, { minLength: 1, maxLength: one ? 1 : 3 }),
    priority: fc.integer(prio),
  });
  const la = fc.array(lle, { minLength: 1, maxLength: one ? 1 : 2 }).map((endpoints) => ({
    cluster_name: name,
    endpoints,
  }));
  const hosts = fc.array(socket, { minLength: 1, maxLength: one ? 1 : 3 });
  return fc.oneof(
    la.map((v): Entries => [["load_assignment", v]]),
    hosts.map((v): Entries => [["hosts", v]]),
  );
}

/** Cluster fields whose values the cross-field rules constrain; generated by hand below. */
const CONSTRAINED = new Set([
  "name",
  "type",
  "cluster_type",
  "lb_policy",
  "ring_hash_lb_config",
  "original_dst_lb_config",
  "least_request_lb_config",
  "maglev_lb_config",
  "round_robin_lb_config",
  "hosts",
  "load_assignment",
  "eds_cluster_config",
  "health_checks",
  "http_protocol_options",
  "http2_protocol_options",
  "protocol_selection",
  "extension_protocol_options",
  "typed_extension_protocol_options",
  "lb_subset_config",
  "common_lb_config",
]);

/**
 * An arbitrary of one valid cluster named `name`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import fc from "fast-check";
 * import { clusterArbitrary } from "./arbitraries.ts";
 * assert.equal(fc.sample(clusterArbitrary("a"), 3).length, 3);
 * ```
 */
export function clusterArbitrary(name: string): fc.Arbitrary<Obj> {
  const types = ENUMS.get(fieldRow("Cluster", "type").enum!)!.values.map((v) =>
    v.name as DiscoveryType
  );
  // The built-in types only: the aggregate cluster (`*.clusters.aggregate`) needs its own list.
  const custom = RULES.flatMap((r) => r.rule.kind === "custom-type" ? r.rule.names : [])
    .filter((c) => c.name.includes(".cluster."));
  const typeChoice = fc.oneof(
    fc.constantFrom(...types).map((t) => ({ type: t, entry: ["type", t.toLowerCase()] as const })),
    fc.constantFrom(...custom).map((c) => ({
      type: c.type,
      entry: ["cluster_type", { name: c.name }] as const,
    })),
  );
  const free = messageArbitrary("Cluster", CONSTRAINED);
  return fc.tuple(typeChoice, free).chain(([{ type, entry }, rest]) =>
    fc.constantFrom(...allowedPolicies(type)).chain((policy) =>
      fc.tuple(
        lbConfigArbitrary(type, policy),
        type === "EDS" || type === "ORIGINAL_DST"
          ? fc.constant<Entries>(
            type === "EDS" ? [["eds_cluster_config", { eds_config: { ads: {} } }]] : [],
          )
          : membersArbitrary(type, name),
        protocolArbitrary(),
        subsetArbitrary(policy),
        fc.constantFrom<Entries>(
          [],
          [["typed_extension_protocol_options", {}]],
          [["extension_protocol_options", {}]],
        ),
      ).map((parts) =>
        ({
          ...rest,
          name,
          [entry[0]]: entry[1],
          lb_policy: policy,
          ...Object.fromEntries(parts.flat()),
        }) as Obj
      )
    )
  );
}

function lbConfigArbitrary(type: DiscoveryType, policy: string): fc.Arbitrary<Entries> {
  if (policy === "RING_HASH") {
    const size = bounds(fieldRow("Cluster.RingHashLbConfig", "maximum_ring_size"), 1, 1 << 30);
    return fc.option(
      fc.tuple(
        fc.integer(size),
        fc.integer(size),
        elementArbitrary(
          fieldRow("Cluster.RingHashLbConfig", "hash_function"),
        ),
      ),
      { nil: undefined },
    ).map((t) =>
      t === undefined ? [] : [["ring_hash_lb_config", {
        minimum_ring_size: Math.min(t[0], t[1]),
        maximum_ring_size: Math.max(t[0], t[1]),
        hash_function: t[2],
      }]]
    );
  }
  if (policy === "MAGLEV") {
    // Prime table sizes (the size must be prime), the largest allowed among them.
    return fc.option(fc.constantFrom(101, 65537, 5000011), { nil: undefined }).map((n) =>
      n === undefined ? [] : [["maglev_lb_config", { table_size: n }]]
    );
  }
  if (policy === "ROUND_ROBIN") {
    return fc.option(messageArbitrary("Cluster.RoundRobinLbConfig"), { nil: undefined }).map((
      v,
    ) => v === undefined ? [] : [["round_robin_lb_config", v]]);
  }
  if (policy === "LEAST_REQUEST") {
    return fc.option(messageArbitrary("Cluster.LeastRequestLbConfig"), { nil: undefined }).map((
      v,
    ) => v === undefined ? [] : [["least_request_lb_config", v]]);
  }
  if (type === "ORIGINAL_DST") {
    return fc.option(messageArbitrary("Cluster.OriginalDstLbConfig"), { nil: undefined }).map((
      v,
    ) => v === undefined ? [] : [["original_dst_lb_config", v]]);
  }
  return fc.constant([]);
}

/** A hex payload: Envoy decodes `text` as hex when it builds the checker. */
function hexPayload(p: unknown): unknown {
  if (typeof p !== "object" || p === null || !("text" in p)) return p;
  return { ...p, text: "50494e47" };
}

/**
 * A generated health check made valid where Envoy checks more than field kinds: status ranges
 * inside [100, 600) with start < end, non-empty header names, hex payloads.
 */
function validHealthCheck(h: Obj): Obj {
  const out: Obj = { ...h };
  const http = out.http_health_check as Obj | undefined;
  if (http && typeof http === "object") {
    const fixed: Obj = { ...http };
    if (Array.isArray(fixed.expected_statuses)) {
      fixed.expected_statuses = fixed.expected_statuses.map(() => ({ start: 200, end: 300 }));
    }
    if (Array.isArray(fixed.retriable_statuses)) {
      fixed.retriable_statuses = fixed.retriable_statuses.map(() => ({ start: 500, end: 504 }));
    }
    if (Array.isArray(fixed.request_headers_to_remove)) {
      fixed.request_headers_to_remove = fixed.request_headers_to_remove.map(() => "x-remove");
    }
    for (const f of ["send", "receive"]) if (f in fixed) fixed[f] = hexPayload(fixed[f]);
    out.http_health_check = fixed;
  }
  const tcp = out.tcp_health_check as Obj | undefined;
  if (tcp && typeof tcp === "object") {
    out.tcp_health_check = {
      ...tcp,
      ...("send" in tcp ? { send: hexPayload(tcp.send) } : {}),
      ...(Array.isArray(tcp.receive) ? { receive: tcp.receive.map(hexPayload) } : {}),
    };
  }
  return out;
}

function protocolArbitrary(): fc.Arbitrary<Entries> {
  const hc = messageArbitrary("core.HealthCheck").map(validHealthCheck);
  return fc.tuple(fc.boolean(), fc.boolean(), fc.option(hc, { nil: undefined })).map(
    ([h1, h2, check]) => {
      const out: Entries = [];
      const http2 = h2 || (check !== undefined && "grpc_health_check" in check);
      if (h1) out.push(["http_protocol_options", {}]);
      if (http2) out.push(["http2_protocol_options", {}]);
      if (h1 && http2) out.push(["protocol_selection", "USE_DOWNSTREAM_PROTOCOL"]);
      if (check) out.push(["health_checks", [check]]);
      return out;
    },
  );
}

function subsetArbitrary(policy: string): fc.Arbitrary<Entries> {
  const forbidden = RULES.some((r) =>
    r.rule.kind === "policy-forbids" && r.rule.field === "lb_subset_config" &&
    r.rule.policies.includes(policy)
  );
  const common = messageArbitrary("Cluster.CommonLbConfig");
  const subset = forbidden ? fc.constant(undefined) : fc.option(
    messageArbitrary("Cluster.LbSubsetConfig"),
    { nil: undefined },
  );
  return fc.tuple(subset, fc.option(common, { nil: undefined })).map(([s, c]) => {
    const out: Entries = [];
    if (s) out.push(["lb_subset_config", s]);
    if (s?.locality_weight_aware === true) {
      const base = { ...(c ?? {}) };
      delete base.zone_aware_lb_config;
      out.push(["common_lb_config", { ...base, locality_weighted_lb_config: {} }]);
    } else if (c) out.push(["common_lb_config", c]);
    return out;
  });
}

/**
 * An arbitrary of a list of valid clusters with unique names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import fc from "fast-check";
 * import { clustersArbitrary } from "./arbitraries.ts";
 * assert.equal(fc.sample(clustersArbitrary(3), 1)[0].length <= 3, true);
 * ```
 */
export function clustersArbitrary(maxLength = 4): fc.Arbitrary<Obj[]> {
  return fc.integer({ min: 1, max: maxLength }).chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => clusterArbitrary(`cluster_${i}`)))
  );
}
