/**
 * One Envoy message between proto3 JSON and its binary encoding, by the message's full name,
 * with the descriptor set of `proto_registry.ts`. This module imports `@bufbuild/protobuf`
 * statically, so its functions work in any isolate that imports it: tools and test servers
 * import it (or the codecs built on it) directly, while the proxy reaches it through the
 * protobuf runtime it loads on demand (`protobuf_module.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeMessage, encodeMessage } from "./proto_messages.ts";
 * const node = "envoy.config.core.v3.Node";
 * const bytes = encodeMessage(node, { id: "n1", user_agent_name: "proxyspec" });
 * assert.deepEqual(decodeMessage(node, bytes), { id: "n1", user_agent_name: "proxyspec" });
 * ```
 * @module
 */
import { fromBinary, fromJson, type JsonValue, toBinary, toJson } from "@bufbuild/protobuf";
import type { JsonObject } from "./bootstrap_types.ts";
import { envoyRegistry, messageType } from "./proto_registry.ts";

/** Encodes `json` (proto3 JSON, proto or JSON field names) as the message `typeName`. */
export function encodeMessage(typeName: string, json: JsonObject): Uint8Array {
  const d = messageType(typeName);
  return toBinary(d, fromJson(d, json as JsonValue, { registry: envoyRegistry() }));
}

/**
 * Decodes `bytes` as the message `typeName` to proto3 JSON with proto field names (enums by
 * number with `enumAsInteger`). Throws when the bytes are not one.
 */
export function decodeMessage(
  typeName: string,
  bytes: Uint8Array,
  opts: { enumAsInteger?: boolean } = {},
): JsonObject {
  const d = messageType(typeName);
  return toJson(d, fromBinary(d, bytes), {
    registry: envoyRegistry(),
    useProtoFieldName: true,
    enumAsInteger: opts.enumAsInteger ?? false,
  }) as JsonObject;
}
