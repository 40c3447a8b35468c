/**
 * A decoder of the protobuf binary wire format (`.pb` bootstraps), driven by the message
 * descriptions of `bootstrap_schema.ts` and `proto_cluster_schema.ts` (the Cluster, generated from
 * the spec tables): varints, 64-bit, length-delimited and 32-bit fields,
 * packed repeated scalars, maps, and the well-known types (Duration, wrappers, Struct) turned
 * into their proto3 JSON form. A field number the description lacks is kept under the key
 * `#<number>`, so the unknown-field check reports it like any other unknown field. A message
 * type without a description cannot be decoded: the error names it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeBinary } from "./proto_binary.ts";
 * import { BOOTSTRAP } from "./bootstrap_schema.ts";
 * // admin { profile_path: "/tmp/p" }: field 12 (length 8) holding field 2 (length 6)
 * const bytes = new Uint8Array([0x62, 8, 0x12, 6, ...new TextEncoder().encode("/tmp/p")]);
 * assert.deepEqual(decodeBinary(bytes, BOOTSTRAP), { admin: { profile_path: "/tmp/p" } });
 * ```
 * @module
 */
import type { Json, JsonObject } from "./bootstrap_types.ts";
import type { FieldDesc, MessageDesc, ScalarKind } from "./bootstrap_schema.ts";
import { anyTypeName, PROTO_MESSAGES } from "./proto_cluster_schema.ts";

/** A decoding failure: where (field path) and what. */
export class ProtoDecodeError extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
    this.name = "ProtoDecodeError";
  }
}

/**
 * The error for a message type this implementation does not describe.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notDescribed } from "./proto_binary.ts";
 * assert.equal(
 *   notDescribed("envoy.api.v2.auth.Secret"),
 *   "message envoy.api.v2.auth.Secret is not described; use YAML or JSON",
 * );
 * ```
 */
export function notDescribed(type: string): string {
  return `message ${type} is not described; use YAML or JSON`;
}

/**
 * The error for data a generated description cannot place: a field of the message whose table
 * row has no field number (by name in text format, by number in binary).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { undescribedField } from "./proto_binary.ts";
 * assert.equal(
 *   undescribedField({ fullName: "M", fields: [], undescribed: ["x"], source: "t.ts" }, "x"),
 *   "field x of message M has no field number in t.ts; use YAML or JSON",
 * );
 * ```
 */
export function undescribedField(desc: MessageDesc, field: string): string {
  const source = desc.source ?? "the spec tables";
  if (desc.undescribed?.includes(field)) {
    return `field ${field} of message ${desc.fullName} has no field number in ${source}; ` +
      `use YAML or JSON`;
  }
  return `field ${field} of message ${desc.fullName} is not described (rows without a field ` +
    `number in ${source}: ${(desc.undescribed ?? []).join(", ")}); use YAML or JSON`;
}

/**
 * Turns a decoded Any (`type_url` and its payload decoded by `decode`) into the proto3 JSON form
 * `{"@type": url, ...fields}`; a payload type without a description is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anyJson } from "./proto_binary.ts";
 * assert.deepEqual(anyJson("type.googleapis.com/google.protobuf.Duration", () => "1s", ""), {
 *   "@type": "type.googleapis.com/google.protobuf.Duration",
 *   value: "1s",
 * });
 * ```
 */
export function anyJson(url: string, decode: (type: string) => Json, path: string): JsonObject {
  const type = anyTypeName(url);
  if (!url || !PROTO_MESSAGES[type]) {
    throw new ProtoDecodeError(path, `Any payload: ${notDescribed(type || "(empty type_url)")}`);
  }
  const v = decode(type);
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? { "@type": url, ...v }
    : { "@type": url, value: v };
}

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array, readonly path: string) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  /** Where the reader is, counted from the start of the buffer the file was read into. */
  get offset(): number {
    return this.buf.byteOffset + this.pos;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.buf.length) {
        throw new ProtoDecodeError(this.path, `truncated varint at byte ${this.offset}`);
      }
      const b = this.buf[this.pos++];
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
    throw new ProtoDecodeError(this.path, `varint longer than 10 bytes at byte ${this.offset}`);
  }
  bytes(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.buf.length) {
      throw new ProtoDecodeError(
        this.path,
        `length ${n} at byte ${this.offset} runs past the end of the data`,
      );
    }
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  lengthDelimited(): Uint8Array {
    return this.bytes(Number(this.varint()));
  }
}

