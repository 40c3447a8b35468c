/**
 * Everything of the protobuf runtime the proxy calls, in one module that only
 * `protobuf_module.ts` imports (dynamically): `@bufbuild/protobuf` with the Envoy descriptor
 * set (`proto_registry.ts`), the xDS wire messages (`xds_wire.ts`), the xDS stream multiplexer
 * (`xds_mux.ts`) and the Bootstrap decoder of `.pb` / `.pb_text` files (`proto_library.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { messageType, TYPE_URLS, XdsMux } from "./protobuf_runtime.ts";
 * assert.equal(messageType("envoy.config.core.v3.Node").typeName, "envoy.config.core.v3.Node");
 * assert.equal(typeof XdsMux, "function");
 * assert.ok(TYPE_URLS.cds.endsWith("Cluster"));
 * ```
 * @module
 */
export { fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
export * from "./proto_registry.ts";
export * from "./xds_wire.ts";
export * from "./xds_mux.ts";
export * from "./proto_library.ts";
export * from "./proto_messages.ts";
export * from "./load_stats_messages.ts";
