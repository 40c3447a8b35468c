/**
 * The library API that `mod.ts` re-exports beside the spec tables and `main`: the command-line
 * parser, the bootstrap loader and validator, the server, the admin interface and the stats
 * store. `mod.ts` loads this module only when it is imported as a library, so running the proxy
 * loads each part only when its mode needs it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ADMIN, parseArgs, Store } from "./library_api.ts";
 * assert.equal(typeof ADMIN, "object");
 * assert.equal(typeof new Store().scope, "function");
 * assert.equal(parseArgs(["--mode", "validate"]).mode, "validate");
 * ```
 * @module
 */
export { CommandLineError, parseArgs } from "../config/args.ts";
export { hotRestartVersion, versionString } from "../server/version.ts";
export { loadBootstrap } from "../config/bootstrap.ts";
export { validateClusters } from "../config/validate_cluster.ts";
export { effectiveCluster } from "../config/effective_cluster.ts";
export { ConfigLoadError, formatConfigError } from "../config/errors.ts";
export { startServer } from "../server/server.ts";
export { ADMIN } from "../admin/mod.ts";
export { Store } from "../stats/store.ts";
export { clusterStatName, PROMETHEUS_PREFIX } from "../stats/naming.ts";
export { STATS_HANDLERS } from "../admin/stats_handler.ts";
export { createAdminRouter } from "../admin/router.ts";
