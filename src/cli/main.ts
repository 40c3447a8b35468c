/**
 * The process entry point: parses argv (variant from the environment variable
 * `PROXYSPEC_VARIANT`, `new` by default or `v2`), answers `--help`, `--version` and
 * `--hot-restart-version`, loads and validates the bootstrap, then validates and exits
 * (`--mode validate`, `init_only`) or serves (`startServer`).
 *
 * Streams and exit codes follow Envoy: usage and version on stdout; the hot restart version on
 * stderr without a newline; command-line errors on stderr with exit code 1; configuration
 * errors as a critical log line `error initializing configuration '<path>': ...` with exit 1;
 * `configuration '<path>' OK` on stdout with exit 0 in validate mode. Validation binds no
 * socket and touches no hot restart socket. `serve` and `init_only` first set up the process
 * (`process_setup.ts`: core dumps, the base ID and `--base-id-path`).
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * const code = await main(["--mode", "validate", "-c", "fixtures/bootstrap/valid_v2.yaml"]);
 * ```
 * @module
 */
import type { Variant } from "../../spec/rule.ts";
import type { Options } from "../config/options.ts";
import {
  allowsUnknownStaticFields,
  CommandLineError,
  parseCommandLine,
  requireConfig,
} from "../config/args.ts";
import { usage, VARIANT_ENV } from "../config/usage.ts";
import { hotRestartVersion, versionOutput } from "../server/version.ts";
import { createLogging, type Logging } from "../server/logger.ts";
import { loadBootstrap } from "../config/bootstrap.ts";
import type { Bootstrap, Json } from "../config/bootstrap_types.ts";
import { type ConfigError, formatConfigError } from "../config/errors.ts";
import { validateClusters } from "../config/validate_cluster.ts";
import { startServer } from "../server/server.ts";
import { ADMIN } from "../admin/mod.ts";
import { validateListeners } from "../listener/validate_listeners.ts";
import { checkClusterSupport } from "../upstream/cluster_manager.ts";
import { setUpProcess } from "./process_setup.ts";

/** The program name shown in usage and `--version`. */
export const PROGRAM = "proxy";

const enc = new TextEncoder();
const out = (s: string) => writeAll(Deno.stdout, s);
const err = (s: string) => writeAll(Deno.stderr, s);

function writeAll(w: { writeSync(p: Uint8Array): number }, s: string): void {
  const b = enc.encode(s);
  let n = 0;
  while (n < b.length) n += w.writeSync(b.subarray(n));
}

function variantFromEnv(): Variant | string {
  let v = "";
  try {
    v = Deno.env.get(VARIANT_ENV) ?? "";
  } catch {
    // no permission to read the environment: the newer variant
  }
  return v === "" || v === "new" ? "new" : v;
}

/** The outcome of loading and validating the whole configuration. */
export interface Validated {
  bootstrap: Bootstrap;
  errors: ConfigError[];
  /** Paths of accepted unknown static fields (bootstrap and clusters). */
  unknownFields: string[];
}

/**
 * Loads the bootstrap and (unless `bootstrapOnly`) validates clusters and listeners; logs each
 * accepted unknown field once. `serve` mode passes `bootstrapOnly`, since the server validates
 * clusters and listeners itself while building them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateConfiguration } from "./main.ts";
 * import { parseArgs } from "../config/args.ts";
 * import { formatConfigError } from "../config/errors.ts";
 * import { createLogging } from "../server/logger.ts";
 * const options = parseArgs(["--mode", "validate", "--config-yaml", "{admin: {bogus: 1}}"]);
 * const v = validateConfiguration(options, createLogging(options));
 * assert.deepEqual(v.errors.map(formatConfigError), [
 *   "admin.bogus: unknown field [errors.unknown-static-fields]",
 * ]);
 * ```
 */
