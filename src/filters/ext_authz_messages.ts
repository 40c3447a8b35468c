/**
 * The authorization service's side of the gRPC external authorization messages
 * (`envoy.service.auth.v3`): it decodes a `CheckRequest` and encodes its `CheckResponse`, for
 * tests and example servers. These work in any isolate that imports them (they import the
 * protobuf runtime statically, `proto_messages.ts`); the proxy's side is `ext_authz_grpc.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { encodeCheckResponse } from "./ext_authz_messages.ts";
 * import { decodeMessage } from "../config/proto_messages.ts";
 * const bytes = encodeCheckResponse({ status: { code: 7 } });
 * const back = decodeMessage("envoy.service.auth.v3.CheckResponse", bytes);
 * assert.deepEqual(back, { status: { code: 7 } });
 * ```
 * @module
 */
import type { JsonObject } from "../config/bootstrap_types.ts";
import { decodeMessage, encodeMessage } from "../config/proto_messages.ts";

/** Encodes a `CheckResponse` given as proto3 JSON. */
export function encodeCheckResponse(json: JsonObject): Uint8Array {
  return encodeMessage("envoy.service.auth.v3.CheckResponse", json);
}

/** Decodes a `CheckRequest` to proto3 JSON (proto field names). */
export function decodeCheckRequest(bytes: Uint8Array): JsonObject {
  return decodeMessage("envoy.service.auth.v3.CheckRequest", bytes);
}
