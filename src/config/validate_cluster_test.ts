/**
 * Tests of the Cluster validator, generated from the spec tables: valid generated clusters pass;
 * every exclusivity group, range, enum, required field and cross-field rule row fails with its
 * rule ID and path.
 *
 * @module
 */
import assert from "node:assert/strict";
import fc from "fast-check";
// @ts-types="@types/js-yaml"
import yaml from "js-yaml";
import type { FieldRow } from "../../spec/rule.ts";
import { CLUSTER_RULES } from "../../spec/cluster/rules.ts";
import {
  clusterArbitrary,
  clustersArbitrary,
  messageArbitrary,
} from "../../conformance/arbitraries.ts";
import { ENUMS, MESSAGES, unknownFieldRule } from "./nested_schema.ts";
import { validateClusters } from "./validate_cluster.ts";
import { formatDuration } from "./values.ts";

type Obj = Record<string, unknown>;
const P = "static_resources.clusters";
const run = (cs: unknown[], allowUnknown = false) =>
  validateClusters(cs, { path: P, allowUnknown });

const member = (address: string, port = 80) => ({
  endpoint: { address: { socket_address: { address, port_value: port } } },
});
const la = (name: string, ...addrs: string[]) => ({
  cluster_name: name,
  endpoints: [{ lb_endpoints: addrs.map((a) => member(a)) }],
});
/** A valid STATIC cluster. */
const base = (over: Obj = {}): Obj => ({
  name: "base",
  connect_timeout: "1s",
  load_assignment: la("base", "127.0.0.1"),
  ...over,
});

/** The shortest path of steps from Cluster to a described message. */
function pathTo(message: string): (string | number)[] {
  const queue: { msg: string; steps: (string | number)[] }[] = [{ msg: "Cluster", steps: [] }];
  const seen = new Set(["Cluster"]);
  while (queue.length) {
    const { msg, steps } = queue.shift()!;
    if (msg === message) return steps;
    for (const r of MESSAGES.get(msg) ?? []) {
      if (r.kind !== "message" || !r.type || seen.has(r.type) || !MESSAGES.has(r.type)) continue;
      seen.add(r.type);
      const s = r.cardinality === "repeated"
        ? [r.field, 0]
        : r.cardinality === "map"
        ? [r.field, "k"]
        : [r.field];
      queue.push({ msg: r.type, steps: [...steps, ...s] });
    }
  }
  throw new Error(`no path to ${message}`);
}

const render = (steps: (string | number)[]) =>
  steps.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("");

/** `base()` with `value` placed at the path of `message`; returns the cluster and the path. */
function embed(message: string, value: Obj): { cluster: Obj; path: string } {
  const steps = pathTo(message);
  const cluster = structuredClone(base());
  if (steps.length === 0) return { cluster: value, path: `${P}[0]` };
  let cur: Obj | unknown[] = cluster;
  steps.forEach((s, i) => {
    const last = i === steps.length - 1;
    const next = typeof steps[i + 1] === "number" ? [] : {};
    const c = cur as Record<string | number, unknown>;
    if (last) c[s] = value;
    else {
      if (typeof c[s] !== "object" || c[s] === null) c[s] = next;
      cur = c[s] as Obj;
    }
  });
  return { cluster, path: `${P}[0]${render(steps)}` };
}

/** One valid instance of a described message (deterministic). */
const sample = (message: string): Obj =>
  fc.sample(message === "Cluster" ? clusterArbitrary("x") : messageArbitrary(message), {
    seed: 7,
    numRuns: 1,
  })[0];

/** A valid instance of `r.message` with `r.field` set to `value` (group siblings removed). */
function withField(r: FieldRow, value: unknown): Obj {
  const v = sample(r.message);
  for (const m of allRows) {
    if (r.group && m.message === r.message && m.group === r.group) delete v[m.field];
  }
  return { ...v, [r.field]: value };
}

