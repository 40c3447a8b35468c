/**
 * The log line formatter, compiled once from a `--log-format` pattern and driven by the
 * `cli.log_format` table: each flag of a row is rendered by the renderer keyed by that row's ID,
 * flags of (new) rows are only known in the newer variant, and an unknown flag prints literally.
 * Times are local time, as spdlog renders them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileLogFormat } from "./log_format.ts";
 * const fmt = compileLogFormat("[%l][%n] %v");
 * assert.equal(
 *   fmt({ time: new Date(0), level: "info", logger: "main", message: "hello" }),
 *   "[info][main] hello",
 * );
 * ```
 * @module
 */
import { LOG_FLAGS } from "../../spec/cli/log_format.ts";
import type { Variant } from "../../spec/rule.ts";
import { libc } from "../platform/libc.ts";

/** One log event. */
export interface LogRecord {
  time: Date;
  /** Nanoseconds within the millisecond of `time` (0..999999), when known. */
  subMillisNanos?: number;
  level: string;
  logger: string;
  message: string;
  /** Source location (relative path, line, function), when known. */
  file?: string;
  line?: number;
  func?: string;
  /** Thread id; defaults to {@linkcode currentThreadId}. */
  threadId?: number;
  pid?: number;
}

/** A compiled formatter. */
export type LogFormatter = (r: LogRecord) => string;

/** Options of {@linkcode compileLogFormat}. */
export interface LogFormatOptions {
  variant?: Variant;
  /** `--log-format-escaped`: escape C-style sequences of the whole line (as Envoy's sink does),
   * except its trailing whitespace. */
  escaped?: boolean;
}

type FlagId = (typeof LOG_FLAGS)[number]["id"];
type Render = (r: LogRecord, flag: string) => string;

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const SHORT_LEVEL: Record<string, string> = {
  trace: "T",
  debug: "D",
  info: "I",
  warning: "W",
  error: "E",
  critical: "C",
  off: "O",
};

const p2 = (n: number) => String(n).padStart(2, "0");
const p3 = (n: number) => String(n).padStart(3, "0");
const hour12 = (d: Date) => p2(d.getHours() % 12 === 0 ? 12 : d.getHours() % 12);
const ampm = (d: Date) => (d.getHours() < 12 ? "AM" : "PM");
const hms = (d: Date) => `${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
const nanos = (r: LogRecord) => r.time.getMilliseconds() * 1_000_000 + (r.subMillisNanos ?? 0);

/**
 * Escapes C-style: `\n` `\r` `\t` `\\` `"` `'` and other control characters as octal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cEscape } from "./log_format.ts";
 * assert.equal(cEscape("a\nb"), "a\\nb");
 * ```
 */
export function cEscape(s: string): string {
  // deno-lint-ignore no-control-regex
  return s.replace(/[\x00-\x1f\x7f\\"']/g, (c) => {
    switch (c) {
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "'":
        return "\\'";
      default:
        return "\\" + c.charCodeAt(0).toString(8).padStart(3, "0");
    }
  });
}

let tid: number | undefined;

/**
 * The kernel thread id of the calling thread (`gettid()` through FFI on Linux), computed once per
 * JavaScript thread (a module instance lives on one thread: the main thread or one worker).
 * Without FFI (other systems, no `ffi` permission) it is the process id, which on Linux is also
 * the id of the main thread.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { currentThreadId } from "./log_format.ts";
 * assert.ok(currentThreadId() > 0); // e.g. 17558 (equal to Deno.pid on the main thread)
 * ```
 */
export function currentThreadId(): number {
  if (tid === undefined) {
    const c = libc();
    const t = c ? c.symbols.gettid() : 0;
    tid = t > 0 ? t : Deno.pid;
  }
  return tid;
}

