/**
 * What the balancers read of a cluster's raw configuration beyond the effective cluster:
 * whether locality weighting is on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLocalityWeighted } from "./lb_support.ts";
 * assert.equal(isLocalityWeighted({ common_lb_config: { locality_weighted_lb_config: {} } }), true);
 * assert.equal(isLocalityWeighted({}), false);
 * ```
 * @module
 */
import type { JsonObject } from "../../config/bootstrap_types.ts";

/** True when `common_lb_config.locality_weighted_lb_config` is set. */
export function isLocalityWeighted(config: JsonObject): boolean {
  const c = config.common_lb_config;
  if (c === null || typeof c !== "object" || Array.isArray(c)) return false;
  const lw = c.locality_weighted_lb_config;
  return lw !== undefined && lw !== null;
}
