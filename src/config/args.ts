/**
 * The command-line parser, driven by the `cli.options` and `cli.constraints` tables: option
 * names, short forms, argument kinds, defaults, variants and choices all come from the rows of
 * `spec/cli/options.ts`; every error message comes from a constraint row.
 *
 * Syntax: `--flag value`, `-c value`, switches, and (an extension over Envoy) `--flag=value`.
 * `--` ends option parsing; an empty item and a lone `-` are ignored, as Envoy does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseArgs } from "./args.ts";
 * const o = parseArgs(["-c", "bootstrap.yaml", "--concurrency", "2"]);
 * assert.equal(o.config_path, "bootstrap.yaml");
 * assert.equal(o.concurrency, 2);
 * ```
 * @module
 */
import { OPTION_CONSTRAINTS, OPTIONS, row } from "../../spec/mod.ts";
import type { OptionRow, Variant } from "../../spec/rule.ts";
import type { Options } from "./options.ts";
import { COMPONENT_NAMES, isLevelName } from "./log_levels.ts";
import { briefUsage } from "./usage.ts";
import { cpusetSize, hardwareThreads } from "../platform/cpu_count.ts";
import { parseDisabledExtensions } from "./bootstrap_extensions.ts";

/** The ID of a `cli.constraints` row. */
export type ConstraintRuleId = (typeof OPTION_CONSTRAINTS)[number]["id"];
/** A `cli.constraints` row ID without its `cli.constraints.` prefix. */
export type ConstraintId = ConstraintRuleId extends `cli.constraints.${infer S}` ? S : never;

/** A rejected command line: carries the constraint row, the text for stderr and exit code 1. */
export class CommandLineError extends Error {
  /** Exit code of the process. */
  readonly exitCode = 1;
  constructor(
    /** The `cli.constraints` row this error enforces. */
    readonly rule: ConstraintRuleId,
    /** Everything to write to stderr (ends with a newline). */
    readonly text: string,
    message: string,
  ) {
    super(message);
    this.name = "CommandLineError";
  }
}

/** Settings of {@linkcode parseCommandLine}. */
export interface ParseSettings {
  /** Option set: `new` (default) or `v2`. */
  variant?: Variant;
  /** Program name shown in usage (Envoy shows argv[0]). */
  argv0?: string;
}

/** What {@linkcode parseCommandLine} returns besides the options. */
export interface ParsedCommandLine {
  options: Options;
  /** `-h` / `--help` was given: print {@linkcode usage} and exit 0. */
  help: boolean;
  /** Warnings of `warning` constraint rows, to be logged once logging is set up. */
  warnings: string[];
  /** The long names of the options given on the command line (`--concurrency`, ...). */
  given: ReadonlySet<string>;
}

const MAX_UINT32 = 4294967295;

/**
 * The `Options` key of a row: long name without dashes, `-` -> `_`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { optionKey } from "./args.ts";
 * assert.equal(optionKey({ long: "--drain-time-s" }), "drain_time_s");
 * ```
 */
export function optionKey(row: { long: string }): keyof Options {
  return row.long.slice(2).replaceAll("-", "_") as keyof Options;
}

/**
 * The rows known in a variant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { optionsFor } from "./args.ts";
 * assert.equal(optionsFor("v2").some((r) => r.long === "--drain-strategy"), false);
 * ```
 */
export function optionsFor(variant: Variant): readonly OptionRow[] {
  return (OPTIONS as readonly OptionRow[]).filter((r) => variant === "new" || r.variant === "both");
}

/**
 * The message of a constraint row, with `{}` placeholders filled in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { constraintMessage } from "./args.ts";
 * assert.equal(constraintMessage("mode", "check"), "error: unknown mode 'check'");
 * ```
 */
export function constraintMessage(id: ConstraintId, ...args: string[]): string {
  let i = 0;
  return row(OPTION_CONSTRAINTS, `cli.constraints.${id}`).message.replace(
    /\{\}/g,
    () => args[i++] ?? "",
  );
}

function rowLabel(row: OptionRow): string {
  return row.short ? `${row.short} (${row.long})` : `(${row.long})`;
}

function parseError(
  id: ConstraintId,
  argId: string,
  argv0: string,
  variant: Variant,
  detail: string[] = [],
): CommandLineError {
  const text = constraintMessage(id, ...detail);
  const out = `PARSE ERROR: Argument: ${argId}\n             ${text}\n\n` +
    `Brief USAGE: \n   ${briefUsage(argv0, variant)}\n\n` +
    `For complete USAGE and HELP type: \n   ${argv0} --help\n\n` +
    `${argId.replace(/^\((.*)\)$/, "$1")} -- ${text}\n`;
  return new CommandLineError(`cli.constraints.${id}`, out, `${argId}: ${text}`);
}

function plainError(id: ConstraintId, ...detail: string[]): CommandLineError {
  const text = constraintMessage(id, ...detail);
  return new CommandLineError(`cli.constraints.${id}`, `${text}\n`, text);
}

