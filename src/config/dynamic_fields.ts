/**
 * How unknown fields in dynamic configuration (resources read from a config source at run time)
 * are treated, from `--reject-unknown-dynamic-fields` and `--ignore-unknown-dynamic-fields`:
 * accepted with a warning (logged once per distinct field, counted in
 * `server.dynamic_unknown_fields` every time it is seen), rejected, or accepted silently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Store } from "../stats/store.ts";
 * import { DynamicFieldPolicy } from "./dynamic_fields.ts";
 * const stats = new Store();
 * const warnings: string[] = [];
 * const policy = DynamicFieldPolicy.fromOptions({}, stats, (_level, msg) => warnings.push(msg));
 * policy.onUnknown("ClusterLoadAssignment", "x.resources[0].foo");
 * assert.equal(policy.mode, "warn");
 * assert.equal(warnings.length, 1);
 * assert.equal(stats.counter("server.dynamic_unknown_fields").value(), 1);
 * ```
 * @module
 */
import type { Options } from "./options.ts";
import type { Counter, Scope } from "../stats/types.ts";
import type { ConfigError } from "./errors.ts";
import type { SchemaContext } from "./nested_schema.ts";

/** `warn`: accept, log and count; `reject`: reject the update; `ignore`: accept silently. */
export type UnknownFieldMode = "warn" | "reject" | "ignore";

/** The two options that decide the mode. */
export type DynamicFieldOptions = Partial<
  Pick<Options, "reject_unknown_dynamic_fields" | "ignore_unknown_dynamic_fields">
>;

/** The mode the options select (`--ignore-...` has no effect when `--reject-...` is set). */
export function unknownFieldMode(o: DynamicFieldOptions | undefined): UnknownFieldMode {
  if (o?.reject_unknown_dynamic_fields) return "reject";
  if (o?.ignore_unknown_dynamic_fields) return "ignore";
  return "warn";
}

/** One process-wide policy, shared by every dynamic subscription. */
export class DynamicFieldPolicy {
  readonly #counter: Counter;
  readonly #warned = new Set<string>();

  /** A policy in `mode` counting in `server.dynamic_unknown_fields` under `root`. */
  constructor(
    readonly mode: UnknownFieldMode,
    root: Scope,
    readonly log: (level: string, msg: string) => void,
  ) {
    this.#counter = root.scope("server").counter("dynamic_unknown_fields");
  }

  /** The policy the command line selects. */
  static fromOptions(
    o: DynamicFieldOptions | undefined,
    root: Scope,
    log: (level: string, msg: string) => void,
  ): DynamicFieldPolicy {
    return new DynamicFieldPolicy(unknownFieldMode(o), root, log);
  }

  /**
   * Records one unknown field of `message` at `path` (accepting modes only): a warning the first
   * time this field of this message is seen, a count every time.
   */
  onUnknown(message: string, path: string): void {
    if (this.mode !== "warn") return;
    this.#counter.inc();
    const field = path.slice(path.lastIndexOf(".") + 1);
    // The same field of every element of a list is one field.
    const key = `${message} ${path.replace(/\[\d+\]/g, "[]")}`;
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    this.log(
      "warning",
      `unknown field "${field}" in dynamic ${message} at ${path} (accepted; ` +
        `--reject-unknown-dynamic-fields rejects it)`,
    );
  }

  /** A schema context for validating one dynamic message of type `message` into `errors`. */
  context(message: string, errors: ConfigError[]): SchemaContext {
    return {
      errors,
      allowUnknown: this.mode !== "reject",
      onUnknown: (p) => this.onUnknown(message, p),
    };
  }
}
