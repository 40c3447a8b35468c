/**
 * Configuration errors: every error names where it is, the rule it enforces, and what is wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatConfigError } from "./errors.ts";
 * const line = formatConfigError({
 *   path: "static_resources.clusters[2].lb_policy",
 *   rule: "cluster.enums.lb-policy",
 *   message: 'unknown value "ROUND_ROBBIN"',
 * });
 * assert.equal(
 *   line,
 *   'static_resources.clusters[2].lb_policy: unknown value "ROUND_ROBBIN" [cluster.enums.lb-policy]',
 * );
 * ```
 * @module
 */

/** One configuration error. */
export interface ConfigError {
  /** Where: `static_resources.clusters[2].ring_hash_lb_config`. */
  path: string;
  /** The ID of the spec rule the check enforces (empty when no row covers it). */
  rule: string;
  /** A sentence a person understands. */
  message: string;
}

/**
 * A rule row's message with its `{placeholder}`s filled from `vars`; unknown ones stay as written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fillMessage } from "./errors.ts";
 * assert.equal(
 *   fillMessage({ message: "cluster {name} needs {what}" }, { name: "web" }),
 *   "cluster web needs {what}",
 * );
 * ```
 */
export function fillMessage(
  row: { readonly message: string },
  vars: Readonly<Record<string, string | number>>,
): string {
  return row.message.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/** Renders an error as one line: `path: message [rule]`. */
export function formatConfigError(e: ConfigError): string {
  return `${e.path}: ${e.message}${e.rule ? ` [${e.rule}]` : ""}`;
}

/** Thrown when a configuration cannot be loaded; carries every error found. */
export class ConfigLoadError extends Error {
  constructor(readonly errors: readonly ConfigError[]) {
    super(errors.map(formatConfigError).join("\n"));
    this.name = "ConfigLoadError";
  }
}
