import assert from "node:assert/strict";
import fc from "fast-check";
import { BOOTSTRAP } from "./bootstrap_schema.ts";
import { decodeBinary, decodeMessage, ProtoDecodeError } from "./proto_binary.ts";
import { decodeText } from "./proto_text.ts";
import { parseArgs } from "./args.ts";
import { loadBootstrap } from "./bootstrap.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import { encodeBinary, encodeText } from "../../fixtures/bootstrap/make_pb.ts";
import { PROTOBUF } from "./protobuf_module.ts";

// .pb and .pb_text bootstraps decode with the protobuf runtime, which the command line loads first.
await PROTOBUF.load();

const enc = new TextEncoder();

Deno.test("cli.options.config-path: binary proto3 decoding of varints, strings, nested messages and unknown numbers", () => {
  const profile = enc.encode("/p");
  // admin(12) { profile_path(2): "/p" }, enable_dispatcher_stats(16): true, field 99 varint 300
  const bytes = new Uint8Array([
    0x62,
    2 + profile.length,
    0x12,
    profile.length,
    ...profile,
    0x80,
    0x01,
    1,
    0x98,
    0x06,
    0xac,
    0x02,
  ]);
  assert.deepEqual(decodeBinary(bytes, BOOTSTRAP), {
    admin: { profile_path: "/p" },
    enable_dispatcher_stats: true,
    "#99": true,
  });
});

Deno.test("cli.options.config-path: truncated binary data is an error, never a crash", () => {
  for (
    const bad of [[0x62, 10, 0x12], [0x80], [
      0x62,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x80,
      0x01,
    ], [0x0b]]
  ) {
    assert.throws(
      () => decodeBinary(new Uint8Array(bad), BOOTSTRAP),
      ProtoDecodeError,
      JSON.stringify(bad),
    );
  }
});

Deno.test("cli.options.config-path: text proto3 syntax errors name the line and column", () => {
  assert.throws(() => decodeText('admin {\n  profile_path "/p"\n}', BOOTSTRAP), (e: unknown) => {
    assert.ok(e instanceof ProtoDecodeError);
    assert.equal(e.path, "line 2:16");
    return true;
  });
  assert.throws(() => decodeText("admin { profile_path: 3 }", BOOTSTRAP), /quoted string expected/);
  assert.throws(() => decodeText("admin {", BOOTSTRAP), /'\}' expected/);
  assert.throws(
    () => decodeText("static_resources { secrets { name: 'c' } }", BOOTSTRAP),
    /message envoy\.api\.v2\.auth\.Secret is not described; use YAML or JSON/,
  );
});

Deno.test("cli.options.config-path: text proto3 lists, enums, comments and string concatenation", () => {
  const v = decodeText(
    `# comment\nnode { client_features: ["a", "b"] id: "x" 'y' }\nadmin < address { socket_address { protocol: UDP address: "::1" port_value: 0x10 } } >`,
    BOOTSTRAP,
  );
  assert.deepEqual(v, {
    node: { client_features: ["a", "b"], id: "xy" },
    admin: { address: { socket_address: { protocol: "UDP", address: "::1", port_value: 16 } } },
  });
});

Deno.test("cli.options.config-path: any bytes decode or fail with a ProtoDecodeError, never a crash", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      try {
        decodeBinary(bytes, BOOTSTRAP);
      } catch (e) {
        assert.ok(e instanceof ProtoDecodeError, String(e));
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("cli.options.config-path: any text parses or fails with a ProtoDecodeError, never a crash", () => {
  const tokens = fc.constantFrom(
    "admin",
    "node",
    "{",
    "}",
    ":",
    '"x"',
    "1",
    "[",
    "]",
    ",",
    "id",
    "<",
    ">",
    "#c\n",
    "'y'",
    "layers",
    "layered_runtime",
  );
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.array(tokens).map((t) => t.join(" "))), (text) => {
      try {
        decodeText(text, BOOTSTRAP);
      } catch (e) {
        assert.ok(e instanceof ProtoDecodeError, String(e));
      }
    }),
    { numRuns: 500 },
  );
});

const FIX = new URL("../../fixtures/bootstrap/", import.meta.url).pathname;
const CLUSTER = "envoy.api.v2.Cluster";

Deno.test("cluster.fields.load-assignment, cluster.fields.ring-hash-lb-config, cluster.fields.circuit-breakers: .pb and .pb_text bootstraps with two clusters load like the same YAML", () => {
  const yamlLoad = loadBootstrap(parseArgs(["-c", FIX + "clusters.yaml"]));
  assert.deepEqual(yamlLoad.errors, []);
  const original = yamlLoad.original;
  const bin = encodeBinary(original, BOOTSTRAP);
  assert.deepEqual(decodeBinary(bin, BOOTSTRAP), original);
  assert.deepEqual(decodeText(encodeText(original, BOOTSTRAP), BOOTSTRAP), original);
  for (const f of ["clusters.pb", "clusters.pb_text"]) {
    const r = loadBootstrap(parseArgs(["-c", FIX + f]));
    assert.deepEqual(r.errors, [], f);
    assert.deepEqual(r.original, original, f);
    assert.deepEqual(r.bootstrap, yamlLoad.bootstrap, f);
  }
});

