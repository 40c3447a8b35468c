/**
 * proxyspec: the executable specification and reference implementation of an Envoy-style
 * proxy: its admin interface, command line, Cluster configuration object and proxy core.
 *
 * Run the proxy: `deno run -A mod.ts -c bootstrap.yaml`. Run so, this module loads only what
 * the command line needs (`src/cli/main.ts`): the server when it serves, no serving code for
 * `--mode validate`, `--version` or `--help`. Imported as a library, it exports the whole API,
 * (`src/cli/library_api.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules, startServer } from "./mod.ts";
 * const ids = new Set(allRules().map((r) => r.id));
 * assert.ok(ids.has("admin.mutation.get-returns-400"));
 * assert.equal(typeof startServer, "function");
 * ```
 * @module
 */
import type * as Library from "./src/cli/library_api.ts";
import { main } from "./src/cli/main.ts";

export * from "./spec/mod.ts";
export type { Options } from "./src/config/options.ts";
export type { Bootstrap } from "./src/config/bootstrap_types.ts";
export type * from "./src/stats/types.ts";
export type * from "./src/server/context.ts";
export type { ConfigError } from "./src/config/errors.ts";
export type { AdminPlugin } from "./src/server/server.ts";
export { main } from "./src/cli/main.ts";

/** The rest of the API: loaded when this module is imported, not when it runs the proxy. */
const library = import.meta.main ? null : await import("./src/cli/library_api.ts");
const pick = <K extends keyof typeof Library>(k: K) => library?.[k] as (typeof Library)[K];

/** Parses the command line (`src/config/args.ts`). */
export const parseArgs: typeof Library.parseArgs = pick("parseArgs");
/** A command-line error, with its text and exit code (`src/config/args.ts`). */
export const CommandLineError: typeof Library.CommandLineError = pick("CommandLineError");
/** A command-line error, with its text and exit code (`src/config/args.ts`). */
export type CommandLineError = Library.CommandLineError;
/** The version line of `--version` (`src/server/version.ts`). */
export const versionString: typeof Library.versionString = pick("versionString");
/** The hot restart compatibility version (`src/server/version.ts`). */
export const hotRestartVersion: typeof Library.hotRestartVersion = pick("hotRestartVersion");
/** Loads a bootstrap file or `--config-yaml` (`src/config/bootstrap.ts`). */
export const loadBootstrap: typeof Library.loadBootstrap = pick("loadBootstrap");
/** Validates clusters against the cluster tables (`src/config/validate_cluster.ts`). */
export const validateClusters: typeof Library.validateClusters = pick("validateClusters");
/** A cluster in effective form, defaults applied (`src/config/effective_cluster.ts`). */
export const effectiveCluster: typeof Library.effectiveCluster = pick("effectiveCluster");
/** A configuration that failed to load, with its errors (`src/config/errors.ts`). */
export const ConfigLoadError: typeof Library.ConfigLoadError = pick("ConfigLoadError");
/** A configuration that failed to load, with its errors (`src/config/errors.ts`). */
export type ConfigLoadError = Library.ConfigLoadError;
/** One configuration error as a line (`src/config/errors.ts`). */
export const formatConfigError: typeof Library.formatConfigError = pick("formatConfigError");
/** Starts the proxy on a loaded bootstrap (`src/server/server.ts`). */
export const startServer: typeof Library.startServer = pick("startServer");
/** The admin interface's handlers, by endpoint (`src/admin/mod.ts`). */
export const ADMIN: typeof Library.ADMIN = pick("ADMIN");
/** The stats store (`src/stats/store.ts`). */
export const Store: typeof Library.Store = pick("Store");
/** A stats store (`src/stats/store.ts`). */
export type Store = Library.Store;
/** The stat name of a cluster (`src/stats/naming.ts`). */
export const clusterStatName: typeof Library.clusterStatName = pick("clusterStatName");
/** The prefix of every Prometheus metric name (`src/stats/naming.ts`). */
export const PROMETHEUS_PREFIX: typeof Library.PROMETHEUS_PREFIX = pick("PROMETHEUS_PREFIX");
/** The `/stats` handlers, by format (`src/admin/stats_handler.ts`). */
export const STATS_HANDLERS: typeof Library.STATS_HANDLERS = pick("STATS_HANDLERS");
/** Builds the admin router from the endpoint table (`src/admin/router.ts`). */
export const createAdminRouter: typeof Library.createAdminRouter = pick("createAdminRouter");

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
