/**
 * Runs the implementation's binary (`--command`) for command-line and configuration rules.
 * Every run is recorded as a shell line that reproduces it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CommandClient } from "./command_client.ts";
 * const cmd = new CommandClient(["deno", "run", "-A", "mod.ts"]);
 * const r = await cmd.run(["--version"]);
 * assert.equal(r.code, 0);
 * assert.match(r.stdout, /version: /);
 * ```
 * @module
 */
import { NotRun } from "./types.ts";
import { shellJoin } from "./shell_split.ts";

/** What one run of the binary produced. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The shell line that reproduces the run. */
  line: string;
}

/** Runs the target binary with extra arguments. */
export class CommandClient {
  #argv: readonly string[] | null;
  #timeoutMs: number;
  /** Lines run so far by the current case (the runner reads and clears them). */
  log: string[] = [];
  /** A signal that aborts runs (the case's timeout). */
  signal?: AbortSignal;

  /**
   * @param argv the split `--command`, or null when none was given
   * @param timeoutMs the longest one run may take
   */
  constructor(argv: readonly string[] | null, timeoutMs = 20_000) {
    this.#argv = argv && argv.length > 0 ? argv : null;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * True for a rehearsal's client (see `rehearse` in `runner.ts`): it runs nothing, so a case
   * run with it only tells what it would run.
   */
  readonly rehearsal: boolean = false;

  /**
   * A runner of the same command with its own log, aborted by `signal`.
   *
   * @param signal aborts its runs
   * @param rehearsal a client that runs nothing: {@linkcode CommandClient.run} and
   *   {@linkcode CommandClient.spawn} throw {@linkcode NotRun} (a rehearsal's client stays one)
   */
  fork(signal?: AbortSignal, rehearsal = this.rehearsal): CommandClient {
    const c = new CommandClient(this.#argv, this.#timeoutMs);
    if (signal) c.signal = signal;
    if (rehearsal) (c as { rehearsal: boolean }).rehearsal = true;
    return c;
  }

  /** The command's words joined, to key memoised runs. */
  get key(): string {
    return (this.#argv ?? []).join("\u0000");
  }

  /** True when a command was given. */
  get available(): boolean {
    return this.#argv !== null;
  }

  /**
   * Starts the command with `args` appended and leaves it running (for a proxy a case serves
   * traffic through); the caller stops it. Recorded like {@linkcode CommandClient.run}.
   *
   * @param args extra arguments
   * @returns the child (stdin and stdout closed, stderr piped) and its shell line
   * @throws {NotRun} when no `--command` was given
   */
  spawn(args: readonly string[]): { child: Deno.ChildProcess; line: string } {
    if (this.#argv === null) {
      throw new NotRun("no --command was given: behaviour rules need the binary");
    }
    if (this.rehearsal) throw new NotRun("a rehearsal starts nothing");
    const argv = [...this.#argv, ...args];
    const line = shellJoin(argv);
    this.log.push(line);
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    return { child, line };
  }

  /**
   * Runs the command with `args` appended.
   *
   * @param args extra arguments
   * @returns exit code and output
   * @throws {NotRun} when no `--command` was given
   */
  async run(args: readonly string[]): Promise<CommandResult> {
    if (this.#argv === null) {
      throw new NotRun("no --command was given: command-line rules need the binary");
    }
    if (this.rehearsal) throw new NotRun("a rehearsal runs nothing");
    const argv = [...this.#argv, ...args];
    const line = shellJoin(argv);
    this.log.push(line);
    const own = new AbortController();
    const timer = setTimeout(() => own.abort(), this.#timeoutMs);
    const onAbort = () => own.abort();
    this.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        signal: own.signal,
      }).spawn();
      const out = await child.output();
      const dec = new TextDecoder();
      if (own.signal.aborted) {
        throw new Error(`the command did not finish within ${this.#timeoutMs} ms: ${line}`);
      }
      return {
        code: out.code,
        stdout: dec.decode(out.stdout),
        stderr: dec.decode(out.stderr),
        line,
      };
    } finally {
      clearTimeout(timer);
      this.signal?.removeEventListener("abort", onAbort);
    }
  }
}
