/**
 * The `access_log` list of an HTTP connection manager, a TCP proxy or the admin: file access
 * loggers in every spelling Envoy accepts (v2 `envoy.file_access_log` with `config: {path,
 * format}`, v3 `envoy.access_loggers.file` with `typed_config: {path, log_format: {text_format |
 * json_format | text_format_source}}` or the older `format` / `json_format` /
 * `typed_json_format`), the `envoy.access_loggers.stdout` and `stderr` loggers (`proxy.` names
 * too), each with its `filter`. Each format and filter is compiled here, once; anything else is
 * an error naming where it is.
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
import type { LogRecord } from "./access_log_format.ts";
import type { RuntimeLookup } from "../config/runtime_lookup.ts";
import {
  type HeaderMatcherCompiler,
  type LogPredicate,
  parseAccessLogFilter,
} from "./access_log_filter.ts";

/** One configured access logger: where its lines go, their format, and its filter. */
export interface AccessLogConfig {
  /** A file path; `/dev/stdout` and `/dev/stderr` for the stdout and stderr loggers. */
  path: string;
  format: Formatter;
  /** `filter`: the line is written only when it says true. */
  filter?: LogPredicate | null;
}

/** The kinds of access logger, each with the spellings of its name and its typed config. */
const LOGGERS = {
  file: {
    names: ["envoy.file_access_log", "envoy.access_loggers.file"],
    type: "FileAccessLog",
    fields: ["path", "log_format", "format", "json_format", "typed_json_format"],
  },
  stdout: {
    names: ["envoy.access_loggers.stdout"],
    type: "StdoutAccessLog",
    fields: ["log_format"],
  },
  stderr: {
    names: ["envoy.access_loggers.stderr"],
    type: "StderrAccessLog",
    fields: ["log_format"],
  },
} satisfies Record<string, { names: string[]; type: string; fields: string[] }>;

type LoggerKind = keyof typeof LOGGERS;

function loggerKind(name: string, type: string): LoggerKind | null {
  const bare = name.replace(/^proxy\./, "envoy.");
  for (const [k, l] of Object.entries(LOGGERS)) {
    if ((l.names as string[]).includes(bare) || l.type === type) return k as LoggerKind;
  }
  return null;
}

const LOGGER_NAMES = Object.values(LOGGERS).flatMap((l) => l.names).join(", ");

function compile(at: string, errors: Errors, f: () => Formatter): Formatter | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof FormatError) fail(errors, e.path, e.message.slice(e.path.length + 2));
    else fail(errors, at, (e as Error).message);
    return null;
  }
}

/** The text of a `DataSource` (`inline_string`, `inline_bytes`, `filename`), read once. */
function dataSource(v: Json, at: string, errors: Errors): string | null {
  if (!isObject(v)) return fail(errors, at, "must be an object"), null;
  const keys = ["inline_string", "inline_bytes", "filename", "environment_variable"].filter((k) =>
    v[k] !== undefined
  );
  if (keys.length !== 1) {
    fail(errors, at, "exactly one of inline_string, inline_bytes, filename, environment_variable");
    return null;
  }
  const k = keys[0];
  const x = v[k];
  if (typeof x !== "string" || x === "") {
    return fail(errors, `${at}.${k}`, "must be a non-empty string"), null;
  }
  try {
    if (k === "inline_string") return x;
    if (k === "inline_bytes") {
      return new TextDecoder().decode(Uint8Array.from(atob(x), (c) => c.charCodeAt(0)));
    }
    if (k === "filename") return Deno.readTextFileSync(x);
    const e = Deno.env.get(x);
    if (e === undefined) {
      return fail(errors, `${at}.${k}`, `environment variable ${x} is not set`), null;
    }
    return e;
  } catch (e) {
    return fail(errors, `${at}.${k}`, `cannot read ${x}: ${(e as Error).message}`), null;
  }
}

const FORMAT_FIELDS = [
  "text_format",
  "json_format",
  "text_format_source",
  "omit_empty_values",
  "content_type",
];

/**
 * Compiles a `SubstitutionFormatString` found at `at` (`text_format`, `text_format_source`,
 * `json_format`; `omit_empty_values`; `content_type` is accepted, it only matters to local
 * replies).
 */
export function parseSubstitutionFormat(
  lf: Json,
  at: string,
  errors: Errors,
): Formatter | null {
  return parseTypedSubstitutionFormat(lf, at, errors)?.format ?? null;
}

/**
 * A compiled `SubstitutionFormatString` with the content type of what it makes (`content_type`,
 * else `text/plain` for text and `application/json` for JSON).
 */
export function parseTypedSubstitutionFormat(
  lf: Json,
  at: string,
  errors: Errors,
): { format: Formatter; contentType: string } | null {
  const f = compileSubstitution(lf, at, errors);
  if (f === null || !isObject(lf)) return null;
  const ct = typeof lf.content_type === "string" && lf.content_type !== ""
    ? lf.content_type
    : lf.json_format !== undefined
    ? "application/json"
    : "text/plain";
  return { format: f, contentType: ct };
}

