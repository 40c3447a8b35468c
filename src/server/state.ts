/**
 * The server state, derived as Envoy's `serverState` does from the init managers: Uninitialized
 * -> PRE_INITIALIZING, Initializing (some target not ready) -> INITIALIZING, Initialized -> LIVE,
 * shown as DRAINING while health checks are failed by `/healthcheck/fail` or the server is
 * draining. The `server.state` gauge holds the `ServerInfo.State` number
 * (`SERVER_STATE_NUMBERS` in `src/stats/server_stats.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InitManagers } from "./init_manager.ts";
 * import { ServerStateMachine } from "./state.ts";
 * const init = new InitManagers();
 * const s = new ServerStateMachine(init);
 * assert.equal(s.state(false), "PRE_INITIALIZING");
 * init.initialize(() => {});
 * assert.equal(s.state(false), "LIVE");
 * assert.equal(s.state(true), "DRAINING");
 * ```
 * @module
 */
import type { ServerState } from "./context.ts";
import type { InitState } from "./init_manager.ts";

const PHASE: Readonly<Record<InitState, ServerState>> = {
  Uninitialized: "PRE_INITIALIZING",
  Initializing: "INITIALIZING",
  Initialized: "LIVE",
};

/** Computes the visible state from the start-up state and draining. */
export class ServerStateMachine {
  #draining = false;

  /** `init`: where start-up is (an `InitManagers`, or one `InitManager`). */
  constructor(readonly init: { readonly state: InitState }) {}

  /** The server drains (shutdown or a drain sequence): it shows DRAINING from now on. */
  startDraining(): void {
    this.#draining = true;
  }

  /** The visible state, given whether health checks are failed by the admin. */
  state(healthCheckFailed: boolean): ServerState {
    const phase = PHASE[this.init.state];
    if (phase !== "LIVE") return phase;
    return healthCheckFailed || this.#draining ? "DRAINING" : "LIVE";
  }
}