function parseUint32(raw: string, argId: string, argv0: string, variant: Variant): number {
  const t = raw.trim();
  if (!/^\d+$/.test(t) || Number(t) > MAX_UINT32) {
    throw parseError("bad-integer", argId, argv0, variant, [raw]);
  }
  return Number(t);
}

/** Converts a raw value (given or default) by its row's argument kind. */
function convert(row: OptionRow, raw: string, argId: string, argv0: string, variant: Variant) {
  switch (row.arg) {
    case "integer":
      return parseUint32(raw, argId, argv0, variant);
    case "list":
      return raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
    case "octal":
      // An invalid value is kept as text; postParse rejects it (cli.constraints.socket-mode-octal).
      return /^[0-7]{1,3}$/.test(raw.trim()) ? parseInt(raw.trim(), 8) : raw;
    default:
      return raw;
  }
}

/**
 * Parses argv into {@linkcode Options} plus the help flag and warnings; throws
 * {@linkcode CommandLineError} (exit code 1) on any rejected command line. The check that a
 * configuration is given (`cli.constraints.config-required`) is left to {@linkcode requireConfig},
 * since `--version` and `--hot-restart-version` need none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandLine } from "./args.ts";
 * const { options, help, warnings } = parseCommandLine(["--allow-unknown-fields"]);
 * assert.equal(help, false);
 * assert.equal(options.allow_unknown_fields, true);
 * assert.deepEqual(warnings, [
 *   "--allow-unknown-fields is deprecated, use --allow-unknown-static-fields instead.",
 * ]);
 * // `-h` (like `--version`) ends parsing before the checks that warn.
 * assert.deepEqual(parseCommandLine(["--allow-unknown-fields", "-h"]).warnings, []);
 * ```
 */
export function parseCommandLine(
  argv: readonly string[],
  settings: ParseSettings = {},
): ParsedCommandLine {
  const variant = settings.variant ?? "new";
  const argv0 = settings.argv0 ?? "proxy";
  const rows = optionsFor(variant);
  const byName = new Map<string, OptionRow>();
  for (const r of rows) {
    byName.set(r.long, r);
    if (r.short) byName.set(r.short, r);
  }
  const given = new Map<OptionRow, string | true>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "" || token === "-") continue;
    if (token === "--" || token === "--ignore_rest") break;
    if (token === "-h" || token === "--help") {
      help = true;
      continue;
    }
    // `--flag=value` (our extension) and, as TCLAP, `--flag value` in one argv item.
    let eq = -1;
    if (token.startsWith("-")) {
      const m = /[=\s]/.exec(token);
      if (m && (m[0] === "=" || byName.get(token.slice(0, m.index))?.arg !== "none")) eq = m.index;
    }
    const name = eq > 0 ? token.slice(0, eq) : token;
    const row = byName.get(name);
    if (!row) {
      const isNew = (OPTIONS as readonly OptionRow[]).some((r) =>
        r.long === name || r.short === name
      );
      throw parseError(isNew ? "new-option-in-v2" : "unknown-option", token, argv0, variant);
    }
    const argId = rowLabel(row);
    if (given.has(row)) throw parseError("repeated-option", argId, argv0, variant);
    if (row.arg === "none") {
      if (eq > 0) throw parseError("unknown-option", token, argv0, variant);
      given.set(row, true);
      continue;
    }
    let value: string;
    if (eq > 0) value = token.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    else throw parseError("missing-value", argId, argv0, variant);
    given.set(row, value);
  }

  const o: Record<string, unknown> = { variant };
  for (const row of rows) {
    const v = given.get(row);
    if (v === true) o[optionKey(row)] = true;
    else if (v !== undefined) o[optionKey(row)] = convert(row, v, rowLabel(row), argv0, variant);
    else {
      const d = variant === "v2" && row.defaultV2 !== undefined ? row.defaultV2 : row.default;
      o[optionKey(row)] = typeof d === "string"
        ? convert(row, d, rowLabel(row), argv0, variant)
        : d;
    }
  }
  // Options of the newer variant absent from v2 still get their (newer) defaults, so the
  // Options object is complete in both variants.
  for (const row of OPTIONS as readonly OptionRow[]) {
    const k = optionKey(row);
    if (!(k in o)) {
      o[k] = typeof row.default === "string"
        ? convert(row, row.default, "", argv0, "new")
        : row.default;
    }
  }
  // As with Envoy (TCLAP), --help and --version end parsing before the checks of the values.
  const warnings = help || o.version === true ? [] : postParse(o, given, rows, variant);
  fillComputed(o, variant);
  return { options: o as unknown as Options, help, warnings, given: givenNames(given) };
}

function givenNames(given: Map<OptionRow, string | true>): Set<string> {
  const out = new Set<string>();
  for (const r of given.keys()) {
    out.add(r.long);
    if (r.aliasOf) out.add(r.aliasOf);
  }
  return out;
}

function givenRow(given: Map<OptionRow, string | true>, long: string): string | true | undefined {
  for (const [r, v] of given) if (r.long === long) return v;
  return undefined;
}

