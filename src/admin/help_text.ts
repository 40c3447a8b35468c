/**
 * The `/help` text: `admin commands are:` and one line per registered path, sorted, with the
 * help column of the endpoint table (Envoy's `  /path: help` layout). Unknown paths answer
 * `invalid path. ` followed by the same text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { helpText } from "./help_text.ts";
 * import { indexEndpoints } from "./endpoint_index.ts";
 * import { ENDPOINTS } from "../../spec/admin/endpoints.ts";
 * const text = helpText(indexEndpoints(ENDPOINTS), new Set());
 * assert.equal(text.startsWith("admin commands are:\n"), true);
 * ```
 * @module
 */
import type { Feature } from "../../spec/rule.ts";
import { type EndpointEntry, sortedEntries } from "./endpoint_index.ts";
import { isRegistered } from "./feature_gate.ts";

/** Renders `/help` for the paths registered in a process with these features. */
export function helpText(
  index: ReadonlyMap<string, EndpointEntry>,
  features: ReadonlySet<Feature>,
): string {
  let out = "admin commands are:\n";
  for (const e of sortedEntries(index)) {
    if (!isRegistered(e.requires, features)) continue;
    out += `  ${e.path}: ${e.help}\n`;
  }
  return out;
}
