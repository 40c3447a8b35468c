/**
 * Placeholder for the composition root: builds the stats store, runtime, cluster manager,
 * listener manager and admin listener, and runs the server-state lifecycle.
 *
 * @module
 */
import type { Options } from "../cli/options.ts";
import type { Bootstrap } from "../config/bootstrap_types.ts";

/** A running server. */
export interface RunningServer {
  /** Resolves with the exit code when the server has stopped. */
  finished: Promise<number>;
  shutdown(): Promise<void>;
}

/** Starts serving. */
export function startServer(_options: Options, _bootstrap: Bootstrap): Promise<RunningServer> {
  return Promise.reject(new Error("the server is not written yet"));
}
