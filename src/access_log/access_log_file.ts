/**
 * Access log files: lines are buffered and written out every `--file-flush-interval-msec`, when
 * 64 KiB are waiting, on reopen and on close. `/dev/stdout` and `/dev/stderr` write to the
 * process's own streams. Files are shared by path (two loggers naming one file append to the same
 * buffer) and reopened on demand (`/reopen_logs`, SIGUSR1), so rotated files are let go.
 *
 * @example Not run: it writes to a file.
 * ```ts ignore
 * import { AccessLogFiles } from "./access_log_file.ts";
 * const files = new AccessLogFiles(1000);
 * const f = files.open("/tmp/access.log");
 * f.write("line\n");
 * files.reopen();
 * files.close();
 * ```
 * @module
 */

/** Bytes waiting before the buffer is written out regardless of the interval. */
export const ACCESS_LOG_FLUSH_BYTES = 64 * 1024;

const encoder = new TextEncoder();

function writeAllSync(w: { writeSync(p: Uint8Array): number }, data: Uint8Array) {
  let off = 0;
  while (off < data.length) off += w.writeSync(data.subarray(off));
}

/** One access log file. */
export class AccessLogFile {
  #file: Deno.FsFile | null = null;
  #lines: string[] = [];
  #size = 0;
  #failed = false;

  /** Opens `path` for appending (created when missing); throws when it cannot be opened. */
  constructor(
    readonly path: string,
    readonly onError: (msg: string) => void,
    readonly immediate = false,
  ) {
    this.#open();
  }

  #open() {
    if (this.path === "/dev/stdout" || this.path === "/dev/stderr") return;
    this.#file = Deno.openSync(this.path, { append: true, create: true, write: true });
  }

  /** Adds a line (it carries its own newline). */
  write(line: string): void {
    this.#lines.push(line);
    this.#size += line.length;
    if (this.immediate || this.#size >= ACCESS_LOG_FLUSH_BYTES) this.flush();
  }

  /** Bytes (characters) waiting to be written. */
  get buffered(): number {
    return this.#size;
  }

  /** Writes the buffered lines out now. */
  flush(): void {
    if (this.#size === 0) return;
    const data = encoder.encode(this.#lines.join(""));
    this.#lines = [];
    this.#size = 0;
    try {
      const out = this.path === "/dev/stdout"
        ? Deno.stdout
        : this.path === "/dev/stderr"
        ? Deno.stderr
        : this.#file;
      if (out) writeAllSync(out, data);
      this.#failed = false;
    } catch (e) {
      if (!this.#failed) this.onError(`access log ${this.path}: ${(e as Error).message}`);
      this.#failed = true;
    }
  }

  /** Flushes, closes and opens the path again (a rotated file is replaced by a new one). */
  reopen(): void {
    this.flush();
    this.#closeFile();
    try {
      this.#open();
    } catch (e) {
      this.onError(`access log ${this.path}: cannot reopen: ${(e as Error).message}`);
    }
  }

  #closeFile() {
    try {
      this.#file?.close();
    } catch { /* closed */ }
    this.#file = null;
  }

  /** Flushes and closes. */
  close(): void {
    this.flush();
    this.#closeFile();
  }
}

/** The access log files of a server, shared by path, flushed on one interval timer. */
export class AccessLogFiles {
  readonly #files = new Map<string, AccessLogFile>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `flushIntervalMs` is `--file-flush-interval-msec` (0 or less: write every line at once). */
  constructor(
    readonly flushIntervalMs: number,
    readonly onError: (msg: string) => void = () => {},
  ) {}

  /** The file of `path`, opened on first use; throws when it cannot be opened. */
  open(path: string): AccessLogFile {
    let f = this.#files.get(path);
    if (!f) {
      f = new AccessLogFile(path, this.onError, this.flushIntervalMs <= 0);
      this.#files.set(path, f);
      if (this.flushIntervalMs > 0 && this.#timer === undefined) {
        const timer = setInterval(() => this.flush(), this.flushIntervalMs);
        Deno.unrefTimer(timer);
        this.#timer = timer;
      }
    }
    return f;
  }

  /** Writes out every buffer. */
  flush(): void {
    for (const f of this.#files.values()) f.flush();
  }

  /** Reopens every file. */
  reopen(): void {
    for (const f of this.#files.values()) f.reopen();
  }

  /** Flushes and closes every file and stops the timer. */
  close(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    for (const f of this.#files.values()) f.close();
    this.#files.clear();
  }
}