function expectError(cluster: Obj, path: string, rule: string) {
  const { errors } = run([cluster]);
  assert.ok(
    errors.some((e) => e.path === path && e.rule === rule),
    `expected ${rule} at ${path}; got ${JSON.stringify(errors, null, 1)}`,
  );
}

const allRows = [...MESSAGES.values()].flat();

Deno.test("cluster.fields: generated valid clusters are accepted", () => {
  fc.assert(
    fc.property(clustersArbitrary(3), (cs) => {
      const { errors, clusters } = run(cs);
      assert.deepEqual(errors, []);
      assert.equal(clusters.length, cs.length);
    }),
    { numRuns: 150 },
  );
});

Deno.test("cluster.fields: two members of an exclusivity group are rejected (every group)", () => {
  const groups = new Map<string, FieldRow[]>();
  for (const r of allRows) {
    if (r.group) {
      groups.set(`${r.message}/${r.group}`, [...(groups.get(`${r.message}/${r.group}`) ?? []), r]);
    }
  }
  assert.ok(groups.size >= 4);
  for (const members of groups.values()) {
    const [a, b] = members;
    const v = sample(a.message);
    for (const m of members) delete v[m.field];
    const pick = (r: FieldRow) => fc.sample(messageArbitraryField(r), { seed: 1, numRuns: 1 })[0];
    const { cluster, path } = embed(a.message, { ...v, [a.field]: pick(a), [b.field]: pick(b) });
    // A group that a cluster rule row cites is reported with that row's ID.
    const cited = CLUSTER_RULES.find((r) => r.rule.kind === "group" && r.rule.group === b.group);
    expectError(cluster, `${path}.${b.field}`, cited?.id ?? b.id);
  }
});

/** A valid value for one field (through a message arbitrary restricted to that field). */
function messageArbitraryField(r: FieldRow): fc.Arbitrary<unknown> {
  return messageArbitrary(r.message).filter((o) => r.field in o).map((o) => o[r.field]);
}

Deno.test("cluster.fields: a required group with no member set is rejected", () => {
  const required = allRows.filter((x) => x.groupRequired);
  assert.ok(required.length > 0, "no row of a required group");
  for (const r of required) {
    const v = sample(r.message);
    for (const m of allRows.filter((x) => x.message === r.message && x.group === r.group)) {
      delete v[m.field];
    }
    const first = allRows.find((x) => x.message === r.message && x.group === r.group)!;
    const { cluster, path } = embed(r.message, v);
    expectError(cluster, path, first.id);
  }
});

/** Values just outside a row's range. */
function outOfRange(r: FieldRow): unknown[] {
  const g = r.range!;
  const nums: number[] = [];
  if (g.gtZero) nums.push(0);
  if (g.exclusiveMin !== undefined) nums.push(g.exclusiveMin);
  if (g.min !== undefined) nums.push(g.min - 1);
  if (g.max !== undefined) nums.push(g.max + 1);
  return nums.filter((n) => r.kind === "duration" || r.kind === "Percent" || n >= 0).map((n) =>
    r.kind === "duration" ? formatDuration(n) : r.kind === "Percent" ? { value: n } : n
  );
}

Deno.test("cluster.objects: every out-of-range value is rejected with its row ID", () => {
  const ranged = allRows.filter((r) => r.range);
  assert.ok(ranged.length > 10);
  let checked = 0;
  for (const r of ranged) {
    for (const bad of outOfRange(r)) {
      checked++;
      const value = r.cardinality === "repeated" ? [bad] : bad;
      const { cluster, path } = embed(r.message, withField(r, value));
      const at = r.cardinality === "repeated" ? `${path}.${r.field}[0]` : `${path}.${r.field}`;
      expectError(cluster, at, r.id);
    }
  }
  assert.ok(checked >= ranged.length / 2, `only ${checked} out-of-range values checked`);
});

