/**
 * The protobuf runtime (`protobuf_runtime.ts`: `@bufbuild/protobuf`, the Envoy descriptor set,
 * the xDS wire messages and multiplexer, the `.pb` Bootstrap decoder), loaded on first use
 * ({@linkcode LazyModule}): it costs the serving isolate some 5 MiB, and only a configuration
 * that speaks xDS, reports load, calls a gRPC authorization service or is a `.pb` / `.pb_text`
 * file needs it. The start-up awaits {@linkcode PROTOBUF}`.load()` when
 * {@linkcode needsProtobuf} says so; code that decodes or encodes takes
 * {@linkcode PROTOBUF}`.get()`, which throws when nothing loaded it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { needsProtobuf, PROTOBUF } from "./protobuf_module.ts";
 * assert.equal(needsProtobuf({ static_resources: { clusters: [] } }, "envoy.yaml"), false);
 * assert.equal(needsProtobuf({}, "envoy.pb"), true);
 * assert.equal(needsProtobuf({ dynamic_resources: {} }, "envoy.yaml"), true);
 * const grpc = { envoy_grpc: { cluster_name: "authz" } };
 * assert.equal(needsProtobuf({ static_resources: { listeners: [{ grpc_service: grpc }] } }), true);
 * const pb = await PROTOBUF.load();
 * assert.equal(typeof pb.anyToJson, "function");
 * ```
 * @module
 */
import { LazyModule } from "../platform/lazy_module.ts";

/** The protobuf runtime. */
export const PROTOBUF: LazyModule<typeof import("./protobuf_runtime.ts")> = new LazyModule(
  "the protobuf runtime (protobuf_runtime.ts)",
  () => import("./protobuf_runtime.ts"),
);

/**
 * Keys whose presence anywhere in a configuration means protobuf: a config source that is not
 * a file (`ads`, `api_config_source`), a gRPC service (`grpc_service(s)`: an xDS stream, the gRPC
 * authorization call) and load reporting.
 */
const PROTOBUF_KEYS = new Set([
  "ads",
  "ads_config",
  "api_config_source",
  "grpc_service",
  "grpc_services",
  "load_stats_config",
]);

function mentions(v: unknown, depth: number): boolean {
  if (depth > 64 || v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.some((x) => mentions(x, depth + 1));
  for (const [k, x] of Object.entries(v)) {
    if (PROTOBUF_KEYS.has(k) || mentions(x, depth + 1)) return true;
  }
  return false;
}

/**
 * Whether serving `bootstrap` (read from `configPath`) may need the protobuf runtime: a
 * `.pb` / `.pb_text` file, `dynamic_resources` (whatever they deliver later may name an xDS
 * source), or any of the keys above anywhere in it.
 */
export function needsProtobuf(bootstrap: unknown, configPath = ""): boolean {
  if (/\.pb(_text)?$/i.test(configPath)) return true;
  if (bootstrap !== null && typeof bootstrap === "object" && "dynamic_resources" in bootstrap) {
    return true;
  }
  return mentions(bootstrap, 0);
}
