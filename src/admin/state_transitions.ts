/**
 * The rows of the `admin.states` table, each tied to what implements it: a transition triggered
 * by an admin request names the admin path its trigger names (the path must be the trigger's and
 * a path of the endpoint table, so it has a handler in `ADMIN_HANDLERS`); a row without
 * an admin trigger names the module that derives the state. A new row without an entry here, or
 * an entry whose path is not its row's trigger, does not compile.
 *
 * @example
 * ```ts
 * import { STATE_TRANSITIONS } from "./state_transitions.ts";
 * STATE_TRANSITIONS["admin.states.healthcheck-fail"]; // { method: "POST", path: "/healthcheck/fail" }
 * ```
 * @module
 */
import type { RowId, RowOf, STATES } from "../../spec/mod.ts";
import type { EndpointPath } from "./handlers.ts";

/** The ID of a row of `admin.states`. */
export type StateId = RowId<typeof STATES>;

/** The method and path of a row's trigger when it is an admin request; `never` otherwise. */
type Trigger<I extends StateId> = RowOf<typeof STATES, I>["trigger"] extends
  `${infer M extends "GET" | "POST"} ${infer P}` ? { method: M; path: P & EndpointPath }
  : never;

/** What implements one row: its trigger's admin request, or the module that derives the state. */
export type StateImplementation<I extends StateId> = [Trigger<I>] extends [never]
  ? { module: string }
  : Trigger<I>;

/** Every row of `admin.states` and what implements it here. */
export const STATE_TRANSITIONS: { readonly [I in StateId]: StateImplementation<I> } = {
  "admin.states.recentlookups-enable": { method: "POST", path: "/stats/recentlookups/enable" },
  "admin.states.recentlookups-disable": { method: "POST", path: "/stats/recentlookups/disable" },
  "admin.states.recentlookups-clear": { method: "POST", path: "/stats/recentlookups/clear" },
  "admin.states.healthcheck-fail": { method: "POST", path: "/healthcheck/fail" },
  "admin.states.healthcheck-ok": { method: "POST", path: "/healthcheck/ok" },
  "admin.states.drain-listeners": { method: "POST", path: "/drain_listeners" },
  "admin.states.quitquitquit": { method: "POST", path: "/quitquitquit" },
  "admin.states.runtime-modify": { method: "POST", path: "/runtime_modify" },
  "admin.states.server-live-ready": { method: "GET", path: "/ready" },
  "admin.states.server-states-not-shown": { module: "src/server/state.ts" },
  "admin.states.host-health-not-shown": { module: "src/upstream/host.ts" },
};
