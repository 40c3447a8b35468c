/**
 * The logger registry: Envoy's component loggers (or, with `--enable-fine-grain-logging`, one
 * logger per source file, named by its path), their levels (`--log-level`,
 * `--component-log-level`, POST /logging), and the sink (`--log-path`, reopened on
 * {@linkcode Logging.reopen} and buffered for `--file-flush-interval-msec`; stderr when unset). Lines are laid out by the `--log-format`
 * formatter of `log_format.ts`, compiled once.
 *
 * @example
 * ```ts
 * import { createLogging } from "./logger.ts";
 * import { parseArgs } from "../config/args.ts";
 * const logging = createLogging(parseArgs(["-c", "x.yaml", "-l", "debug"]));
 * logging.log("main", "info", "starting");
 * ```
 * @module
 */
import type { LoggingView } from "./context.ts";
import type { Options } from "../config/options.ts";
import {
  COMPONENT_NAMES,
  isLevelName,
  LOG_LEVELS,
  type LogLevel,
  normaliseLevel,
} from "../config/log_levels.ts";
import { type CompiledLogFormat, compileLogFormat, type LogRecord } from "./log_format.ts";
import type { ComponentLog } from "../platform/log_site.ts";

const rank = (l: string) => (LOG_LEVELS as readonly string[]).indexOf(l);

/** Where log lines go; the default writes to stderr or the `--log-path` file. */
export interface LogSink {
  /** Writes one line; `level` lets a buffering sink write critical lines out at once. */
  write(line: string, level?: string): void;
  /** Writes buffered lines out (optional: sinks without a buffer have nothing to do). */
  flush?(): void;
  reopen(): Promise<void>;
  close(): void;
}

/** The root of the repository, for relative source paths (`src/upstream/cluster_manager.ts`). */
const ROOT = new URL("../../", import.meta.url).href;

/** Files whose frames forward a log line rather than log it (never a line's call site). */
const FORWARDERS = ["/src/server/logger.ts", "/src/platform/log_site.ts"];

