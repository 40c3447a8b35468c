/**
 * Logging functions as the layers below the server see them: a {@linkcode ComponentLog} writes
 * lines of one of Envoy's component loggers (`connection`, `http`, `router`, `upstream`, `hc`,
 * `config`, ...) and says with `on(level)` whether a line at that level would be written, so
 * hot paths build debug messages only when someone asked for them (`-l debug`,
 * `--component-log-level`, `POST /logging`).
 *
 * The server's logger (`src/server/logger.ts`) finds a line's call site (`%s`, `%#`, `%!`, and
 * the file name of fine-grain loggers) on the stack, skipping its own frames and the frames of
 * this file: forward a log function through {@linkcode prefixed} rather than a closure of your
 * own, so the call site stays the line that logged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type ComponentLog, prefixed, SILENT } from "./log_site.ts";
 * const lines: string[] = [];
 * const log: ComponentLog = Object.assign(
 *   (level: string, msg: string) => lines.push(`${level} ${msg}`),
 *   { on: (level: string) => level !== "trace" },
 * );
 * const lds = prefixed(log, "lds: ");
 * if (lds.on("debug")) lds("debug", "update accepted");
 * if (lds.on("trace")) lds("trace", "not built");
 * assert.deepEqual(lines, ["debug lds: update accepted"]);
 * assert.equal(SILENT.on("critical"), false);
 * ```
 * @module
 */

/** A plain log function: a level name (`debug`, `info`, ...) and a message. */
export type LogFn = (level: string, message: string) => void;

/** A log function of one component logger. */
export interface ComponentLog {
  (level: string, message: string): void;
  /** True when a line at `level` would be written: test it before building a costly message. */
  on(level: string): boolean;
}

/** Component loggers by name (Envoy's logger IDs). */
export type LogFor = (component: string) => ComponentLog;

/** A logger that writes nothing. */
export const SILENT: ComponentLog = Object.assign((_level: string, _message: string) => {}, {
  on: (_level: string) => false,
});

/**
 * `log` with `prefix` put before every message. A {@linkcode ComponentLog} stays one (its
 * `on` is kept); a plain function is taken as writing every level.
 */
export function prefixed(log: LogFn | ComponentLog, prefix: string): ComponentLog {
  const on = "on" in log ? log.on : () => true;
  return Object.assign((level: string, message: string) => log(level, prefix + message), { on });
}

/** `log` as a {@linkcode ComponentLog}: a plain function is taken as writing every level. */
export function asComponentLog(log: LogFn | ComponentLog | undefined): ComponentLog {
  if (log === undefined) return SILENT;
  if ("on" in log) return log;
  return Object.assign((level: string, message: string) => log(level, message), { on: () => true });
}