function compileSubstitution(lf: Json, at: string, errors: Errors): Formatter | null {
  if (!isObject(lf)) return fail(errors, at, "must be an object"), null;
  for (const k of Object.keys(lf)) {
    if (!FORMAT_FIELDS.includes(k)) {
      fail(errors, `${at}.${k}`, `${k} is not supported by this build`);
      return null;
    }
  }
  const keys = ["text_format", "json_format", "text_format_source"].filter((k) =>
    lf[k] !== undefined
  );
  if (keys.length !== 1) {
    fail(errors, at, "exactly one of text_format, json_format, text_format_source");
    return null;
  }
  if (lf.omit_empty_values !== undefined && typeof lf.omit_empty_values !== "boolean") {
    return fail(errors, `${at}.omit_empty_values`, "must be a boolean"), null;
  }
  if (lf.content_type !== undefined && typeof lf.content_type !== "string") {
    return fail(errors, `${at}.content_type`, "must be a string"), null;
  }
  const opts = { omitEmpty: lf.omit_empty_values === true };
  const k = keys[0];
  const v = lf[k];
  if (k === "json_format") {
    if (!isObject(v)) return fail(errors, `${at}.json_format`, "must be an object"), null;
    return compile(at, errors, () => compileJsonFormat(v, `${at}.json_format`, opts));
  }
  const text = k === "text_format" ? v : dataSource(v, `${at}.${k}`, errors);
  if (text === null) return null;
  if (typeof text !== "string" || text === "") {
    fail(errors, `${at}.${k}`, "must be a non-empty string");
    return null;
  }
  return compile(at, errors, () => compileFormat(text, `${at}.${k}`, opts));
}

function formatOf(c: Record<string, Json>, at: string, errors: Errors): Formatter | null {
  if (c.log_format !== undefined) {
    return parseSubstitutionFormat(c.log_format, `${at}.log_format`, errors);
  }
  for (const k of ["json_format", "typed_json_format"]) {
    if (c[k] === undefined) continue;
    const v = c[k];
    if (!isObject(v)) return fail(errors, `${at}.${k}`, "must be an object"), null;
    return compile(at, errors, () => compileJsonFormat(v, `${at}.${k}`));
  }
  if (c.format !== undefined) {
    const v = c.format;
    if (typeof v !== "string") return fail(errors, `${at}.format`, "must be a string"), null;
    return compile(at, errors, () => compileFormat(v === "" ? DEFAULT_FORMAT : v, `${at}.format`));
  }
  return compile(at, errors, () => compileFormat(DEFAULT_FORMAT, `${at}.format`));
}

/**
 * Parses an `access_log` list found at `path`. `headerMatcher` compiles the matcher of a
 * `header_filter` (without it, that filter is refused).
 */
export function parseAccessLogs(
  list: Json | undefined,
  path: string,
  errors: Errors,
  headerMatcher?: HeaderMatcherCompiler,
): AccessLogConfig[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) return fail(errors, path, "access_log must be a list"), [];
  const out: AccessLogConfig[] = [];
  list.forEach((e, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(e)) return fail(errors, at, "access log must be an object");
    const name = typeof e.name === "string" ? e.name : "";
    const kind = loggerKind(name, typeName(e) ?? "");
    if (kind === null) {
      return fail(
        errors,
        `${at}.name`,
        `access logger "${name}" is not supported (supported: ${LOGGER_NAMES}, or proxy.*)`,
      );
    }
    for (const k of Object.keys(e)) {
      if (!["name", "filter", "config", "typed_config"].includes(k)) {
        return fail(errors, `${at}.${k}`, `${k} is not supported by this build`);
      }
    }
    const filter = e.filter === undefined
      ? null
      : parseAccessLogFilter(e.filter, `${at}.filter`, errors, headerMatcher);
    const n = errors.length;
    const c = filterConfig(e, at, errors);
    if (errors.length > n) return;
    const cAt = `${at}.${e.typed_config !== undefined ? "typed_config" : "config"}`;
    for (const k of Object.keys(c)) {
      if (k !== "@type" && !(LOGGERS[kind].fields as string[]).includes(k)) {
        return fail(errors, `${cAt}.${k}`, `${k} is not supported by this build`);
      }
    }
    let file: string;
    if (kind === "file") {
      if (typeof c.path !== "string" || c.path === "") {
        return fail(errors, `${cAt}.path`, "path is required");
      }
      file = c.path;
    } else file = `/dev/${kind}`;
    const format = formatOf(c, cAt, errors);
    if (format && errors.length === n) out.push({ path: file, format, filter });
  });
  return out;
}

/**
 * Opens the file of each configured logger (shared by path through `files`); the error says
 * which file could not be opened and why. Filters read their runtime keys in `runtime`.
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
  runtime?: RuntimeLookup,
): LogSink[] {
  return logs.map((l) => {
    const f = l.filter ?? null;
    return {
      format: l.format,
      file: openLog(files, l.path),
      filter: f === null ? null : (r: LogRecord) => f(r, runtime),
    };
  });
}

function openLog(files: AccessLogFiles | undefined, path: string): AccessLogFile {
  if (!files) throw new Error(`access log ${path}: no access log files configured`);
  try {
    return files.open(path);
  } catch (e) {
    throw new Error(`access log ${path}: cannot open: ${(e as Error).message}`);
  }
}