Deno.test("cluster.enums: an unknown enum value is rejected with the enum's rule ID", () => {
  const enums = allRows.filter((x) => x.kind === "enum");
  assert.ok(enums.length > 0, "no enum-valued field row");
  for (const r of enums) {
    const e = ENUMS.get(r.enum!)!;
    for (const bad of ["NOT_A_VALUE", 999]) {
      const { cluster, path } = embed(r.message, withField(r, bad));
      expectError(cluster, `${path}.${r.field}`, e.id);
    }
  }
});

Deno.test("cluster.enums: names match case-insensitively and numbers are accepted", () => {
  const { errors, clusters } = run([base({ lb_policy: "ring_hash", dns_lookup_family: 1 })]);
  assert.deepEqual(errors, []);
  assert.equal(clusters[0].lbPolicy, "RING_HASH");
  assert.equal(clusters[0].dnsLookupFamily, "V4_ONLY");
});

Deno.test("cluster.fields: a missing required field is rejected with its row ID", () => {
  const required = allRows.filter((x) => x.required);
  assert.ok(required.length > 0, "no required field row");
  for (const r of required) {
    const v = sample(r.message);
    delete v[r.field];
    const { cluster, path } = embed(r.message, v);
    expectError(cluster, `${path}.${r.field}`, r.id);
  }
});

Deno.test("cluster.fields: a value of the wrong kind is rejected with its row ID", () => {
  expectError(
    base({ connect_timeout: 5 }),
    `${P}[0].connect_timeout`,
    "cluster.fields.connect-timeout",
  );
  expectError(
    base({ per_connection_buffer_limit_bytes: "df" }),
    `${P}[0].per_connection_buffer_limit_bytes`,
    "cluster.fields.per-connection-buffer-limit-bytes",
  );
  expectError(
    base({ respect_dns_ttl: "yes" }),
    `${P}[0].respect_dns_ttl`,
    "cluster.fields.respect-dns-ttl",
  );
  expectError(base({ hosts: {} }), `${P}[0].hosts`, "cluster.fields.hosts");
  expectError(
    base({ ring_hash_lb_config: [] }),
    `${P}[0].ring_hash_lb_config`,
    "cluster.fields.ring-hash-lb-config",
  );
});

Deno.test("cluster.fields.eds-cluster-config: eds_cluster_config on a non-EDS cluster is rejected", () => {
  expectError(
    base({ eds_cluster_config: { eds_config: { ads: {} } } }),
    `${P}[0].eds_cluster_config`,
    "cluster.fields.eds-cluster-config",
  );
  const { errors } = run([
    base({ type: "STATIC", dns_lookup_family: "V6_ONLY", cleanup_interval: "1s" }),
  ]);
  assert.deepEqual(errors, [], "ignored fields outside their types are accepted");
});

Deno.test("cluster.fields: unknown fields are rejected, or reported through onUnknown", () => {
  const c = base({ bogus: 1, load_assignment: { ...la("base", "127.0.0.1"), extra: true } });
  const strict = run([c]);
  assert.ok(strict.errors.every((e) => e.rule === unknownFieldRule() && e.rule !== ""));
  assert.deepEqual(strict.errors.map((e) => e.path).sort(), [
    `${P}[0].bogus`,
    `${P}[0].load_assignment.extra`,
  ]);
  const seen: string[] = [];
  const lax = validateClusters([c], {
    path: P,
    allowUnknown: true,
    onUnknown: (p) => seen.push(p),
  });
  assert.deepEqual(lax.errors, []);
  assert.deepEqual(seen.sort(), [`${P}[0].bogus`, `${P}[0].load_assignment.extra`]);
  assert.equal(lax.clusters.length, 1);
});

/** An aggregate cluster `name` over `clusters`. */
function aggregate(name: string, clusters: unknown[]): Obj {
  return {
    name,
    connect_timeout: "1s",
    lb_policy: "CLUSTER_PROVIDED",
    cluster_type: {
      name: "envoy.clusters.aggregate",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig",
        clusters,
      },
    },
  };
}

