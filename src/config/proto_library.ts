/**
 * `.pb` and `.pb_text` bootstraps decoded by `@bufbuild/protobuf` over the Envoy v3 descriptor
 * set (`proto_registry.ts`), for the messages the table-driven decoders (`proto_binary.ts`,
 * `proto_text.ts`) do not describe: listeners with filter chains, secrets, any `Any` whose type
 * the descriptor set has. The result is proto3 JSON with proto field names, the same shape a YAML
 * bootstrap gives. Errors say where: the library's own message for malformed input, prefixed
 * with the message being decoded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeBootstrapText } from "./proto_library.ts";
 * const b = decodeBootstrapText('node { id: "n1" }');
 * assert.deepEqual(b, { node: { id: "n1" } });
 * ```
 * @module
 */
import { fromBinary, toJson } from "@bufbuild/protobuf";
import { fromText } from "@bufbuild/protobuf/txtpb";
import type { JsonObject } from "./bootstrap_types.ts";
import { envoyRegistry, messageType } from "./proto_registry.ts";
import { unknownFieldPaths } from "./proto_unknown_fields.ts";

/** The message a bootstrap file holds. */
export const BOOTSTRAP_V3 = "envoy.config.bootstrap.v3.Bootstrap";

/** The JSON of a decoded Bootstrap; a field the descriptor set does not know is an error. */
function json(m: unknown): JsonObject {
  const unknown = unknownFieldPaths(messageType(BOOTSTRAP_V3), m);
  if (unknown.length) {
    throw new Error(`unknown field ${unknown[0].replace("#", " number ")}`);
  }
  return toJson(messageType(BOOTSTRAP_V3), m as never, {
    registry: envoyRegistry(),
    useProtoFieldName: true,
  }) as JsonObject;
}

/** Decodes a binary v3 Bootstrap. Throws an Error naming the message for malformed input. */
export function decodeBootstrapBinary(bytes: Uint8Array): JsonObject {
  try {
    return json(fromBinary(messageType(BOOTSTRAP_V3), bytes));
  } catch (e) {
    throw new Error(`${BOOTSTRAP_V3}: ${(e as Error).message}`);
  }
}

/** Decodes a text-format v3 Bootstrap. Throws an Error naming the message for malformed input. */
export function decodeBootstrapText(text: string): JsonObject {
  try {
    return json(fromText(messageType(BOOTSTRAP_V3), text, { registry: envoyRegistry() }));
  } catch (e) {
    throw new Error(`${BOOTSTRAP_V3}: ${(e as Error).message}`);
  }
}

/** Whether an error of the table-driven decoders means "this build's tables lack the message". */
export function isUndescribed(e: unknown): boolean {
  return e instanceof Error && /is not described|has no field number/.test(e.message);
}