/** The source location of the caller of `log()`, from the stack (only computed when needed). */
function callerLocation(): { file?: string; line?: number; func?: string } {
  const limit = Error.stackTraceLimit;
  // Forwarders can stack up (a component log, a prefix, the registry): look deep enough.
  Error.stackTraceLimit = 30;
  const stack = new Error().stack?.split("\n") ?? [];
  Error.stackTraceLimit = limit;
  for (const frame of stack.slice(1)) {
    if (FORWARDERS.some((f) => frame.includes(f))) continue;
    const m = /at (?:(.*?) \()?(\S+?):(\d+):\d+\)?$/.exec(frame.trim());
    if (!m) continue;
    const url = m[2];
    const file = url.startsWith(ROOT) ? url.slice(ROOT.length) : url.replace(/^file:\/\//, "");
    return { file, line: Number(m[3]), func: m[1] ?? "" };
  }
  return {};
}

/**
 * A glob (`*` any run of characters, `?` one character) as a whole-string matcher. Matching
 * takes at most glob length × name length steps (one backtrack point, the last `*`), so a glob
 * from an admin request cannot stall the process as a backtracking regular expression could.
 */
function globToRegExp(glob: string): { test(s: string): boolean } {
  return {
    test(s) {
      let g = 0, i = 0, star = -1, mark = 0;
      while (i < s.length) {
        if (g < glob.length && (glob[g] === "?" || glob[g] === s[i])) {
          g++;
          i++;
        } else if (g < glob.length && glob[g] === "*") {
          star = g++;
          mark = i;
        } else if (star >= 0) {
          g = star + 1;
          i = ++mark;
        } else return false;
      }
      while (g < glob.length && glob[g] === "*") g++;
      return g === glob.length;
    },
  };
}

/** A file buffer is written out once it holds this many bytes (as Envoy's log files). */
export const FILE_FLUSH_SIZE = 64 * 1024;

/**
 * The default sink: stderr (written at once), or the `--log-path` file, buffered and written out
 * every `--file-flush-interval-msec`, when the buffer is full, on a critical line, on reopen,
 * on close and when the process exits.
 */
export class FileSink implements LogSink {
  #file: Deno.FsFile | null = null;
  #enc = new TextEncoder();
  #chunks: Uint8Array[] = [];
  #size = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #writeFailed = false;
  #onUnload = () => this.flush();
  /** `flushIntervalMs`: `--file-flush-interval-msec` (its default comes from the options table). */
  constructor(readonly path: string, readonly flushIntervalMs: number) {
    this.#open();
  }
  #open() {
    if (this.path === "") return;
    this.#file = Deno.openSync(this.path, { append: true, create: true, write: true });
    if (this.flushIntervalMs > 0 && this.#timer === undefined) {
      const timer = setInterval(() => this.flush(), this.flushIntervalMs);
      Deno.unrefTimer(timer);
      this.#timer = timer;
      globalThis.addEventListener("unload", this.#onUnload);
    }
  }
  /** Bytes waiting in the buffer. */
  get buffered(): number {
    return this.#size;
  }
  write(line: string, level?: string): void {
    const bytes = this.#enc.encode(line);
    if (!this.#file) {
      writeAll(Deno.stderr, bytes);
      return;
    }
    this.#chunks.push(bytes);
    this.#size += bytes.length;
    if (this.flushIntervalMs <= 0 || this.#size >= FILE_FLUSH_SIZE || level === "critical") {
      this.flush();
    }
  }
  /** Writes the buffer out to the file. */
  flush(): void {
    if (!this.#file || this.#size === 0) return;
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#size = 0;
    try {
      for (const c of chunks) writeAll(this.#file, c);
    } catch (e) {
      if (!this.#writeFailed) {
        this.#writeFailed = true;
        writeAll(
          Deno.stderr,
          this.#enc.encode(`cannot write log file '${this.path}': ${(e as Error).message}\n`),
        );
      }
    }
  }
  reopen(): Promise<void> {
    this.flush();
    this.#file?.close();
    this.#file = null;
    this.#open();
    return Promise.resolve();
  }
  close(): void {
    this.flush();
    if (this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      globalThis.removeEventListener("unload", this.#onUnload);
    }
    this.#file?.close();
    this.#file = null;
  }
}

function writeAll(out: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let n = 0;
  while (n < bytes.length) n += out.writeSync(bytes.subarray(n));
}

/** The logging of a process: a {@linkcode LoggingView} plus `log()`. */
export interface Logging extends LoggingView {
  /**
   * Logs one message. `component` is a component name (`upstream`); with fine-grain logging the
   * logger is the caller's source file instead (or `component` itself when it is a path).
   */
  log(component: string, level: string, message: string): void;
  /**
   * A logging function bound to one component, with `on(level)` to test before building a
   * costly message. Prefer it over a wrapper of your own: `%g:%#` then shows the line that
   * called it, not the line of the wrapper.
   */
  forComponent(component: string): ComponentLog;
  /** True when a line of `component` at `level` would be written now. */
  enabled(component: string, level: string): boolean;
  /** Writes buffered lines of the log file out now (`--file-flush-interval-msec` buffering). */
  flush(): void;
  /** Closes the log file (if any). */
  close(): void;
}

/** Settings of {@linkcode createLogging} beyond the options (for tests). */
export interface LoggingSettings {
  sink?: LogSink;
  now?: () => Date;
}

/**
 * Creates the logger registry from the parsed command line.
 *
 * @example
 * ```ts
 * import { createLogging } from "./logger.ts";
 * import { parseArgs } from "../config/args.ts";
 * const logging = createLogging(parseArgs(["--config-yaml", "{}", "-l", "debug"]));
 * logging.log("upstream", "debug", "hello");
 * logging.close();
 * ```
 */
export function createLogging(options: Options, settings: LoggingSettings = {}): Logging {
  const fineGrain = options.enable_fine_grain_logging;
  const base = normaliseLevel(options.log_level);
  const levels = new Map<string, LogLevel>();
  if (!fineGrain) { for (const c of COMPONENT_NAMES) levels.set(c, base); }
  for (const item of options.component_log_level.split(",")) {
    const [name, level] = item.split(":");
    if (name && level && isLevelName(level)) levels.set(name, normaliseLevel(level));
  }
  let defaultLevel: LogLevel = base;
  const patterns: [{ test(s: string): boolean }, LogLevel][] = [];
  const format: CompiledLogFormat = compileLogFormat(options.log_format, {
    variant: options.variant,
    escaped: options.log_format_escaped,
  });
  const sink = settings.sink ?? new FileSink(options.log_path, options.file_flush_interval_msec);
  const now = settings.now ?? (() => new Date());
  const bound = new Map<string, ComponentLog>();
  /**
   * Fine-grain loggers are named by the call site: `on` answers for the most verbose of them,
   * computed again only after a level changed or a logger was added.
   */
  let loosestRank: number | null = null;
  const loosest = (): number => {
    if (loosestRank !== null) return loosestRank;
    let r = rank(defaultLevel);
    for (const l of levels.values()) r = Math.min(r, rank(l));
    for (const [, l] of patterns) r = Math.min(r, rank(l));
    return loosestRank = r;
  };
  const OFF = rank("off");
  const INFO = rank("info");
  /** Level name -> rank, `warn` included: one lookup on the hot path. */
  const ranks = new Map<string, number>([...LOG_LEVELS.map((l, i) => [l, i] as const)]);
  ranks.set("warn", rank("warning"));
  const enabled = (component: string, level: string): boolean => {
    const want = ranks.get(level) ?? INFO;
    if (want === OFF) return false;
    const r = fineGrain ? loosest() : ranks.get(levels.get(component) ?? defaultLevel)!;
    return r < OFF && want >= r;
  };

  const view: Logging = {
    loggers: () => [...levels.entries()],
    setAll(level) {
      const l = normaliseLevel(level);
      loosestRank = null;
      defaultLevel = l;
      patterns.length = 0;
      for (const k of levels.keys()) levels.set(k, l);
    },
    set(name, level) {
      const l = normaliseLevel(level);
      loosestRank = null;
      if (fineGrain) {
        // A source path or glob (`src/upstream/*`): applies to matching loggers, now and later.
        const re = globToRegExp(name);
        patterns.push([re, l]);
        for (const k of levels.keys()) if (re.test(k)) levels.set(k, l);
        return;
      }
      if (!levels.has(name)) throw new Error(`unknown logger '${name}'`);
      levels.set(name, l);
    },
    isLevel: isLevelName,
    reopen: () => sink.reopen(),
    flush: () => sink.flush?.(),
    close: () => sink.close(),
    enabled,
    forComponent(component) {
      let f = bound.get(component);
      if (f === undefined) {
        f = Object.assign(
          (level: string, message: string) => view.log(component, level, message),
          { on: (level: string) => enabled(component, level) },
        );
        bound.set(component, f);
      }
      return f;
    },
    log(component, level, message) {
      // An unknown level from code is logged at `info` rather than lost.
      const lvl = isLevelName(level) ? normaliseLevel(level) : "info";
      const need = fineGrain || format.needsSource;
      const loc = need ? callerLocation() : {};
      let name = component;
      if (fineGrain) {
        name = component.includes("/") ? component : loc.file ?? component;
        if (!levels.has(name)) {
          let l = defaultLevel;
          for (const [re, pl] of patterns) if (re.test(name)) l = pl;
          levels.set(name, l);
          loosestRank = null;
        }
      }
      const threshold = levels.get(name) ?? defaultLevel;
      if (threshold === "off" || lvl === "off" || rank(lvl) < rank(threshold)) return;
      const rec: LogRecord = { time: now(), level: lvl, logger: name, message, ...loc };
      sink.write(format(rec) + "\n", lvl);
    },
  };
  return view;
}
