/**
 * Envoy's v3 API at run time: the descriptor set `spec/proto/envoy.binpb` (built by
 * `deno task proto:gen` from the `.proto` files of `@grpc/grpc-js-xds`) loaded into an
 * `@bufbuild/protobuf` registry on first use, so only xDS and `.pb` / `.pb_text` bootstraps pay
 * for it. Resources travel as `google.protobuf.Any`; {@linkcode anyToJson} decodes one by its
 * type URL into proto3 JSON with proto field names (`@type` first), the shape the validators of
 * `src/config` read, and {@linkcode jsonToAny} packs such an object back.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anyToJson, jsonToAny } from "./proto_registry.ts";
 * const any = jsonToAny({
 *   "@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
 *   name: "web",
 *   connect_timeout: "0.250s",
 * });
 * assert.equal(anyToJson(any).name, "web");
 * assert.equal(anyToJson(any).connect_timeout, "0.250s");
 * ```
 * @module
 */
import {
  createFileRegistry,
  type DescMessage,
  type FileRegistry,
  fromBinary,
  fromJson,
  type JsonValue,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { fromText } from "@bufbuild/protobuf/txtpb";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import type { JsonObject } from "./bootstrap_types.ts";
import { unknownFieldPaths } from "./proto_unknown_fields.ts";

/** Where the descriptor set is. */
export const DESCRIPTORS_URL = new URL("../../spec/proto/envoy.binpb", import.meta.url);

let registry: FileRegistry | null = null;

/** The registry of every message of the descriptor set (loaded once, on first call). */
export function envoyRegistry(): FileRegistry {
  if (!registry) {
    const set = fromBinary(FileDescriptorSetSchema, Deno.readFileSync(DESCRIPTORS_URL));
    registry = createFileRegistry(set);
  }
  return registry;
}

/** A message type by its full name; throws naming it when the descriptor set lacks it. */
export function messageType(name: string): DescMessage {
  const m = envoyRegistry().getMessage(name);
  if (!m) throw new Error(`unknown message type ${name}`);
  return m;
}

/** The message name of a type URL (`type.googleapis.com/x.y.Z` gives `x.y.Z`). */
export function typeName(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf("/") + 1);
}

/** An `Any` on the wire. */
export interface AnyBytes {
  type_url: string;
  value: Uint8Array;
}

/**
 * The one decoder of protobuf data through the descriptor set, for `.pb` / `.pb_text` bootstraps
 * and xDS resources alike: binary (`Uint8Array`) or text format (`string`) of message `desc` to
 * proto3 JSON with proto field names (defaults left out; `Any` by its type URL). Throws an Error
 * naming the message for malformed input. Fields the descriptor set does not know are dropped
 * from the JSON; `onUnknown` hears their paths first (it may throw).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeToJson, messageType } from "./proto_registry.ts";
 * const node = messageType("envoy.config.core.v3.Node");
 * assert.deepEqual(decodeToJson(node, 'id: "n1"'), { id: "n1" });
 * const unknown: string[] = [];
 * // id "n" (field 1), then field 999 (varint 1), which Node does not have.
 * const bytes = new Uint8Array([0x0a, 1, 0x6e, 0xb8, 0x3e, 1]);
 * assert.deepEqual(decodeToJson(node, bytes, (p) => unknown.push(p)), { id: "n" });
 * assert.deepEqual(unknown, ["#999"]);
 * ```
 */
export function decodeToJson(
  desc: DescMessage,
  data: Uint8Array | string,
  onUnknown?: (path: string) => void,
): JsonObject {
  const reg = envoyRegistry();
  let msg;
  try {
    msg = typeof data === "string"
      ? fromText(desc, data, { registry: reg })
      : fromBinary(desc, data);
  } catch (e) {
    throw new Error(`cannot decode ${desc.typeName}: ${(e as Error).message}`);
  }
  if (onUnknown) { for (const p of unknownFieldPaths(desc, msg)) onUnknown(p); }
  return toJson(desc, msg, { registry: reg, useProtoFieldName: true }) as JsonObject;
}

/**
 * Decodes an `Any` by its type URL to proto3 JSON with `@type` ({@linkcode decodeToJson}).
 * Throws an Error saying why (unknown type, malformed bytes).
 */
export function anyToJson(any: AnyBytes, onUnknown?: (path: string) => void): JsonObject {
  const desc = envoyRegistry().getMessage(typeName(any.type_url));
  if (!desc) throw new Error(`unknown resource type ${any.type_url}`);
  return { "@type": any.type_url, ...decodeToJson(desc, any.value, onUnknown) };
}

/**
 * Encodes proto3 JSON with `@type` (proto or JSON field names) as an `Any`. Throws an Error for
 * an unknown type or a field the message does not have.
 */
export function jsonToAny(obj: JsonObject): AnyBytes {
  const type_url = String(obj["@type"] ?? "");
  const { "@type": _, ...body } = obj;
  const reg = envoyRegistry();
  const desc = reg.getMessage(typeName(type_url));
  if (!desc) throw new Error(`unknown resource type ${type_url || "(no @type)"}`);
  const msg = fromJson(desc, body as JsonValue, { registry: reg });
  return { type_url, value: toBinary(desc, msg) };
}