/** A failing and a passing example for every cross-field rule row, with the failing path. */
const RULE_CASES: Record<string, { fail: Obj[]; pass: Obj[]; at: string }> = {
  "cluster.rules.ring-hash-config-requires-ring-hash": {
    fail: [base({ ring_hash_lb_config: {} })],
    pass: [base({ ring_hash_lb_config: {}, lb_policy: "RING_HASH" })],
    at: "[0].ring_hash_lb_config",
  },
  "cluster.rules.least-request-config-requires-least-request": {
    fail: [base({ least_request_lb_config: {}, lb_policy: "RANDOM" })],
    pass: [base({ least_request_lb_config: { choice_count: 3 }, lb_policy: "LEAST_REQUEST" })],
    at: "[0].least_request_lb_config",
  },
  "cluster.rules.maglev-config-requires-maglev": {
    fail: [base({ maglev_lb_config: {} })],
    pass: [base({ maglev_lb_config: { table_size: 101 }, lb_policy: "MAGLEV" })],
    at: "[0].maglev_lb_config",
  },
  "cluster.rules.round-robin-config-requires-round-robin": {
    fail: [base({ round_robin_lb_config: {}, lb_policy: "RANDOM" })],
    pass: [base({ round_robin_lb_config: {} })],
    at: "[0].round_robin_lb_config",
  },
  "cluster.rules.maglev-table-size-prime": {
    fail: [base({ lb_policy: "MAGLEV", maglev_lb_config: { table_size: 65535 } })],
    pass: [base({ lb_policy: "MAGLEV", maglev_lb_config: { table_size: 65537 } })],
    at: "[0].maglev_lb_config.table_size",
  },
  "cluster.rules.aggregate-config": {
    fail: [base(), aggregate("agg", [])],
    pass: [base(), aggregate("agg", ["base"])],
    at: "[1].cluster_type.typed_config.clusters",
  },
  "cluster.rules.aggregate-needs-cluster-provided": {
    fail: [base(), { ...aggregate("agg", ["base"]), lb_policy: "ROUND_ROBIN" }],
    pass: [base(), aggregate("agg", ["base"])],
    at: "[1].lb_policy",
  },
  "cluster.rules.aggregate-known-clusters": {
    fail: [base(), aggregate("agg", ["base", "missing"])],
    pass: [base(), aggregate("agg", ["base"])],
    at: "[1].cluster_type.typed_config.clusters[1]",
  },
  "cluster.rules.aggregate-no-loop": {
    fail: [base(), aggregate("agg", ["base", "agg"])],
    pass: [base(), aggregate("agg", ["base"]), aggregate("agg2", ["agg"])],
    at: "[1].cluster_type.typed_config.clusters[1]",
  },
  "cluster.rules.unique-name": {
    fail: [base(), base()],
    pass: [base(), base({ name: "other" })],
    at: "[1].name",
  },
  "cluster.rules.members-required": {
    fail: [{ name: "x", type: "STRICT_DNS" }],
    pass: [{
      name: "x",
      type: "STRICT_DNS",
      hosts: [{ socket_address: { address: "a.b", port_value: 1 } }],
    }],
    at: "[0].load_assignment",
  },
  "cluster.rules.ring-min-not-above-max": {
    fail: [
      base({
        lb_policy: "RING_HASH",
        ring_hash_lb_config: { minimum_ring_size: 4096, maximum_ring_size: 2048 },
      }),
    ],
    pass: [
      base({
        lb_policy: "RING_HASH",
        ring_hash_lb_config: { minimum_ring_size: 2048, maximum_ring_size: 2048 },
      }),
    ],
    at: "[0].ring_hash_lb_config.minimum_ring_size",
  },
  "cluster.rules.original-dst-type-needs-its-policy": {
    fail: [{ name: "o", type: "ORIGINAL_DST" }],
    pass: [{ name: "o", type: "ORIGINAL_DST", lb_policy: "CLUSTER_PROVIDED" }],
    at: "[0].lb_policy",
  },
  "cluster.rules.original-dst-lb-needs-original-dst-type": {
    fail: [base({ lb_policy: "ORIGINAL_DST_LB" })],
    pass: [{ name: "o", type: "ORIGINAL_DST", lb_policy: "ORIGINAL_DST_LB" }],
    at: "[0].lb_policy",
  },
  "cluster.rules.cluster-provided-needs-provider": {
    fail: [base({ lb_policy: "CLUSTER_PROVIDED" })],
    pass: [{
      name: "o",
      cluster_type: { name: "proxy.cluster.original_dst" },
      lb_policy: "CLUSTER_PROVIDED",
    }],
    at: "[0].lb_policy",
  },
  "cluster.rules.custom-type-registered": {
    fail: [{ name: "r", cluster_type: { name: "proxy.clusters.redis" } }],
    pass: [base({ cluster_type: { name: "envoy.cluster.static" } })],
    at: "[0].cluster_type.name",
  },
  "cluster.rules.eds-needs-eds-config": {
    fail: [{ name: "e", type: "EDS" }],
    pass: [{ name: "e", type: "EDS", eds_cluster_config: { eds_config: { ads: {} } } }],
    at: "[0]",
  },
  "cluster.rules.logical-dns-single-endpoint": {
    fail: [base({ type: "LOGICAL_DNS", load_assignment: la("base", "a.example", "b.example") })],
    pass: [base({ type: "LOGICAL_DNS", load_assignment: la("base", "a.example") })],
    at: "[0].load_assignment",
  },
  "cluster.rules.logical-dns-single-host": {
    fail: [{
      name: "l",
      type: "LOGICAL_DNS",
      hosts: [{ socket_address: { address: "a", port_value: 1 } }, {
        socket_address: { address: "b", port_value: 1 },
      }],
    }],
    pass: [{
      name: "l",
      type: "LOGICAL_DNS",
      hosts: [{ socket_address: { address: "a", port_value: 1 } }],
    }],
    at: "[0].hosts",
  },
  "cluster.rules.logical-dns-no-resolver-name": {
    fail: [{
      name: "l",
      type: "LOGICAL_DNS",
      hosts: [{ socket_address: { address: "a", port_value: 1, resolver_name: "r" } }],
    }],
    pass: [{
      name: "l",
      type: "LOGICAL_DNS",
      hosts: [{ socket_address: { address: "a", port_value: 1 } }],
    }],
    at: "[0].hosts[0].socket_address.resolver_name",
  },
  "cluster.rules.static-hosts-are-ip": {
    fail: [base({ load_assignment: la("base", "localhost") })],
    pass: [base({ load_assignment: la("base", "::1") })],
    at: "[0].load_assignment.endpoints[0].lb_endpoints[0].endpoint.address.socket_address.address",
  },
  "cluster.rules.single-health-check": {
    fail: [base({ health_checks: [hc(), hc()] })],
    pass: [base({ health_checks: [hc()] })],
    at: "[0].health_checks",
  },
  "cluster.rules.grpc-health-check-needs-http2": {
    fail: [base({ health_checks: [hc({ grpc_health_check: {} })] })],
    pass: [base({ health_checks: [hc({ grpc_health_check: {} })], http2_protocol_options: {} })],
    at: "[0].health_checks[0].grpc_health_check",
  },
  "cluster.rules.http1-and-http2-need-protocol-selection": {
    fail: [base({ http_protocol_options: {}, http2_protocol_options: {} })],
    pass: [
      base({
        http_protocol_options: {},
        http2_protocol_options: {},
        protocol_selection: "USE_DOWNSTREAM_PROTOCOL",
      }),
    ],
    at: "[0].protocol_selection",
  },
  "cluster.rules.extension-options-exclusive": {
    fail: [base({ typed_extension_protocol_options: {}, extension_protocol_options: {} })],
    pass: [base({ typed_extension_protocol_options: {} })],
    at: "[0].extension_protocol_options",
  },
  "cluster.rules.subset-forbids-provided-lb": {
    fail: [{ name: "o", type: "ORIGINAL_DST", lb_policy: "ORIGINAL_DST_LB", lb_subset_config: {} }],
    pass: [base({ lb_subset_config: {} })],
    at: "[0].lb_subset_config",
  },
  "cluster.rules.locality-weight-aware-needs-locality-weighted": {
    fail: [base({ lb_subset_config: { locality_weight_aware: true } })],
    pass: [
      base({
        lb_subset_config: { locality_weight_aware: true },
        common_lb_config: { locality_weighted_lb_config: {} },
      }),
    ],
    at: "[0].lb_subset_config.locality_weight_aware",
  },
  "cluster.rules.http2-window-sizes-in-range": {
    fail: [base({ http2_protocol_options: { initial_stream_window_size: 65534 } })],
    pass: [base({ http2_protocol_options: { initial_stream_window_size: { value: 65535 } } })],
    at: "[0].http2_protocol_options.initial_stream_window_size",
  },
  "cluster.rules.http2-max-concurrent-streams-in-range": {
    fail: [base({ http2_protocol_options: { max_concurrent_streams: 0 } })],
    pass: [base({ http2_protocol_options: { max_concurrent_streams: { value: 1 } } })],
    at: "[0].http2_protocol_options.max_concurrent_streams",
  },
  "cluster.rules.common-http-protocol-options-values": {
    fail: [
      base({ common_http_protocol_options: { idle_timeout: "abc" } }),
      base({ common_http_protocol_options: { max_requests_per_connection: -1 } }),
      base({ common_http_protocol_options: { max_stream_duration: "soon" } }),
      base({ common_http_protocol_options: { max_headers_count: 0 } }),
    ],
    pass: [
      base({
        common_http_protocol_options: {
          idle_timeout: "0s",
          max_connection_duration: "2.5s",
          max_requests_per_connection: { value: 3 },
          max_stream_duration: "1s",
          max_headers_count: { value: 50 },
        },
      }),
    ],
    at: "[0].common_http_protocol_options.idle_timeout",
  },
  "cluster.rules.max-requests-per-connection-once": {
    fail: [
      base({
        max_requests_per_connection: 2,
        common_http_protocol_options: { max_requests_per_connection: 3 },
      }),
    ],
    pass: [base({ common_http_protocol_options: { max_requests_per_connection: 3 } })],
    at: "[0].common_http_protocol_options.max_requests_per_connection",
  },
  "cluster.rules.tls-files-readable": {
    fail: [
      base({
        tls_context: {
          common_tls_context: {
            validation_context: { trusted_ca: { filename: "/nonexistent/ca.pem" } },
          },
        },
      }),
    ],
    pass: [
      base({
        tls_context: {
          common_tls_context: { validation_context: { trusted_ca: { inline_string: "PEM" } } },
        },
      }),
    ],
    at: "[0].tls_context.common_tls_context.validation_context.trusted_ca.filename",
  },
};

