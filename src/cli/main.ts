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
 * socket and touches no hot restart socket. Each mode loads only the modules it needs: `--help`
 * and `--version` neither the configuration loader nor the server, `--mode validate` no serving
 * code (`validate.ts`); serve loads the server when it starts it. `serve` and `init_only` first set up the process
 * (`process_setup.ts`: core dumps, the base ID and `--base-id-path`).
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * const code = await main(["--mode", "validate", "-c", "fixtures/bootstrap/valid_v2.yaml"]);
 * ```
 * @module
 */
import { ERRORS, row, type Variant } from "../../spec/mod.ts";
import { CommandLineError, parseCommandLine, requireConfig } from "../config/args.ts";
import { usage, VARIANT_ENV } from "../config/usage.ts";
import { hotRestartVersion, versionOutput } from "../server/version.ts";
import type { Logging } from "../server/logger.ts";

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

/** Exit codes of `--mode validate` (`errors.validate-ok`, `errors.validate-errors`); serve mode
 * exits with the same code when its configuration has errors. */
const VALIDATE_OK = row(ERRORS, "errors.validate-ok").exitCode;
const CONFIG_ERRORS = row(ERRORS, "errors.validate-errors").exitCode;

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
  // Only what this mode needs is loaded: validation loads no serving code (`validate.ts`).
  const [{ createLogging }, { formatConfigError }, { needsProtobuf, PROTOBUF }, validate] =
    await Promise.all([
      import("../server/logger.ts"),
      import("../config/errors.ts"),
      import("../config/protobuf_module.ts"),
      import("./validate.ts"),
    ]);
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
        const { setUpProcess } = await import("./process_setup.ts");
        setUpProcess(options, logging.forComponent("main"));
      } catch (e) {
        logging.log("main", "critical", `${where}: ${e instanceof Error ? e.message : String(e)}`);
        return 1;
      }
    }
    // A .pb / .pb_text bootstrap is decoded with the protobuf runtime, loaded on demand.
    if (needsProtobuf(null, options.config_path)) await PROTOBUF.load();
    const v = options.mode === "serve"
      ? validate.validateConfiguration(options, logging, true, parsed.given)
      : await validate.validateLoadingParts(options, logging, parsed.given);
    if (v.errors.length > 0) {
      const lines = v.errors.map(formatConfigError);
      logging.log("main", "critical", `${where}: ${lines.join("\n")}`);
      if (options.log_path !== "") err(lines.join("\n") + "\n");
      return CONFIG_ERRORS;
    }
    if (options.mode === "validate") {
      out(`configuration '${options.config_path}' OK\n`);
      return VALIDATE_OK;
    }
    if (options.mode === "init_only") return 0;
    let server;
    try {
      const [{ startServer }, { ADMIN }] = await Promise.all([
        import("../server/server.ts"),
        import("../admin/mod.ts"),
      ]);
      server = await startServer(options, v.bootstrap, {
        logging,
        unknownStaticFields: v.unknownFields,
        admin: ADMIN,
        given: parsed.given,
      });
    } catch (e) {
      // The configuration was valid; what failed is starting it (a port in use, a file that
      // cannot be opened), so the line says so.
      const msg = e instanceof Error ? e.message : String(e);
      logging.log(
        "main",
        "critical",
        `error starting with configuration '${options.config_path}': ${msg}`,
      );
      return 1;
    }
    return await server.finished;
  } finally {
    logging.close();
  }
}
