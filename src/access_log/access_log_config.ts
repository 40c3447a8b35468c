/**
 * The `access_log` list of an HTTP connection manager or a TCP proxy: file access loggers in
 * every spelling Envoy accepts (v2 `envoy.file_access_log` with `config: {path, format}`, v3
 * `envoy.access_loggers.file` with `typed_config: {path, log_format: {text_format | json_format |
 * text_format_source}}` or the older `format` / `json_format`; `proxy.` names too). Each format is
 * compiled here, once; anything else (other loggers, `filter`) is an error naming where it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAccessLogs } from "./access_log_config.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * const logs = parseAccessLogs([{ name: "envoy.file_access_log", config: { path: "/dev/stdout" } }],
 *   "hcm.access_log", errors);
 * assert.equal(logs.length, 1);
 * assert.deepEqual(errors, []);
 * ```
 * @module
 */
import type { Json } from "../config/bootstrap_types.ts";
import {
  compileFormat,
  compileJsonFormat,
  DEFAULT_FORMAT,
  FormatError,
  type Formatter,
} from "./access_log_format.ts";
import { type Errors, fail, filterConfig, isObject, typeName } from "../config/config_values.ts";
import type { AccessLogFile, AccessLogFiles } from "./access_log_file.ts";
import type { LogSink } from "./request_logger.ts";

/** One configured file access logger. */
export interface AccessLogConfig {
  path: string;
  format: Formatter;
}

const FILE_NAMES = new Set([
  "envoy.file_access_log",
  "proxy.file_access_log",
  "envoy.access_loggers.file",
  "proxy.access_loggers.file",
]);

function compile(at: string, errors: Errors, f: () => Formatter): Formatter | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof FormatError) fail(errors, e.path, e.message.slice(e.path.length + 2));
    else fail(errors, at, (e as Error).message);
    return null;
  }
}

function formatOf(c: Record<string, Json>, at: string, errors: Errors): Formatter | null {
  const lf = c.log_format;
  if (lf !== undefined) {
    if (!isObject(lf)) return fail(errors, `${at}.log_format`, "must be an object"), null;
    const keys = ["text_format", "json_format", "text_format_source"].filter((k) =>
      lf[k] !== undefined
    );
    if (keys.length !== 1) {
      fail(
        errors,
        `${at}.log_format`,
        "exactly one of text_format, json_format, text_format_source",
      );
      return null;
    }
    const k = keys[0];
    const v = lf[k];
    if (k === "json_format") {
      if (!isObject(v)) {
        return fail(errors, `${at}.log_format.json_format`, "must be an object"), null;
      }
      return compile(at, errors, () => compileJsonFormat(v, `${at}.log_format.json_format`));
    }
    const text = k === "text_format" ? v : isObject(v) ? v.inline_string : undefined;
    if (typeof text !== "string" || text === "") {
      fail(errors, `${at}.log_format.${k}`, "must be a non-empty string");
      return null;
    }
    return compile(at, errors, () => compileFormat(text, `${at}.log_format.${k}`));
  }
  if (c.json_format !== undefined) {
    const v = c.json_format;
    if (!isObject(v)) return fail(errors, `${at}.json_format`, "must be an object"), null;
    return compile(at, errors, () => compileJsonFormat(v, `${at}.json_format`));
  }
  if (c.format !== undefined) {
    const v = c.format;
    if (typeof v !== "string") return fail(errors, `${at}.format`, "must be a string"), null;
    return compile(at, errors, () => compileFormat(v === "" ? DEFAULT_FORMAT : v, `${at}.format`));
  }
  return compile(at, errors, () => compileFormat(DEFAULT_FORMAT, `${at}.format`));
}

/** Parses an `access_log` list found at `path`. */
export function parseAccessLogs(
  list: Json | undefined,
  path: string,
  errors: Errors,
): AccessLogConfig[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return fail(errors, path, "access_log must be a list"), [];
  const out: AccessLogConfig[] = [];
  list.forEach((e, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(e)) return fail(errors, at, "access log must be an object");
    const name = typeof e.name === "string" ? e.name : "";
    const t = typeName(e);
    if (!FILE_NAMES.has(name) && t !== "FileAccessLog") {
      return fail(errors, `${at}.name`, `access logger "${name}" is not supported (file only)`);
    }
    if (e.filter !== undefined) {
      return fail(errors, `${at}.filter`, "access log filters are not supported yet");
    }
    const n = errors.length;
    const c = filterConfig(e, at, errors);
    if (errors.length > n) return;
    const cAt = `${at}.${e.typed_config !== undefined ? "typed_config" : "config"}`;
    if (typeof c.path !== "string" || c.path === "") {
      return fail(errors, `${cAt}.path`, "path is required");
    }
    const format = formatOf(c, cAt, errors);
    if (format) out.push({ path: c.path, format });
  });
  return out;
}

/**
 * Opens the file of each configured logger (shared by path through `files`); the error says
 * which file could not be opened and why.
 *
 * @example Not run: it opens the access log files of a connection manager's configuration (`cfg`).
 * ```ts ignore
 * import { openLogSinks } from "./access_log_config.ts";
 * const sinks = openLogSinks(cfg.accessLogs, accessLogFiles);
 * ```
 */
export function openLogSinks(
  logs: readonly AccessLogConfig[],
  files: AccessLogFiles | undefined,
): LogSink[] {
  return logs.map((l) => ({ format: l.format, file: openLog(files, l.path) }));
}

function openLog(files: AccessLogFiles | undefined, path: string): AccessLogFile {
  if (!files) throw new Error(`access log ${path}: no access log files configured`);
  try {
    return files.open(path);
  } catch (e) {
    throw new Error(`access log ${path}: cannot open: ${(e as Error).message}`);
  }
}
