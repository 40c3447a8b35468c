/**
 * The configuration check with every part loaded ({@linkcode checkConfigurationWith} of
 * `configuration_check.ts`), for serve, the workers and anything else that runs the proxy core
 * anyway. `--mode validate` loads only the parts its bootstrap needs (`src/cli/validate.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkConfiguration } from "./full_configuration_check.ts";
 * import { parseArgs } from "../config/args.ts";
 * const options = parseArgs(["--config-yaml", "{}"]);
 * const { errors } = checkConfiguration(options, {
 *   static_resources: { listeners: [{ name: "l", address: 7 }] },
 * });
 * assert.equal(errors[0].path.startsWith("static_resources.listeners[0]"), true);
 * ```
 * @module
 */
import type { Options } from "../config/options.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";
import { XdsClients } from "../upstream/xds_clients.ts";
import { validateListeners } from "../listener/validate_listeners.ts";
import { parseOverloadManager } from "./overload_manager.ts";
import {
  checkConfigurationWith,
  type CheckedConfiguration,
  type CheckParts,
  type CheckSettings,
} from "./configuration_check.ts";

/** Every part of the check. */
export const ALL_CHECK_PARTS: CheckParts = { validateListeners, XdsClients, parseOverloadManager };

/** Checks the whole loaded configuration with every part; see `configuration_check.ts`. */
export function checkConfiguration(
  options: Options,
  bootstrap: Bootstrap,
  settings: CheckSettings = {},
): CheckedConfiguration {
  return checkConfigurationWith(ALL_CHECK_PARTS, options, bootstrap, settings);
}