function hc(over: Obj = { tcp_health_check: {} }): Obj {
  return {
    timeout: "1s",
    interval: "5s",
    unhealthy_threshold: 2,
    healthy_threshold: 1,
    ...over,
  };
}

Deno.test("cluster.rules: the rules table has rows, each with an example below", () => {
  assert.ok(CLUSTER_RULES.length > 0);
  assert.deepEqual(CLUSTER_RULES.filter((r) => !RULE_CASES[r.id]).map((r) => r.id), []);
});

for (const row of CLUSTER_RULES) {
  Deno.test(`${row.id}: a failing example is rejected at its path and a passing one accepted`, () => {
    const c = RULE_CASES[row.id];
    assert.ok(c, `no example for ${row.id}`);
    const bad = run(c.fail);
    assert.ok(
      bad.errors.some((e) => e.rule === row.id && e.path === `${P}${c.at}`),
      JSON.stringify(bad.errors),
    );
    assert.deepEqual(run(c.pass).errors, []);
  });
}

Deno.test("cluster.rules: errors of several clusters are all reported", () => {
  const { errors, clusters } = run([
    base({ lb_policy: "ROUND_ROBBIN" }),
    base({ name: "ok" }),
    { name: "e", type: "EDS", connect_timeout: "-1s" },
    "not a cluster",
  ]);
  assert.deepEqual(errors.map((e) => e.path), [
    `${P}[0].lb_policy`,
    `${P}[2].connect_timeout`,
    `${P}[2]`,
    `${P}[3]`,
  ]);
  assert.ok(errors.every((e) => e.message.length > 10));
  assert.deepEqual(clusters.map((c) => c.name), ["ok"]);
});

