/**
 * What a serving process (`--mode serve` or `init_only`, never `validate`) sets up before it
 * loads its configuration, as Envoy's main does: core dumps (`--enable-core-dump`), the base ID
 * (`--use-dynamic-base-id` picks one whose hot restart sockets are free and stores it in
 * `options.base_id`, so `/server_info` shows it), and the base ID file (`--base-id-path`, the
 * decimal ID without a newline). With `--disable-hot-restart` there is no hot restart, so no
 * base ID is picked or written, as Envoy.
 *
 * @example Not run: it sets up the calling process (base ID, hot restart socket).
 * ```ts ignore
 * import { setUpProcess } from "./process_setup.ts";
 * setUpProcess(options, (level, message) => console.log(level, message));
 * console.log(options.base_id);
 * ```
 * @module
 */
import type { Options } from "../config/options.ts";
import { enableCoreDump } from "./core_dump.ts";
import { isAbstract, pickDynamicBaseId } from "../server/hot_restart_socket.ts";

/** A log function (`main` component). */
export type SetupLog = (level: string, message: string) => void;

/** Settings of {@linkcode setUpProcess} (for tests). */
export interface SetupSettings {
  /** The random source of `--use-dynamic-base-id`. */
  random?: () => number;
}

/**
 * Writes the base ID to `--base-id-path` (decimal, no newline). An unwritable path is logged
 * at critical level and is not fatal, as Envoy.
 *
 * @example Not run: it writes a file.
 * ```ts ignore
 * import { writeBaseIdFile } from "./process_setup.ts";
 * writeBaseIdFile("/tmp/base_id", 7, console.log); // the file holds "7"
 * ```
 */
export function writeBaseIdFile(path: string, baseId: number, log: SetupLog): boolean {
  try {
    Deno.writeTextFileSync(path, String(baseId));
    return true;
  } catch {
    log("critical", `cannot open base id output file ${path} for writing.`);
    return false;
  }
}

/**
 * Applies the process-level options of a serving process; throws `Error("unable to select a
 * dynamic base id")` when no free base ID is found.
 *
 * @example Not run: it sets up the calling process and writes the base ID file.
 * ```ts ignore
 * import { parseArgs } from "../config/args.ts";
 * import { setUpProcess } from "./process_setup.ts";
 * setUpProcess(parseArgs(["-c", "b.yaml", "--use-dynamic-base-id", "--base-id-path", "/tmp/id"]), log);
 * ```
 */
export function setUpProcess(options: Options, log: SetupLog, settings: SetupSettings = {}): void {
  if (options.enable_core_dump) {
    const r = enableCoreDump();
    if (r.applied) {
      log("info", `core dump enabled${r.reason ? ` (${r.reason})` : ""}`);
    } else if (Deno.build.os === "linux") {
      log("warning", `core dump not enabled: ${r.reason}`);
    }
  }
  if (options.disable_hot_restart) return;
  if (options.use_dynamic_base_id) {
    const path = options.socket_path;
    const mode = isAbstract(path) ? null : options.socket_mode;
    options.base_id = pickDynamicBaseId(path, mode, settings.random);
    log("info", `dynamic base id: ${options.base_id}`);
  }
  if (options.base_id_path !== "") writeBaseIdFile(options.base_id_path, options.base_id, log);
}
