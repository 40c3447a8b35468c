import assert from "node:assert/strict";
import { BOOTSTRAP } from "./bootstrap_schema.ts";
import { decodeBinary, decodeMessage, MAX_BINARY_NESTING } from "./proto_binary.ts";
import { decodeText, MAX_TEXT_NESTING } from "./proto_text.ts";
import { parseArgs } from "./args.ts";
import { loadBootstrap } from "./bootstrap.ts";
import { parseJsonLocated } from "./json_location.ts";
import { PROTOBUF } from "./protobuf_module.ts";

// .pb and .pb_text bootstraps decode with the protobuf runtime, which the command line loads first.
await PROTOBUF.load();

async function loadFile(name: string, data: string | Uint8Array) {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/${name}`;
    if (typeof data === "string") await Deno.writeTextFile(path, data);
    else await Deno.writeFile(path, data);
    return loadBootstrap(parseArgs(["-c", path])).errors;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A `google.protobuf.Struct` nested `levels` deep through `fields["a"].struct_value`. */
function nestedStruct(levels: number): Uint8Array {
  let inner: number[] = [];
  for (let i = 0; i < levels; i++) {
    const value = [0x2a, ...varint(inner.length), ...inner]; // Value.struct_value = 5
    const entry = [0x0a, 1, 0x61, 0x12, ...varint(value.length), ...value]; // key "a", value
    inner = [0x0a, ...varint(entry.length), ...entry]; // Struct.fields = 1
  }
  return new Uint8Array(inner);
}

Deno.test("cli.options.config-path: a truncated .pb names the byte offset (and the field path when inside one)", async () => {
  const truncatedTag = await loadFile("t.pb", new Uint8Array([0x62, 0x02, 0x12, 0x00, 0x80]));
  assert.equal(truncatedTag.length, 1);
  assert.match(truncatedTag[0].message, /truncated varint at byte 5/);
  const longLength = await loadFile("l.pb", new Uint8Array([0x62, 0x05, 0x12, 0x09, 0x2f]));
  assert.match(longLength[0].message, /length \d+ at byte \d+ runs past the end of the data/);
  assert.throws(
    () => decodeBinary(new Uint8Array([0x62, 0x03, 0x12, 0x09, 0x2f]), BOOTSTRAP),
    /length 9 at byte 4 runs past the end/,
  );
});

Deno.test("cli.options.config-path: binary messages nested past the limit are an error, not a stack overflow", () => {
  assert.doesNotThrow(() => decodeMessage(nestedStruct(20), "google.protobuf.Struct"));
  assert.throws(
    () => decodeMessage(nestedStruct(300), "google.protobuf.Struct"),
    (e: unknown) =>
      e instanceof Error && e.message.includes(`deeper than ${MAX_BINARY_NESTING} levels`) &&
      !(e instanceof RangeError),
  );
});

Deno.test("cli.options.config-path: a deeply nested .pb_text is an error with its line and column", async () => {
  const deep = "node { metadata { " + "fields { key: 'a' value { struct_value { ".repeat(3000);
  assert.throws(
    () => decodeText(deep, BOOTSTRAP),
    new RegExp(`deeper than ${MAX_TEXT_NESTING} levels`),
  );
  const errors = await loadFile("d.pb_text", deep);
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /line 1:\d+.*deeper than 100 levels/);
});

Deno.test("cli.options.config-path: JSON with NaN or Infinity names the line and column", async () => {
  const errors = await loadFile("n.json", '{\n  "admin": {\n    "x": NaN\n  }\n}');
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /line 3 column 10/);
  assert.throws(() => parseJsonLocated('{"a": "NaN", "b": Infinity}'), /position 18/);
  assert.throws(() => parseJsonLocated(""), /end of input/);
  assert.deepEqual(parseJsonLocated('{"a": [1]}'), { a: [1] });
});

Deno.test("cli.options.config-path: JSON nested deeper than the limit is an error naming the path", async () => {
  let v: unknown = "x";
  for (let i = 0; i < 50_000; i++) v = { a: v };
  const errors = await loadFile("deep.json", JSON.stringify({ node: { id: "n", metadata: v } }));
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /^node\.metadata\.a\.a.*nested deeper than 100 levels/);
});

Deno.test("cli.options.config-path: a too-deep path through a key that is not a plain name quotes the key", async () => {
  let v: unknown = "x";
  for (let i = 0; i < 200; i++) v = { a: v };
  const errors = await loadFile(
    "deep.json",
    JSON.stringify({ node: { id: "n", metadata: { "odd key<": v } } }),
  );
  assert.equal(errors.length, 1);
  assert.match(
    errors[0].message,
    /^node\.metadata\["odd key<"\]\.a\.a.*nested deeper than 100 levels/,
  );
});
