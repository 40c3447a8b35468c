import assert from "node:assert/strict";
import fc from "fast-check";
import { BOOTSTRAP } from "./bootstrap_schema.ts";
import { decodeBinary, ProtoDecodeError } from "./proto_binary.ts";
import { decodeText } from "./proto_text.ts";

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
    () => decodeText("static_resources { clusters { name: 'c' } }", BOOTSTRAP),
    /envoy\.api\.v2\.Cluster is not described/,
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