Deno.test("cluster.fields: v2 and v3 spellings are both accepted", () => {
  const { errors, clusters } = run([
    base({
      name: "v2",
      load_assignment: undefined,
      hosts: [{ socket_address: { address: "10.0.0.1", port_value: 8080 } }],
      tls_context: { sni: "a" },
    }),
    base({
      name: "v3",
      transport_socket: {
        name: "envoy.transport_sockets.tls",
        typed_config: {
          "@type":
            "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext",
          sni: "b",
        },
      },
    }),
  ]);
  assert.deepEqual(errors, []);
  assert.deepEqual(clusters.map((c) => c.tls?.sni), ["a", "b"]);
  assert.equal(clusters[0].hosts[0].port, 8080);
});

Deno.test("cluster.fields: a single valid cluster arbitrary keeps its name", () => {
  fc.assert(
    fc.property(clusterArbitrary("n:1"), (c) => {
      const { clusters } = run([c]);
      const alt = typeof c.alt_stat_name === "string" && c.alt_stat_name ? c.alt_stat_name : "n:1";
      assert.equal(clusters[0].statName, alt.replaceAll(":", "_"));
    }),
    { numRuns: 30 },
  );
});

const FIXTURES = new URL("../../fixtures/clusters/", import.meta.url);

function loadFixture(kind: string, file: string): { text: string; clusters: unknown[] } {
  const text = Deno.readTextFileSync(new URL(`${kind}/${file}`, FIXTURES));
  const doc = yaml.load(text) as { static_resources: { clusters: unknown[] } };
  return { text, clusters: doc.static_resources.clusters };
}

