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
 * Decodes an `Any` by its type URL to proto3 JSON (proto field names, defaults left out) with
 * `@type`. Throws an Error saying why (unknown type, malformed bytes). Fields the descriptor set
 * does not know are dropped from the JSON; `onUnknown` hears their paths (it may throw).
 */
export function anyToJson(any: AnyBytes, onUnknown?: (path: string) => void): JsonObject {
  const reg = envoyRegistry();
  const desc = reg.getMessage(typeName(any.type_url));
  if (!desc) throw new Error(`unknown resource type ${any.type_url}`);
  let msg;
  try {
    msg = fromBinary(desc, any.value);
  } catch (e) {
    throw new Error(`cannot decode ${desc.typeName}: ${(e as Error).message}`);
  }
  if (onUnknown) { for (const p of unknownFieldPaths(desc, msg)) onUnknown(p); }
  const json = toJson(desc, msg, { registry: reg, useProtoFieldName: true }) as JsonObject;
  return { "@type": any.type_url, ...json };
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
