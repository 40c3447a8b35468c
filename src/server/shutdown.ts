/**
 * The end of a server's life: {@linkcode Cleanups} collects what start-up acquired, and
 * {@linkcode Shutdown} runs the shutdown sequence once, however often it is asked for.
 *
 * @example
 * ```ts
 * import { Cleanups } from "./shutdown.ts";
 * const cleanups = new Cleanups();
 * const order: string[] = [];
 * cleanups.push(() => void order.push("timer"));
 * cleanups.push(() => void order.push("listener"));
 * await cleanups.run(); // order: ["listener", "timer"]
 * ```
 * @module
 */
import type { Logging } from "./logger.ts";
import type { Signals } from "./lifecycle.ts";
import type { ServerStateMachine } from "./state.ts";

/** Logs at the `main` component. */
export type Log = (level: string, msg: string) => void;

/** What {@linkcode Shutdown} needs of the server. */
export interface ShuttingDown {
  readonly machine: ServerStateMachine;
  readonly shutdownWork: Array<() => void | Promise<void>>;
  readonly logging: Logging;
}

/** What start-up acquired, undone in reverse on a failed start and at shutdown. */
export class Cleanups {
  readonly #work: Array<() => void | Promise<void>> = [];

  /** Adds work to undo. */
  push(work: () => void | Promise<void>): void {
    this.#work.push(work);
  }

  /** Runs the work, latest first. */
  async run(): Promise<void> {
    for (const c of this.#work.reverse()) await c();
  }
}

/**
 * Shutdown phase, run once however often it is asked for: the server shows DRAINING, signal
 * listeners and server stats stop, the shutdown work registered on the context runs (latest
 * first), start-up is undone in reverse, the logger closes when the server opened it, and
 * `finished` resolves with exit code 0.
 */
export class Shutdown {
  #stopping: Promise<void> | null = null;
  #resolve!: (code: number) => void;
  /** Resolves with the exit code once shutdown is complete. */
  readonly finished: Promise<number> = new Promise<number>((r) => this.#resolve = r);
  /** What to stop first; set once the signals phase and the server stats are running. */
  signals?: Signals;
  detachStats?: () => void;

  constructor(
    readonly server: ShuttingDown,
    readonly cleanups: Cleanups,
    readonly log: Log,
    readonly ownsLogging: boolean,
  ) {}

  /** True once shutdown has begun. */
  get started(): boolean {
    return this.#stopping !== null;
  }

  /** Starts shutdown (once) and resolves when it is complete. */
  run(): Promise<void> {
    this.#stopping ??= this.#sequence();
    return this.#stopping;
  }

  async #sequence(): Promise<void> {
    this.server.machine.startDraining();
    this.signals?.stop();
    this.detachStats?.();
    for (const work of this.server.shutdownWork.reverse()) await work();
    await this.cleanups.run();
    this.log("info", "shutdown complete");
    if (this.ownsLogging) this.server.logging.close();
    this.#resolve(0);
  }
}
