/**
 * Loading and checking the configuration for the command line: the bootstrap, then the check
 * serve runs too (`configuration_check.ts`). `--mode validate` loads only the parts of the check
 * its bootstrap needs ({@linkcode validateLoadingParts}), so validating a bootstrap of clusters
 * loads neither the listener parser nor the xDS clients nor the serving stack.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateConfiguration } from "./validate.ts";
 * import { parseArgs } from "../config/args.ts";
 * import { formatConfigError } from "../config/errors.ts";
 * import { createLogging } from "../server/logger.ts";
 * const options = parseArgs(["--mode", "validate", "--config-yaml", "{admin: {bogus: 1}}"]);
 * const v = validateConfiguration(options, createLogging(options));
 * assert.deepEqual(v.errors.map(formatConfigError), [
 *   "admin.bogus: unknown field [errors.unknown-static-fields]",
 * ]);
 * ```
 * @module
 */
import type { Options } from "../config/options.ts";
import type { Logging } from "../server/logger.ts";
import { type BootstrapLoad, loadBootstrap } from "../config/bootstrap.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import type { ConfigError } from "../config/errors.ts";
import {
  checkConfigurationWith,
  type CheckParts,
  checkPartsNeeded,
  MissingCheckPart,
} from "../server/configuration_check.ts";

/** The outcome of loading and validating the whole configuration. */
export interface Validated {
  bootstrap: Bootstrap;
  errors: ConfigError[];
  /** Paths of accepted unknown static fields (bootstrap and clusters). */
  unknownFields: string[];
}

/** How each part of the check is loaded (a part without a loader does not compile). */
const LOADERS: Record<keyof CheckParts, () => Promise<Partial<CheckParts>>> = {
  validateListeners: async () => ({
    validateListeners: (await import("../listener/validate_listeners.ts")).validateListeners,
  }),
  XdsClients: async () => ({ XdsClients: (await import("../upstream/xds_clients.ts")).XdsClients }),
  parseOverloadManager: async () => ({
    parseOverloadManager: (await import("../server/overload_manager.ts")).parseOverloadManager,
  }),
};

/**
 * Loads the named parts of the check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCheckParts } from "./validate.ts";
 * const parts = await loadCheckParts(["parseOverloadManager"]);
 * assert.deepEqual(Object.keys(parts), ["parseOverloadManager"]);
 * ```
 */
export async function loadCheckParts(
  names: readonly (keyof CheckParts)[],
): Promise<Partial<CheckParts>> {
  const loaded = await Promise.all(names.map((n) => LOADERS[n]()));
  return Object.assign({}, ...loaded);
}

/** Every part of the check, loaded. */
export function loadAllCheckParts(): Promise<Partial<CheckParts>> {
  return loadCheckParts(Object.keys(LOADERS) as (keyof CheckParts)[]);
}

/** The check of a loaded bootstrap, logging each accepted unknown field once (`seen`). */
function checkLoaded(
  load: BootstrapLoad,
  options: Options,
  logging: Logging,
  given: ReadonlySet<string> | undefined,
  parts: Partial<CheckParts>,
  seen: Set<string>,
): Validated {
  const unknownFields = [...load.unknownFields];
  const mine = new Set<string>();
  const { errors } = checkConfigurationWith(parts, options, load.bootstrap, {
    given,
    keepClusters: false, // only the errors are wanted here
    onUnknown: (p) => {
      if (mine.has(p)) return;
      mine.add(p);
      unknownFields.push(p);
      if (seen.has(p)) return;
      seen.add(p);
      logging.log("config", "warning", `unknown field '${p}' in static configuration accepted`);
    },
  });
  return { bootstrap: load.bootstrap, errors, unknownFields };
}

/**
 * Loads the bootstrap and (unless `bootstrapOnly`) checks the whole configuration with
 * `checkConfigurationWith` and `parts`, the check serve runs too; logs each accepted unknown
 * field once. `serve` mode passes `bootstrapOnly`, since the server runs that check itself.
 *
 * @throws {MissingCheckPart} when the configuration needs a part not given
 */
export function validateConfiguration(
  options: Options,
  logging: Logging,
  bootstrapOnly = false,
  given?: ReadonlySet<string>,
  parts: Partial<CheckParts> = {},
): Validated {
  const load = loadBootstrap(options);
  for (const w of load.warnings) logging.log("config", "warning", w);
  if (load.errors.length > 0 || bootstrapOnly) {
    return { bootstrap: load.bootstrap, errors: load.errors, unknownFields: load.unknownFields };
  }
  return checkLoaded(load, options, logging, given, parts, new Set());
}

/**
 * As {@linkcode validateConfiguration}, loading the parts of the check the bootstrap needs
 * (`checkPartsNeeded`), and every part when the check asks for one more.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateLoadingParts } from "./validate.ts";
 * import { parseArgs } from "../config/args.ts";
 * import { createLogging } from "../server/logger.ts";
 * const yaml = "{static_resources: {listeners: [{name: l, address: 7}]}}";
 * const options = parseArgs(["--mode", "validate", "--config-yaml", yaml]);
 * const v = await validateLoadingParts(options, createLogging(options));
 * assert.ok(v.errors[0].path.startsWith("static_resources.listeners[0]"));
 * ```
 */
export async function validateLoadingParts(
  options: Options,
  logging: Logging,
  given?: ReadonlySet<string>,
): Promise<Validated> {
  const load = loadBootstrap(options);
  for (const w of load.warnings) logging.log("config", "warning", w);
  if (load.errors.length > 0) {
    return { bootstrap: load.bootstrap, errors: load.errors, unknownFields: load.unknownFields };
  }
  const seen = new Set<string>();
  const parts = await loadCheckParts(checkPartsNeeded(load.bootstrap));
  try {
    return checkLoaded(load, options, logging, given, parts, seen);
  } catch (e) {
    if (!(e instanceof MissingCheckPart)) throw e;
    return checkLoaded(load, options, logging, given, await loadAllCheckParts(), seen);
  }
}