Deno.test("cluster.fields: every valid fixture is accepted", () => {
  const files = [...Deno.readDirSync(new URL("valid/", FIXTURES))].map((e) => e.name);
  assert.ok(files.length >= 5);
  for (const f of files) {
    const { errors } = run(loadFixture("valid", f).clusters);
    assert.deepEqual(errors, [], f);
  }
});

Deno.test("cluster.rules: every invalid fixture fails with the rule and path it names", () => {
  const files = [...Deno.readDirSync(new URL("invalid/", FIXTURES))].map((e) => e.name);
  assert.ok(files.length >= 10);
  for (const f of files) {
    const { text, clusters } = loadFixture("invalid", f);
    const rule = /^# expect-rule: (.+)$/m.exec(text)?.[1];
    const path = /^# expect-path: (.+)$/m.exec(text)![1];
    const { errors } = run(clusters);
    assert.ok(
      errors.some((e) => e.path === path && (rule === undefined || e.rule === rule)),
      `${f}: ${JSON.stringify(errors)}`,
    );
  }
});

Deno.test("cluster.fields: arbitrary JSON never crashes the validator; each error names a path", () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  const mutated = fc.tuple(clusterArbitrary("m"), fc.string({ maxLength: 30 }), json).map(
    ([c, k, v]) => ({ ...c, [k]: v }),
  );
  fc.assert(
    fc.property(fc.array(fc.oneof(json, mutated), { maxLength: 3 }), (cs) => {
      const { errors } = run(cs);
      for (const e of errors) {
        assert.ok(e.path.startsWith(P));
        assert.ok(e.message.length > 0);
      }
    }),
    { numRuns: 300 },
  );
});
