/**
 * proxyspec: the executable specification and reference implementation of an Envoy-style
 * proxy: its admin interface, command line, Cluster configuration object and proxy core.
 *
 * Run the proxy: `deno run -A mod.ts -c bootstrap.yaml`.
 *
 * @example
 * ```ts
 * import { allRules } from "./mod.ts";
 * console.log(allRules().length, "rules");
 * ```
 * @module
 */
export * from "./spec/mod.ts";
export type { Options } from "./src/cli/options.ts";
export type { Bootstrap } from "./src/config/bootstrap_types.ts";
export type * from "./src/stats/types.ts";
export type * from "./src/server/context.ts";
export { main } from "./src/cli/main.ts";

import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
