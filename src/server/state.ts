/**
 * The server state: PRE_INITIALIZING → INITIALIZING (clusters and listeners starting) → LIVE,
 * shown as DRAINING while health checks are failed by `/healthcheck/fail` or the server is
 * draining (Envoy's `serverState`: an initialized server is DRAINING when health checks fail).
 * The numbers are `envoy.admin.v3.ServerInfo.State`'s, which the `server.state` gauge holds.
 *
 * @example
 * ```ts
 * import { ServerStateMachine } from "./state.ts";
 * const s = new ServerStateMachine();
 * s.initializing();
 * s.live();
 * s.state(false); // "LIVE"
 * s.state(true); // "DRAINING"
 * ```
 * @module
 */
import type { ServerState } from "./context.ts";

/** `ServerInfo.State` enum numbers. */
export const STATE_NUMBER: Readonly<Record<ServerState, number>> = {
  LIVE: 0,
  DRAINING: 1,
  PRE_INITIALIZING: 2,
  INITIALIZING: 3,
};

/** Tracks the start-up phase and draining; computes the visible state. */
export class ServerStateMachine {
  #phase: "PRE_INITIALIZING" | "INITIALIZING" | "LIVE" = "PRE_INITIALIZING";
  #draining = false;

  /** Clusters and listeners are starting. */
  initializing(): void {
    if (this.#phase === "PRE_INITIALIZING") this.#phase = "INITIALIZING";
  }

  /** Start-up finished. */
  live(): void {
    this.#phase = "LIVE";
  }

  /** The server drains (shutdown or a drain sequence): it shows DRAINING from now on. */
  startDraining(): void {
    this.#draining = true;
  }

  /** Whether start-up has finished. */
  get initialized(): boolean {
    return this.#phase === "LIVE";
  }

  /** The visible state, given whether health checks are failed by the admin. */
  state(healthCheckFailed: boolean): ServerState {
    if (this.#phase !== "LIVE") return this.#phase;
    return healthCheckFailed || this.#draining ? "DRAINING" : "LIVE";
  }
}
