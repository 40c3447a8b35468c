/**
 * `.pb` and `.pb_text` bootstraps decoded by `@bufbuild/protobuf` over the Envoy v3 descriptor
 * set, through the same decoder as xDS resources (`proto_registry.ts` `decodeToJson`), for the
 * messages the table-driven decoders (`proto_binary.ts`,
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
import type { JsonObject } from "./bootstrap_types.ts";
import { decodeToJson, messageType } from "./proto_registry.ts";

/** The message a bootstrap file holds. */
export const BOOTSTRAP_V3 = "envoy.config.bootstrap.v3.Bootstrap";

/**
 * Decodes a v3 Bootstrap, binary or text ({@linkcode decodeToJson}); a field the descriptor set
 * does not know is an error. Throws an Error naming the message.
 */
function decodeBootstrap(data: Uint8Array | string): JsonObject {
  try {
    return decodeToJson(messageType(BOOTSTRAP_V3), data, (path) => {
      throw new Error(`unknown field ${path.replace("#", " number ")}`);
    });
  } catch (e) {
    const why = (e as Error).message.replace(`cannot decode ${BOOTSTRAP_V3}: `, "");
    throw new Error(`${BOOTSTRAP_V3}: ${why}`);
  }
}

/** Decodes a binary v3 Bootstrap. Throws an Error naming the message for malformed input. */
export function decodeBootstrapBinary(bytes: Uint8Array): JsonObject {
  return decodeBootstrap(bytes);
}

/** Decodes a text-format v3 Bootstrap. Throws an Error naming the message for malformed input. */
export function decodeBootstrapText(text: string): JsonObject {
  return decodeBootstrap(text);
}

/** Whether an error of the table-driven decoders means "this build's tables lack the message". */
export function isUndescribed(e: unknown): boolean {
  return e instanceof Error && /is not described|has no field number/.test(e.message);
}
