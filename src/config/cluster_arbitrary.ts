/**
 * fast-check arbitraries of valid clusters, derived from the spec tables: every field value is
 * generated from its row (kind, range, enum, cardinality, groups, required), and the choices the
 * cross-field rules constrain (type and lb_policy, lb configs, members, health checks, protocol
 * options, subsets) are made so the result is valid. Reused by the conformance suite.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { clusterArbitrary } from "./cluster_arbitrary.ts";
 * const [cluster] = fc.sample(clusterArbitrary("backend"), 1);
 * console.log(cluster.name); // "backend"
 * ```
 * @module
 */
import fc from "fast-check";
import type { ClusterRuleRow, DiscoveryType, FieldRow } from "../../spec/rule.ts";
import { CLUSTER_RULES as TABLE } from "../../spec/cluster/rules.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import { ENUMS, fieldRow, MESSAGES } from "./nested_schema.ts";
import { formatDuration } from "./values.ts";

const CLUSTER_RULES: readonly ClusterRuleRow[] = TABLE;

type Obj = Record<string, unknown>;
type Entries = [string, unknown][];

/** Integer bounds of a row's range, clamped to `[lo, hi]`. */
function bounds(row: FieldRow, lo: number, hi: number): { min: number; max: number } {
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
 * import { elementArbitrary } from "./cluster_arbitrary.ts";
 * import { fieldRow } from "./nested_schema.ts";
 * fc.sample(elementArbitrary(fieldRow("Cluster", "connect_timeout")), 1); // e.g. ["12.345s"]
 * ```
 */
export function elementArbitrary(row: FieldRow): fc.Arbitrary<unknown> {
  switch (row.kind) {
    case "string":
      return fc.string({ minLength: row.required ? 1 : 0, maxLength: 8 });
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
      return fc.integer({ min, max }).map(formatDuration);
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
    case "int64":
      return fc.integer({ min: -1e6, max: 1e6 });
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
      return MESSAGES.has(row.type ?? "") ? messageArbitrary(row.type!) : fc.constant({});
    default:
      return fc.constant(null);
  }
}

/** An arbitrary of a valid field value with its cardinality. */
export function fieldArbitrary(row: FieldRow): fc.Arbitrary<unknown> {
  const el = elementArbitrary(row);
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
 * import { messageArbitrary } from "./cluster_arbitrary.ts";
 * fc.sample(messageArbitrary("core.SocketAddress"), 1); // e.g. [{ address: "x", port_value: 80 }]
 * ```
 */
export function messageArbitrary(
  message: string,
  skip: ReadonlySet<string> = new Set(),
): fc.Arbitrary<Obj> {
  const rows = (MESSAGES.get(message) ?? []).filter((r) => !skip.has(r.field));
  const parts: fc.Arbitrary<Entries>[] = [];
  const groups = new Map<string, FieldRow[]>();
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
    CLUSTER_RULES.every((row) => {
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
  const socket = fc.record({ address: addr, port_value: fc.integer({ min: 0, max: 65535 }) }).map((
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
 * import fc from "fast-check";
 * import { clusterArbitrary } from "./cluster_arbitrary.ts";
 * fc.sample(clusterArbitrary("a"), 3).length; // 3
 * ```
 */
export function clusterArbitrary(name: string): fc.Arbitrary<JsonObject> {
  const types = ENUMS.get(fieldRow("Cluster", "type").enum!)!.values.map((v) =>
    v.name as DiscoveryType
  );
  const custom = CLUSTER_RULES.flatMap((r) => r.rule.kind === "custom-type" ? r.rule.names : []);
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
        }) as JsonObject
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

/** Checkers this build runs: an HTTP/1.1 check or a TCP check with hex payloads. */
const SUPPORTED_CHECKERS: readonly Obj[] = [
  { http_health_check: { path: "/healthz" } },
  {
    http_health_check: {
      path: "/ready",
      host: "svc",
      expected_statuses: [{ start: 200, end: 300 }],
      request_headers_to_remove: ["x-drop"],
    },
  },
  { tcp_health_check: {} },
  { tcp_health_check: { send: { text: "50494e47" }, receive: [{ text: "504f4e47" }] } },
];

/**
 * A valid health check this build honours: the table's timing fields, with a supported checker
 * and without the fields it refuses.
 */
function healthCheckArbitrary(): fc.Arbitrary<Obj> {
  return fc.tuple(messageArbitrary("core.HealthCheck"), fc.constantFrom(...SUPPORTED_CHECKERS))
    .map(([h, checker]) => {
      const out: Obj = { ...h };
      for (const f of MESSAGES.get("core.HealthCheck") ?? []) {
        if (f.group === "health_checker") delete out[f.field];
      }
      for (const f of ["alt_port", "event_service", "transport_socket_match_criteria"]) {
        delete out[f];
      }
      return { ...out, ...structuredClone(checker) };
    });
}

function protocolArbitrary(): fc.Arbitrary<Entries> {
  const hc = healthCheckArbitrary();
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
  const forbidden = CLUSTER_RULES.some((r) =>
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
 * import fc from "fast-check";
 * import { clustersArbitrary } from "./cluster_arbitrary.ts";
 * fc.sample(clustersArbitrary(3), 1)[0].length <= 3; // true
 * ```
 */
export function clustersArbitrary(maxLength = 4): fc.Arbitrary<JsonObject[]> {
  return fc.integer({ min: 1, max: maxLength }).chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => clusterArbitrary(`cluster_${i}`)))
  );
}