/** The checks Envoy makes after parsing, in Envoy's order; fills computed defaults. */
function postParse(
  o: Record<string, unknown>,
  given: Map<OptionRow, string | true>,
  rows: readonly OptionRow[],
  variant: Variant,
): string[] {
  const warnings: string[] = [];
  if (!isLevelName(o.log_level as string)) throw plainError("log-level", o.log_level as string);
  for (const item of (o.component_log_level as string).split(",")) {
    if (item === "") continue;
    const parts = item.split(":");
    if (parts.length !== 2) throw plainError("component-format", item);
    if (!isLevelName(parts[1])) throw plainError("component-level", parts[1]);
    if (!COMPONENT_NAMES.includes(parts[0])) throw plainError("component-unknown", parts[0]);
  }
  const choice = (key: string, id: ConstraintId) => {
    const row = rows.find((r) => optionKey(r) === key);
    if (row?.choices && !row.choices.includes(o[key] as string)) {
      throw plainError(id, o[key] as string);
    }
  };
  choice("mode", "mode");
  choice("local_address_ip_version", "ip-version");
  if (o.use_dynamic_base_id === true && (o.restart_epoch as number) > 0) {
    throw plainError("dynamic-base-id-epoch", String(o.restart_epoch));
  }
  const mode = givenRow(given, "--socket-mode");
  if (typeof mode === "string") {
    const path = o.socket_path as string;
    if (givenRow(given, "--socket-path") === undefined || path.startsWith("@")) {
      throw plainError("socket-mode-abstract");
    }
    if (!/^[0-7]{1,3}$/.test(mode.trim())) throw plainError("socket-mode-octal", mode);
  }
  if (variant === "new") choice("drain_strategy", "drain-strategy");
  const bv = o.bootstrap_version;
  if (bv !== null && bv !== 2 && bv !== 3) throw plainError("bootstrap-version", String(bv));

  if (o.reject_unknown_dynamic_fields === true && o.ignore_unknown_dynamic_fields === true) {
    warnings.push(constraintMessage("ignore-with-reject"));
  }
  if (o.allow_unknown_fields === true && variant === "new") {
    warnings.push(constraintMessage("allow-unknown-fields-deprecated"));
  }
  if (o.concurrency !== null && o.cpuset_threads === true) {
    warnings.push(constraintMessage("concurrency-with-cpuset"));
  }
  warnings.push(...parseDisabledExtensions(o.disable_extensions as string[]).warnings);
  return warnings;
}

/**
 * Whether unknown fields of static configuration are accepted: `--allow-unknown-static-fields`
 * or its alias `--allow-unknown-fields` (the only such switch of the older variant). Holds for an
 * Options object built without {@linkcode parseArgs} too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allowsUnknownStaticFields, parseArgs } from "./args.ts";
 * assert.equal(
 *   allowsUnknownStaticFields(parseArgs(["-c", "b.yaml", "--allow-unknown-fields"])),
 *   true,
 * );
 * ```
 */
export function allowsUnknownStaticFields(
  o: Pick<Options, "allow_unknown_static_fields" | "allow_unknown_fields">,
): boolean {
  return o.allow_unknown_static_fields || o.allow_unknown_fields;
}

/** Values computed at start-up and implied by other options. */
function fillComputed(o: Record<string, unknown>, variant: Variant): void {
  // --allow-unknown-fields: alias (newer variant) or all configuration (older variant).
  if (o.allow_unknown_fields === true) o.allow_unknown_static_fields = true;
  // Unset: the cpuset size with --cpuset-threads, otherwise the hardware threads (all online
  // CPUs, as std::thread::hardware_concurrency()).
  if (o.concurrency === null) {
    o.concurrency = o.cpuset_threads === true ? cpusetSize() : hardwareThreads();
  }
  if (variant === "new" && o.concurrency === 0) o.concurrency = 1;
}

/**
 * Throws `cli.constraints.config-required` when neither a config path nor YAML is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CommandLineError, parseArgs, requireConfig } from "./args.ts";
 * requireConfig(parseArgs(["-c", "bootstrap.yaml"])); // passes
 * assert.throws(() => requireConfig(parseArgs([])), CommandLineError); // exit code 1
 * ```
 */
export function requireConfig(o: Options): void {
  if (o.config_path === "" && o.config_yaml === "") throw plainError("config-required");
}

/**
 * Parses argv into {@linkcode Options}; throws {@linkcode CommandLineError} on a rejected
 * command line. `-h` is accepted and ignored here; use {@linkcode parseCommandLine} to see it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseArgs } from "./args.ts";
 * const o = parseArgs(["--concurrency=0", "-l", "debug"]);
 * assert.equal(o.concurrency, 1); // the newer variant raises 0 to 1
 * assert.equal(o.log_level, "debug");
 * ```
 */
export function parseArgs(argv: readonly string[], settings: ParseSettings = {}): Options {
  return parseCommandLine(argv, settings).options;
}
