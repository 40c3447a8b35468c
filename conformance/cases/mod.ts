/**
 * Every case of the suite, built from the spec tables. Each builder reads the rows of its tables,
 * so a new row gets cases without code changes; cases whose rules are gone are dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "../../spec/mod.ts";
 * import { buildCases } from "./mod.ts";
 * const cases = buildCases({ rules: allRules(), variant: "new" });
 * assert.ok(cases.some((c) => c.id === "endpoint:admin.endpoints.home"));
 * ```
 * @module
 */
import type { Case } from "../types.ts";
import type { BuildInput } from "./util.ts";
import { certsCases } from "./admin_certs.ts";
import { endpointCases } from "./admin_endpoints.ts";
import { generalCases } from "./admin_general.ts";
import { resourceCases } from "./admin_resources.ts";
import { statsCases } from "./admin_stats.ts";
import { stateCases } from "./admin_states.ts";
import { cliCases } from "./cli.ts";
import { cliExtensionCases } from "./cli_extensions.ts";
import { clusterCases } from "./cluster.ts";
import { behaviourCases } from "./behaviour.ts";
import { defaultCases } from "./behaviour_defaults.ts";
import { timeoutCases } from "./behaviour_timeouts.ts";
import { settingCases } from "./behaviour_settings.ts";
import { balancingCases } from "./behaviour_balancing.ts";
import { clusterExtensionCases } from "./cluster_extensions.ts";
import { logFormatCases } from "./log_format.ts";
import { xdsCases } from "./xds.ts";

export type { BuildInput } from "./util.ts";

/**
 * Builds every case.
 *
 * @param input every rule and the variant
 * @returns the cases, with unique IDs
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { buildCases } from "./mod.ts";
 * buildCases({ rules: allRules(), variant: "v2" }).length;
 * ```
 */
export function buildCases(input: BuildInput): Case[] {
  const all = [
    ...endpointCases(input),
    ...generalCases(input),
    ...resourceCases(input),
    ...certsCases(input),
    ...statsCases(input),
    ...stateCases(input),
    ...cliCases(input),
    ...cliExtensionCases(input),
    ...clusterCases(input),
    ...behaviourCases(input),
    ...timeoutCases(input),
    ...defaultCases(input),
    ...settingCases(input),
    ...balancingCases(input),
    ...clusterExtensionCases(input),
    ...logFormatCases(input),
    ...xdsCases(input),
  ];
  const seen = new Set<string>();
  for (const c of all) {
    if (seen.has(c.id)) throw new Error(`two conformance cases have the ID ${c.id}`);
    seen.add(c.id);
  }
  return all;
}