/** The renderer of every row, keyed by row ID: a row without one does not compile. */
const RENDER: Record<FlagId, Render> = {
  "cli.log-format.message": (r) => r.message,
  "cli.log-format.message-escaped": (r) => r.message.replace(/\n/g, "\\n"),
  "cli.log-format.message-json": (r) => JSON.stringify(r.message).slice(1, -1),
  "cli.log-format.thread-id": (r) => String(r.threadId ?? currentThreadId()),
  "cli.log-format.process-id": (r) => String(r.pid ?? Deno.pid),
  "cli.log-format.logger-name": (r) => r.logger,
  "cli.log-format.level": (r) => r.level,
  "cli.log-format.short-level": (r) => SHORT_LEVEL[r.level] ?? r.level.slice(0, 1).toUpperCase(),
  "cli.log-format.weekday": (r, f) => {
    const d = DAYS[r.time.getDay()];
    return f === "%a" ? d.slice(0, 3) : d;
  },
  "cli.log-format.month-name": (r, f) => {
    const m = MONTHS[r.time.getMonth()];
    return f === "%b" ? m.slice(0, 3) : m;
  },
  "cli.log-format.date-time": (r) => {
    const d = r.time;
    return `${DAYS[d.getDay()].slice(0, 3)} ${MONTHS[d.getMonth()].slice(0, 3)} ${
      String(d.getDate()).padStart(2, " ")
    } ${hms(d)} ${d.getFullYear()}`;
  },
  "cli.log-format.year-2": (r) => p2(r.time.getFullYear() % 100),
  "cli.log-format.year-4": (r) => String(r.time.getFullYear()),
  "cli.log-format.date": (r) =>
    `${p2(r.time.getMonth() + 1)}/${p2(r.time.getDate())}/${p2(r.time.getFullYear() % 100)}`,
  "cli.log-format.month": (r) => p2(r.time.getMonth() + 1),
  "cli.log-format.day": (r) => p2(r.time.getDate()),
  "cli.log-format.hour-24": (r) => p2(r.time.getHours()),
  "cli.log-format.hour-12": (r) => hour12(r.time),
  "cli.log-format.minute": (r) => p2(r.time.getMinutes()),
  "cli.log-format.second": (r) => p2(r.time.getSeconds()),
  "cli.log-format.millis": (r) => p3(r.time.getMilliseconds()),
  "cli.log-format.micros": (r) => String(Math.floor(nanos(r) / 1000)).padStart(6, "0"),
  "cli.log-format.nanos": (r) => String(nanos(r)).padStart(9, "0"),
  "cli.log-format.am-pm": (r) => ampm(r.time),
  "cli.log-format.clock-12": (r) =>
    `${hour12(r.time)}:${p2(r.time.getMinutes())}:${p2(r.time.getSeconds())} ${ampm(r.time)}`,
  "cli.log-format.hour-minute": (r) => `${p2(r.time.getHours())}:${p2(r.time.getMinutes())}`,
  "cli.log-format.time": (r) => hms(r.time),
  "cli.log-format.utc-offset": (r) => {
    const off = -r.time.getTimezoneOffset();
    const a = Math.abs(off);
    return `${off < 0 ? "-" : "+"}${p2(Math.floor(a / 60))}:${p2(a % 60)}`;
  },
  "cli.log-format.percent": () => "%",
  "cli.log-format.source-location": (r) => (r.file ? `${r.file}:${r.line ?? 0}` : ""),
  "cli.log-format.source-basename": (
    r,
  ) => (r.file ? r.file.slice(r.file.lastIndexOf("/") + 1) : ""),
  "cli.log-format.source-path": (r) => r.file ?? "",
  "cli.log-format.source-line": (r) => (r.line !== undefined ? String(r.line) : ""),
  "cli.log-format.source-function": (r) => r.func ?? "",
};

const SOURCE_ROWS: ReadonlySet<string> = new Set(
  LOG_FLAGS.filter((r) => r.id.startsWith("cli.log-format.source-")).map((r) => r.id),
);

/** A compiled formatter that also says whether it needs the source location of a record. */
export interface CompiledLogFormat extends LogFormatter {
  /** True when the pattern uses a source flag (`%g`, `%#`, `%@`, `%s`, `%!`). */
  needsSource: boolean;
}

/**
 * Compiles a `--log-format` pattern once into a function. Flags of (new) rows are unknown in the
 * `v2` variant; an unknown flag (and a lone trailing `%`) is printed literally.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileLogFormat } from "./log_format.ts";
 * const fmt = compileLogFormat("%L %v");
 * assert.equal(fmt({ time: new Date(), level: "info", logger: "main", message: "hi" }), "I hi");
 * ```
 */
export function compileLogFormat(pattern: string, opts: LogFormatOptions = {}): CompiledLogFormat {
  const variant = opts.variant ?? "new";
  const known = new Map<string, FlagId>();
  for (const row of LOG_FLAGS) {
    if (variant === "v2" && row.variant === "new") continue;
    for (const f of row.flags) known.set(f, row.id);
  }
  const parts: ((r: LogRecord) => string)[] = [];
  let needsSource = false;
  let literal = "";
  for (let i = 0; i < pattern.length; i++) {
    const flag = pattern.slice(i, i + 2);
    const id = pattern[i] === "%" ? known.get(flag) : undefined;
    if (!id) {
      literal += pattern[i];
      continue;
    }
    if (literal) {
      const text = literal;
      parts.push(() => text);
      literal = "";
    }
    const render = RENDER[id];
    if (SOURCE_ROWS.has(id)) needsSource = true;
    parts.push((r) => render(r, flag));
    i++;
  }
  if (literal) parts.push(() => literal);
  const escaped = opts.escaped === true;
  const fn = ((r: LogRecord) => {
    let s = "";
    for (const p of parts) s += p(r);
    return escaped ? escapeKeepingTrailing(s) : s;
  }) as CompiledLogFormat;
  fn.needsSource = needsSource;
  return fn;
}

/**
 * `--log-format-escaped`: escapes a line but leaves its trailing whitespace as is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeKeepingTrailing } from "./log_format.ts";
 * assert.equal(escapeKeepingTrailing("a\tb\n"), "a\\tb\n");
 * ```
 */
export function escapeKeepingTrailing(message: string): string {
  const m = /\s*$/.exec(message);
  const cut = m ? m.index : message.length;
  return cEscape(message.slice(0, cut)) + message.slice(cut);
}
