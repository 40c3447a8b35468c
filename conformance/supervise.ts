/**
 * Child processes a case starts (a target, a control plane) are ended when the case ends: SIGTERM
 * first, then SIGKILL when the process is still there after a grace period, so a process that
 * ignores or hangs on SIGTERM cannot hold the suite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { supervise } from "./supervise.ts";
 * const child = new Deno.Command(Deno.execPath(), {
 *   args: ["eval", "setTimeout(() => {}, 60_000)"],
 *   stdin: "null",
 *   stdout: "null",
 *   stderr: "null",
 * }).spawn();
 * const run = supervise(child);
 * assert.equal(run.exited(), false);
 * const status = await run.stop();
 * assert.equal(status.success, false);
 * assert.equal(run.exited(), true);
 * ```
 * @module
 */

/** How long a process has after SIGTERM before it gets SIGKILL, by default. */
export const STOP_GRACE_MS = 5000;

/** A supervised child process. */
export interface Supervised {
  /** Resolves with the exit status, however the process ends. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Whether the process has exited. */
  exited(): boolean;
  /**
   * Ends the process: SIGTERM (unless it has exited), then SIGKILL after `graceMs`; resolves
   * with its exit status.
   */
  stop(graceMs?: number): Promise<Deno.CommandStatus>;
}

/**
 * Watches `child` so it can be stopped with a bounded wait.
 *
 * @param child the spawned process
 * @returns its status and a stop function
 */
export function supervise(child: Deno.ChildProcess): Supervised {
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const signal = (sig: Deno.Signal) => {
    if (exited) return;
    try {
      child.kill(sig);
    } catch { /* it exited meanwhile */ }
  };
  return {
    status,
    exited: () => exited,
    async stop(graceMs = STOP_GRACE_MS) {
      signal("SIGTERM");
      const killer = setTimeout(() => signal("SIGKILL"), graceMs);
      try {
        return await status;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}
