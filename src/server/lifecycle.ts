/**
 * Process signals of a running server: SIGTERM and SIGINT start a clean shutdown (exit 0),
 * SIGUSR1 reopens the logs. {@linkcode Signals.stop} removes every listener it added. Also the
 * start-up warning for a Deno other than the pinned 2.9.1 (see DESIGN.md: from 2.9.2 on, SIGUSR1
 * opens a V8 inspector).
 *
 * @example
 * ```ts
 * import { Signals } from "./lifecycle.ts";
 * const sig = new Signals({ onTerminate() {}, onReopen() {} });
 * sig.start();
 * sig.stop();
 * ```
 * @module
 */

/** What the signal handlers call. */
export interface SignalHooks {
  onTerminate(signal: Deno.Signal): void;
  onReopen(): void;
}

/** The signal listeners of a running server. */
export class Signals {
  #listeners: [Deno.Signal, () => void][] = [];

  constructor(readonly hooks: SignalHooks) {}

  /** Installs the listeners (platforms without a signal skip it). */
  start(): void {
    const add = (sig: Deno.Signal, fn: () => void) => {
      try {
        Deno.addSignalListener(sig, fn);
        this.#listeners.push([sig, fn]);
      } catch {
        // signals the platform lacks (SIGUSR1 on Windows) are skipped
      }
    };
    add("SIGTERM", () => this.hooks.onTerminate("SIGTERM"));
    add("SIGINT", () => this.hooks.onTerminate("SIGINT"));
    add("SIGUSR1", () => this.hooks.onReopen());
  }

  /** Removes the listeners. */
  stop(): void {
    for (const [sig, fn] of this.#listeners) {
      try {
        Deno.removeSignalListener(sig, fn);
      } catch {
        // already gone
      }
    }
    this.#listeners = [];
  }
}

/**
 * The warning to log when the Deno version is not the pinned one, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoVersionWarning } from "./lifecycle.ts";
 * assert.equal(denoVersionWarning("2.9.1"), null);
 * ```
 */
export function denoVersionWarning(version: string = Deno.version.deno): string | null {
  if (version === "2.9.1") return null;
  return `running on Deno ${version}, not the pinned 2.9.1: from Deno 2.9.2 on, SIGUSR1 (which ` +
    `reopens the logs here) also opens a V8 inspector on 127.0.0.1:9229 that lets any local ` +
    `process run code inside the proxy; run on Deno 2.9.1 or a deno-compiled binary`;
}
