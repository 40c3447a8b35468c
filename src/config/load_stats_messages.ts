/**
 * The messages of load reporting (`envoy.service.load_stats.v3`): `LoadStatsRequest` and
 * `LoadStatsResponse` between proto3 JSON and bytes. Like `proto_messages.ts` these work in any
 * isolate that imports them (a control plane in a test process, `tools/xds_server.ts`); the
 * proxy's load reporter takes them from the protobuf runtime it loads (`protobuf_module.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeLoadStatsResponse, encodeLoadStatsResponse } from "./load_stats_messages.ts";
 * const bytes = encodeLoadStatsResponse({ clusters: ["web"], load_reporting_interval: "1s" });
 * assert.deepEqual(decodeLoadStatsResponse(bytes), {
 *   clusters: ["web"],
 *   load_reporting_interval: "1s",
 * });
 * ```
 * @module
 */
import type { JsonObject } from "./bootstrap_types.ts";
import { decodeMessage, encodeMessage } from "./proto_messages.ts";

const REQUEST = "envoy.service.load_stats.v3.LoadStatsRequest";
const RESPONSE = "envoy.service.load_stats.v3.LoadStatsResponse";

/** Encodes a `LoadStatsRequest` given as proto3 JSON. */
export function encodeLoadStatsRequest(json: JsonObject): Uint8Array {
  return encodeMessage(REQUEST, json);
}

/** Decodes a `LoadStatsRequest` to proto3 JSON (proto field names). */
export function decodeLoadStatsRequest(b: Uint8Array): JsonObject {
  return decodeMessage(REQUEST, b);
}

/** Encodes a `LoadStatsResponse` given as proto3 JSON. */
export function encodeLoadStatsResponse(json: JsonObject): Uint8Array {
  return encodeMessage(RESPONSE, json);
}

/** Decodes a `LoadStatsResponse` to proto3 JSON (proto field names). */
export function decodeLoadStatsResponse(b: Uint8Array): JsonObject {
  return decodeMessage(RESPONSE, b);
}
