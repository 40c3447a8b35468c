/**
 * proxyspec: the executable specification and reference implementation of an Envoy-style
 * proxy: its admin interface, command line, Cluster configuration object and proxy core.
 *
 * Run the proxy: `deno run -A mod.ts -c bootstrap.yaml`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "./mod.ts";
 * const ids = new Set(allRules().map((r) => r.id));
 * assert.ok(ids.has("admin.mutation.get-returns-400"));
 * ```
 * @module
 */
export * from "./spec/mod.ts";
export type { Options } from "./src/config/options.ts";
export type { Bootstrap } from "./src/config/bootstrap_types.ts";
export type * from "./src/stats/types.ts";
export type * from "./src/server/context.ts";
export { main } from "./src/cli/main.ts";
export { CommandLineError, parseArgs } from "./src/config/args.ts";
export { hotRestartVersion, versionString } from "./src/server/version.ts";
export { loadBootstrap } from "./src/config/bootstrap.ts";
export { validateClusters } from "./src/config/validate_cluster.ts";
export { effectiveCluster } from "./src/config/effective_cluster.ts";
export { type ConfigError, ConfigLoadError, formatConfigError } from "./src/config/errors.ts";
export { type AdminPlugin, startServer } from "./src/server/server.ts";
export { ADMIN } from "./src/admin/mod.ts";
export { Store } from "./src/stats/store.ts";
export { clusterStatName, PROMETHEUS_PREFIX } from "./src/stats/naming.ts";
export { STATS_HANDLERS } from "./src/admin/stats_handler.ts";
export { createAdminRouter } from "./src/admin/router.ts";

import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