const dec = new TextDecoder("utf-8", { fatal: true });

function scalarFromVarint(kind: ScalarKind, v: bigint): Json {
  switch (kind) {
    case "bool":
      return v !== 0n;
    case "uint32":
      return Number(v & 0xffffffffn);
    case "int32":
      return Number(BigInt.asIntN(32, v));
    case "uint64":
      return BigInt.asUintN(64, v).toString();
    case "int64":
      return BigInt.asIntN(64, v).toString();
    default:
      return Number(v);
  }
}

function decodeScalar(kind: ScalarKind, wire: number, r: Reader, path: string): Json {
  if (kind === "string" || kind === "bytes") {
    if (wire !== 2) {
      throw new ProtoDecodeError(path, `wire type ${wire} where a ${kind} was expected`);
    }
    const b = r.lengthDelimited();
    if (kind === "bytes") return btoa(String.fromCharCode(...b));
    try {
      return dec.decode(b);
    } catch {
      throw new ProtoDecodeError(path, "string is not valid UTF-8");
    }
  }
  if (kind === "double") {
    if (wire !== 1) {
      throw new ProtoDecodeError(path, `wire type ${wire} where a double was expected`);
    }
    return new DataView(r.bytes(8).slice().buffer).getFloat64(0, true);
  }
  if (wire !== 0) throw new ProtoDecodeError(path, `wire type ${wire} where a varint was expected`);
  return scalarFromVarint(kind, r.varint());
}

function skip(wire: number, r: Reader, path: string): void {
  if (wire === 0) r.varint();
  else if (wire === 1) r.bytes(8);
  else if (wire === 2) r.lengthDelimited();
  else if (wire === 5) r.bytes(4);
  else throw new ProtoDecodeError(path, `unsupported wire type ${wire}`);
}

function decodeValue(f: FieldDesc, wire: number, r: Reader, path: string): Json | Json[] {
  const k = f.kind;
  if ("scalar" in k) {
    const packable = k.scalar !== "string" && k.scalar !== "bytes";
    if (f.repeated && packable && wire === 2) {
      const inner = new Reader(r.lengthDelimited(), path);
      const out: Json[] = [];
      while (!inner.done) {
        out.push(decodeScalar(k.scalar, k.scalar === "double" ? 1 : 0, inner, path));
      }
      return out;
    }
    return decodeScalar(k.scalar, wire, r, path);
  }
  if ("enum" in k) {
    if (wire !== 0) {
      throw new ProtoDecodeError(path, `wire type ${wire} where an enum was expected`);
    }
    const n = Number(r.varint());
    return k.enum[n] ?? n;
  }
  if (wire !== 2) {
    throw new ProtoDecodeError(path, `wire type ${wire} where a message was expected`);
  }
  return decodeMessage(r.lengthDelimited(), k.message, path);
}

/**
 * Renders a decoded `{seconds, nanos}` Duration as a proto3 JSON string (`1.5s`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { durationJson } from "./proto_binary.ts";
 * assert.equal(durationJson({ seconds: "1", nanos: 500000000 }), "1.5s");
 * ```
 */