export function validateConfiguration(
  options: Options,
  logging: Logging,
  bootstrapOnly = false,
): Validated {
  const load = loadBootstrap(options);
  for (const w of load.warnings) logging.log("config", "warning", w);
  if (load.errors.length > 0 || bootstrapOnly) {
    return { bootstrap: load.bootstrap, errors: load.errors, unknownFields: load.unknownFields };
  }
  const unknownFields = [...load.unknownFields];
  const allowUnknown = allowsUnknownStaticFields(options);
  const sr = (load.bootstrap.static_resources ?? {}) as { clusters?: Json[]; listeners?: Json[] };
  const clusters = sr.clusters ?? [];
  const seen = new Set<string>();
  const result = validateClusters(clusters, {
    path: "static_resources.clusters",
    allowUnknown,
    bindConfig: load.bootstrap.cluster_manager?.upstream_bind_config,
    onUnknown: (p) => {
      if (seen.has(p)) return;
      seen.add(p);
      unknownFields.push(p);
      logging.log("config", "warning", `unknown field '${p}' in static configuration accepted`);
    },
  });
  const errors: ConfigError[] = [...result.errors];
  const names = new Set(
    clusters.map((c) => (c && typeof c === "object" && !Array.isArray(c) ? c.name : null))
      .filter((n): n is string => typeof n === "string"),
  );
  errors.push(...validateListeners(sr.listeners ?? [], "static_resources.listeners", names));
  if (errors.length === 0) {
    // Valid by the specification, but not servable by this build yet: serve mode refuses these
    // with the same messages, so say so now.
    for (const e of checkClusterSupport(result.clusters)) {
      logging.log("config", "warning", `${formatConfigError(e)} (serve mode will refuse this)`);
    }
  }
  return { bootstrap: load.bootstrap, errors, unknownFields };
}

/** Runs the proxy with the given arguments; resolves to the process exit code. */
export async function main(args: string[]): Promise<number> {
  const variant = variantFromEnv();
  if (variant !== "new" && variant !== "v2") {
    err(`error: ${VARIANT_ENV} must be 'new' or 'v2', got '${variant}'\n`);
    return 1;
  }
  let parsed;
  try {
    parsed = parseCommandLine(args, { variant, argv0: PROGRAM });
  } catch (e) {
    if (e instanceof CommandLineError) {
      err(e.text);
      return e.exitCode;
    }
    throw e;
  }
  const options = parsed.options;
  if (parsed.help) {
    out(usage(PROGRAM, variant));
    return 0;
  }
  if (options.version) {
    out(versionOutput(PROGRAM));
    return 0;
  }
  if (options.hot_restart_version) {
    err(hotRestartVersion(options));
    return 0;
  }
  try {
    requireConfig(options);
  } catch (e) {
    if (e instanceof CommandLineError) {
      err(e.text);
      return e.exitCode;
    }
    throw e;
  }
  let logging: Logging;
  try {
    logging = createLogging(options);
  } catch (e) {
    err(`error: cannot open log file '${options.log_path}': ${(e as Error).message}\n`);
    return 1;
  }
  try {
    for (const w of parsed.warnings) logging.log("main", "warning", w);
    const where = `error initializing configuration '${options.config_path}'`;
    if (options.mode !== "validate") {
      // Core dumps, the base ID and its file, before the configuration (as Envoy's main).
      try {
        setUpProcess(options, logging.forComponent("main"));
      } catch (e) {
        logging.log("main", "critical", `${where}: ${e instanceof Error ? e.message : String(e)}`);
        return 1;
      }
    }
    const v = validateConfiguration(options, logging, options.mode === "serve");
    if (v.errors.length > 0) {
      const lines = v.errors.map(formatConfigError);
      logging.log("main", "critical", `${where}: ${lines.join("\n")}`);
      if (options.log_path !== "") err(lines.join("\n") + "\n");
      return 1;
    }
    if (options.mode === "validate") {
      out(`configuration '${options.config_path}' OK\n`);
      return 0;
    }
    if (options.mode === "init_only") return 0;
    let server;
    // `unknownStaticFields` (bootstrap-level unknown fields, for server.static_unknown_fields)
    // is not yet a member of StartSettings; passed as a variable so that it compiles either way.
    const settings = { logging, unknownStaticFields: v.unknownFields, admin: ADMIN };
    try {
      server = await startServer(options, v.bootstrap, settings);
    } catch (e) {
      logging.log("main", "critical", `${where}: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
    return await server.finished;
  } finally {
    logging.close();
  }
}
