/**
 * What an endpoint answers when the optional feature it needs is absent from the process. The
 * specification says such endpoints are "available only when the feature is present" and does
 * not show the status codes; these choices follow real Envoy:
 *
 * - `mutex_tracing` (`/contention`): 200 with a text explaining how to enable tracing.
 * - `cpu_profiler` (`/cpuprofiler`): 500 `failure to start the profiler` (Envoy without gperftools).
 * - `heap_profiler` (`/heapprofiler`): 501 `The current build does not support heap profiler`.
 * - `dashboard_sink` (`/hystrix_event_stream`) and `tap` (`/tap`): the path is not registered,
 *   so it answers like any unknown path (404 with the help text) and is left out of `/help`.
 * - `health_check_filter` (`/healthcheck/*`): Envoy always registers these and they always
 *   work (the flag also drives `/ready` and the server state), so the handler runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ABSENT_FEATURE } from "./feature_gate.ts";
 * assert.deepEqual(ABSENT_FEATURE.heap_profiler, {
 *   kind: "answer",
 *   status: 501,
 *   body: "The current build does not support heap profiler",
 * });
 * ```
 * @module
 */
import type { Feature } from "../../spec/rule.ts";

/** The behaviour of a path whose feature is missing. */
export type AbsentBehaviour =
  | { kind: "answer"; status: number; body: string }
  | { kind: "unregistered" }
  | { kind: "run" };

/** Behaviour per feature when it is absent. */
export const ABSENT_FEATURE: Readonly<Record<Feature, AbsentBehaviour>> = {
  mutex_tracing: {
    kind: "answer",
    status: 200,
    body:
      "Mutex contention tracing is not enabled. To enable, run the proxy with flag --enable-mutex-tracing.",
  },
  cpu_profiler: { kind: "answer", status: 500, body: "failure to start the profiler" },
  heap_profiler: {
    kind: "answer",
    status: 501,
    body: "The current build does not support heap profiler",
  },
  dashboard_sink: { kind: "unregistered" },
  tap: { kind: "unregistered" },
  health_check_filter: { kind: "run" },
};

/** Whether a path with this feature requirement is visible (registered) in this process. */
export function isRegistered(requires: Feature | undefined, features: ReadonlySet<Feature>) {
  return !requires || features.has(requires) || ABSENT_FEATURE[requires].kind !== "unregistered";
}