export function durationJson(o: JsonObject): string {
  const secs = BigInt(String(o.seconds ?? "0"));
  const nanos = Number(o.nanos ?? 0);
  const neg = secs < 0n || nanos < 0;
  const abs = (secs < 0n ? -secs : secs).toString();
  const frac = nanos === 0 ? "" : "." + String(Math.abs(nanos)).padStart(9, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${abs}${frac}s`;
}

function structValue(o: JsonObject): Json {
  const key = Object.keys(o).find((k) => k !== "null_value");
  return key === undefined ? null : o[key] ?? null;
}

/**
 * Decodes one message of the given type into its proto3 JSON form.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeMessage } from "./proto_binary.ts";
 * assert.equal(decodeMessage(new Uint8Array([0x08, 0x05]), "google.protobuf.Duration"), "5s");
 * ```
 */
export function decodeMessage(buf: Uint8Array, type: string, path = ""): Json {
  if (depth >= MAX_BINARY_NESTING) {
    throw new ProtoDecodeError(path, `messages nested deeper than ${MAX_BINARY_NESTING} levels`);
  }
  depth++;
  try {
    return decodeMessageAt(buf, type, path);
  } finally {
    depth--;
  }
}

/** Deepest nesting of messages a binary proto may have (protobuf's own parsers stop at 100). */
export const MAX_BINARY_NESTING = 100;
let depth = 0;

function decodeMessageAt(buf: Uint8Array, type: string, path: string): Json {
  const desc = PROTO_MESSAGES[type];
  if (!desc) throw new ProtoDecodeError(path, notDescribed(type));
  if (desc.wellKnown === "any") return decodeAny(buf, path);
  const r = new Reader(buf, path);
  const out: JsonObject = {};
  while (!r.done) {
    const tag = Number(r.varint());
    const num = tag >>> 3;
    const wire = tag & 7;
    const f = desc.fields.find((x) => x.number === num);
    const fpath = path ? `${path}.${f?.name ?? `#${num}`}` : f?.name ?? `#${num}`;
    if (!f) {
      if (desc.undescribed?.length) {
        throw new ProtoDecodeError(fpath, undescribedField(desc, `#${num}`));
      }
      skip(wire, r, fpath);
      out[`#${num}`] = true;
      continue;
    }
    if (f.map) {
      if (wire !== 2) throw new ProtoDecodeError(fpath, "map entry is not length-delimited");
      const entry = new Reader(r.lengthDelimited(), fpath);
      let key = "";
      let value: Json = null;
      while (!entry.done) {
        const t = Number(entry.varint());
        if (t >>> 3 === 1) key = String(decodeScalar("string", t & 7, entry, fpath));
        else if (t >>> 3 === 2) {
          value = decodeValue(
            { ...f, map: false, repeated: false },
            t & 7,
            entry,
            `${fpath}.${key}`,
          ) as Json;
        } else skip(t & 7, entry, fpath);
      }
      const obj = (out[f.name] ??= {}) as JsonObject;
      obj[key] = value;
      continue;
    }
    const v = decodeValue(f, wire, r, fpath);
    if (f.repeated) {
      const arr = (out[f.name] ??= []) as Json[];
      if (Array.isArray(v)) arr.push(...v);
      else arr.push(v);
    } else out[f.name] = v as Json;
  }
  switch (desc.wellKnown) {
    case "duration":
      return durationJson(out);
    case "wrapper": {
      const kind = (desc.fields[0].kind as { scalar: ScalarKind }).scalar;
      return out.value ?? (kind === "bool" ? false : kind.endsWith("64") ? "0" : 0);
    }
    case "struct":
      return (out.fields ?? {}) as JsonObject;
    case "value":
      return structValue(out);
    case "list":
      return (out.values ?? []) as Json[];
    default:
      return out;
  }
}

function decodeAny(buf: Uint8Array, path: string): JsonObject {
  const r = new Reader(buf, path);
  let url = "";
  let payload: Uint8Array = new Uint8Array();
  while (!r.done) {
    const tag = Number(r.varint());
    if (tag >>> 3 === 1) url = String(decodeScalar("string", tag & 7, r, `${path}.type_url`));
    else if (tag >>> 3 === 2 && (tag & 7) === 2) payload = r.lengthDelimited();
    else skip(tag & 7, r, path);
  }
  return anyJson(url, (type) => decodeMessage(payload, type, path), path);
}

/**
 * Decodes a binary message (a whole `.pb` file) of the given type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeBinary } from "./proto_binary.ts";
 * import { BOOTSTRAP } from "./bootstrap_schema.ts";
 * assert.deepEqual(
 *   decodeBinary(new Uint8Array([0x80, 0x01, 0x01]), BOOTSTRAP),
 *   { enable_dispatcher_stats: true },
 * );
 * ```
 */
export function decodeBinary(buf: Uint8Array, type: string): Json {
  return decodeMessage(buf, type, "");
}
