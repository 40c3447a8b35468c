/**
 * Table `admin.states`: the eight transitions of the specification's States and transitions
 * table, the server-state sentence (`LIVE` makes `GET /ready` answer 200), and rows for the
 * transitions the specification says it does not show.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STATES } from "./states.ts";
 * const byTrigger = new Map(STATES.map((r) => [r.trigger, r.to]));
 * assert.equal(byTrigger.get("POST /stats/recentlookups/enable"), "enabled");
 * ```
 * @module
 */
import type { StateRow } from "../rule.ts";

/** Rows of the `admin.states` table. */
export const STATES = [
  {
    id: "admin.states.recentlookups-enable",
    level: "MUST",
    statement:
      "POST /stats/recentlookups/enable turns recent-lookup collection on; while it was off only the lookup count accumulated.",
    cite: {
      section: "States and transitions",
      quote: "Only the lookup count accumulates while disabled; names are kept once enabled.",
    },
    envoy:
      "Real Envoy starts disabled and answers `Lookup tracking is not enabled. Use /stats/recentlookups/enable to enable.` followed by `total: N`.",
    check: "black-box",
    from: "Recent-lookup collection disabled (initial)",
    trigger: "POST /stats/recentlookups/enable",
    condition: "none",
    to: "enabled",
    effects: "Only the lookup count accumulates while disabled; names are kept once enabled.",
  },
  {
    id: "admin.states.recentlookups-disable",
    level: "MUST",
    statement:
      "POST /stats/recentlookups/disable turns collection off and clears the list, while `server.stats_recent_lookups` keeps accumulating.",
    cite: {
      section: "States and transitions",
      quote: "Recent lookups list cleared; stat `server.stats_recent_lookups` keeps accumulating.",
    },
    check: "black-box",
    from: "Recent-lookup collection enabled",
    trigger: "POST /stats/recentlookups/disable",
    condition: "none",
    to: "disabled",
    effects: "Recent lookups list cleared; stat `server.stats_recent_lookups` keeps accumulating.",
  },
  {
    id: "admin.states.recentlookups-clear",
    level: "MUST",
    statement:
      "POST /stats/recentlookups/clear clears the lookups and their counts and leaves collection enabled.",
    cite: {
      section: "States and transitions",
      quote: "POST /stats/recentlookups/clear | none | enabled | Lookups and counts cleared.",
    },
    check: "black-box",
    from: "Recent-lookup collection enabled",
    trigger: "POST /stats/recentlookups/clear",
    condition: "none",
    to: "enabled",
    effects: "Lookups and counts cleared.",
  },
  {
    id: "admin.states.healthcheck-fail",
    level: "MUST",
    statement:
      "POST /healthcheck/fail makes the HTTP health check filter fail every inbound health check, whatever its mode.",
    cite: {
      section: "States and transitions",
      quote: "Fails all health check requests regardless of filter mode.",
    },
    envoy:
      "Real Envoy also reports state DRAINING in /server_info and answers /ready with 503 `DRAINING` while failed.",
    check: "fixture:health-check-filter",
    from: "Inbound health checks pass as configured",
    trigger: "POST /healthcheck/fail",
    condition: "HTTP health check filter in use",
    to: "inbound health checks fail",
    effects: "Fails all health check requests regardless of filter mode.",
  },
  {
    id: "admin.states.healthcheck-ok",
    level: "MUST",
    statement:
      "POST /healthcheck/ok returns the HTTP health check filter to its configured behaviour.",
    cite: { section: "States and transitions", quote: "Negates the effect of /healthcheck/fail." },
    check: "fixture:health-check-filter",
    from: "Inbound health checks failing by admin request",
    trigger: "POST /healthcheck/ok",
    condition: "HTTP health check filter in use",
    to: "back to filter-configured behaviour",
    effects: "Negates the effect of /healthcheck/fail.",
  },
  {
    id: "admin.states.drain-listeners",
    level: "MUST",
    statement:
      "POST /drain_listeners stops the matched listeners on the workers, after a graceful drain period with `graceful`, and afterwards no listener of that direction can be added or modified.",
    cite: {
      section: "States and transitions",
      quote:
        "Once listeners of a direction are stopped, additions and modifications of listeners in that direction are not allowed.",
    },
    check: "black-box",
    from: "Listeners active",
    trigger: "POST /drain_listeners",
    condition: "optional `inboundonly`, optional `graceful`",
    to: "matched listeners stopped on workers (with graceful: after a graceful drain period first)",
    effects:
      "Once listeners of a direction are stopped, additions and modifications of listeners in that direction are not allowed.",
  },
  {
    id: "admin.states.quitquitquit",
    level: "MUST",
    statement: "POST /quitquitquit makes the server exit cleanly.",
    cite: { section: "States and transitions", quote: "server exits | Clean exit." },
    check: "black-box",
    from: "Server running",
    trigger: "POST /quitquitquit",
    condition: "none",
    to: "server exits",
    effects: "Clean exit.",
  },
  {
    id: "admin.states.runtime-modify",
    level: "MUST",
    statement:
      "POST /runtime_modify overrides a key in the admin layer, and an empty value deletes only an override the admin layer added.",
    cite: {
      section: "States and transitions",
      quote: "Empty value deletes an admin-added override only.",
    },
    check: "black-box",
    from: "Runtime key absent or from disk",
    trigger: "POST /runtime_modify",
    condition: "key with value",
    to: "key overridden in the admin layer",
    effects: "Empty value deletes an admin-added override only.",
  },
  {
    id: "admin.states.server-live-ready",
    level: "MUST",
    statement: "While the server info `state` is `LIVE`, GET /ready answers 200.",
    cite: {
      section: "States and transitions",
      quote:
        "the `state` field of the server info has the value `LIVE` that makes GET /ready answer 200",
    },
    check: "black-box",
    from: "LIVE",
    trigger: "GET /ready",
    condition: "state is LIVE",
    to: "LIVE",
    effects: "GET /ready answers 200 with the state as text.",
  },
  {
    id: "admin.states.server-states-not-shown",
    level: "MAY",
    statement:
      "The other server states and the moves between them are not specified; this implementation uses real Envoy's PRE_INITIALIZING, INITIALIZING, LIVE and DRAINING.",
    cite: {
      section: "States and transitions",
      quote: "other values of state and the transitions between server states: not shown",
    },
    envoy:
      "Real Envoy: PRE_INITIALIZING before init, INITIALIZING while waiting for clusters and listeners, LIVE once initialized, DRAINING when health checks are failed; /ready answers 503 for all but LIVE.",
    check: "internal",
    from: "PRE_INITIALIZING",
    trigger: "start-up",
    condition: "not shown",
    to: "INITIALIZING, LIVE or DRAINING",
    effects: "not shown",
  },
  {
    id: "admin.states.host-health-not-shown",
    level: "MAY",
    statement:
      "The transitions of host health between healthy and the failing states are not specified.",
    cite: {
      section: "States and transitions",
      quote: "Transitions of host health between healthy and the failing states: not shown.",
    },
    check: "internal",
    from: "healthy",
    trigger: "health check, EDS or outlier detection result",
    condition: "not shown",
    to: "/failed_active_hc, /failed_eds_health or /failed_outlier_check",
    effects: "not shown",
  },
] as const satisfies readonly StateRow[];