Deno.test("cluster.fields.load-assignment: hand-assembled Cluster bytes decode with the published numbers", () => {
  const c = enc.encode("c");
  const bytes = new Uint8Array([
    ...[0x0a, 1, ...c], // name (1)
    ...[0x22, 8, 0x08, 1, 0x10, 0x80, 0xca, 0xb5, 0xee, 0x01], // connect_timeout (4): 1s 5e8ns
    ...[0x8a, 0x02, 3, 0x0a, 1, ...c], // load_assignment (33) { cluster_name (1) }
    ...[0xba, 0x01, 6, 0x0a, 2, 0x08, 7, 0x18, 1], // ring_hash_lb_config (23) { 1: {7}, 3: 1 }
    ...[0x10, 0x03], // type (2): EDS
  ]);
  assert.deepEqual(decodeMessage(bytes, CLUSTER), {
    name: "c",
    connect_timeout: "1.5s",
    load_assignment: { cluster_name: "c" },
    ring_hash_lb_config: { minimum_ring_size: "7", hash_function: "MURMUR_HASH_2" },
    type: "EDS",
  });
  // protocol_selection (26) sent as a message: a wire-type error naming the field
  assert.throws(
    () => decodeMessage(new Uint8Array([0xd2, 0x01, 0]), CLUSTER),
    (e: unknown) => e instanceof ProtoDecodeError && e.path === "protocol_selection",
  );
});

Deno.test('cluster.objects.custom-cluster-type.typed-config: an Any decodes to {"@type", ...} or fails naming its payload type', () => {
  const any = (url: string, payload: number[]) => {
    const u = enc.encode(url);
    return [0x0a, u.length, ...u, 0x12, payload.length, ...payload];
  };
  const durationUrl = "type.googleapis.com/google.protobuf.Duration";
  const custom = (body: number[]) =>
    new Uint8Array([0xb2, 0x02, body.length + 5, 0x0a, 1, 0x78, 0x12, body.length, ...body]);
  // cluster_type (38) { name "x", typed_config (2) Any }
  const ok = any(durationUrl, [0x08, 2]);
  assert.deepEqual(decodeMessage(custom(ok), CLUSTER), {
    cluster_type: { name: "x", typed_config: { "@type": durationUrl, value: "2s" } },
  });
  const bad = any("type.googleapis.com/acme.Nope", []);
  assert.throws(
    () => decodeMessage(custom(bad), CLUSTER),
    /Any payload: message acme\.Nope is not described; use YAML or JSON/,
  );
  const text =
    `cluster_type { name: "x" typed_config { type_url: "${durationUrl}" value: "\\x08\\x03" } }`;
  assert.deepEqual(decodeText(text, CLUSTER), {
    cluster_type: { name: "x", typed_config: { "@type": durationUrl, value: "3s" } },
  });
});

Deno.test("cluster.objects.custom-cluster-type.name: a field whose row has no number is an error naming the table and message", () => {
  // health_checks (8) { timeout (1) { seconds 1 } }: core.HealthCheck rows carry no numbers
  assert.throws(
    () => decodeMessage(new Uint8Array([0x42, 4, 0x0a, 2, 0x08, 1]), CLUSTER),
    (e: unknown) => {
      assert.ok(e instanceof ProtoDecodeError);
      assert.equal(e.path, "health_checks.#1");
      assert.match(
        e.message,
        /message envoy\.api\.v2\.core\.HealthCheck .*spec\/cluster\/objects\.ts/,
      );
      return true;
    },
  );
  assert.throws(
    () => decodeText("circuit_breakers { thresholds { retry_budget {} } }", CLUSTER),
    /field retry_budget of message envoy\.api\.v2\.cluster\.CircuitBreakers\.Thresholds has no field number in spec\/cluster\/objects\.ts/,
  );
  // a type with no rows at all
  assert.throws(
    () => decodeText("tls_context { sni: 'x' }", CLUSTER),
    /message envoy\.api\.v2\.auth\.UpstreamTlsContext is not described/,
  );
});

Deno.test("cluster.objects.cluster.circuit-breakers.thresholds.max-connections: wrappers, enums and durations round-trip through both formats", () => {
  const thresholds = fc.record({
    priority: fc.constantFrom("DEFAULT", "HIGH"),
    max_connections: fc.integer({ min: 0, max: 0xffffffff }),
    max_retries: fc.integer({ min: 0, max: 100 }),
  }, { requiredKeys: [] });
  const cluster = fc.record({
    name: fc.string({ minLength: 1 }),
    connect_timeout: fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 999 }))
      .map((
        [s, ms],
      ) => (ms === 0 ? `${s}s` : `${s}.${String(ms).padStart(3, "0").replace(/0+$/, "")}s`)),
    circuit_breakers: fc.array(thresholds, { maxLength: 3 }).map((t) => ({ thresholds: t })),
    ring_hash_lb_config: fc.record({
      minimum_ring_size: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
      hash_function: fc.constantFrom("XX_HASH", "MURMUR_HASH_2"),
    }, { requiredKeys: [] }),
  }, { requiredKeys: ["name"] });
  fc.assert(
    fc.property(cluster, (c) => {
      const v = c as JsonObject;
      const norm = JSON.parse(JSON.stringify(v));
      if (norm.circuit_breakers?.thresholds.length === 0) norm.circuit_breakers = {};
      assert.deepEqual(decodeMessage(encodeBinary(v, CLUSTER), CLUSTER), norm);
      assert.deepEqual(decodeText(encodeText(v, CLUSTER), CLUSTER), norm);
    }),
    { numRuns: 200 },
  );
});
