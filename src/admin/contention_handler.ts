/**
 * `/contention` with `--enable-mutex-tracing`: `envoy.admin.v3.MutexStats` with every field
 * printed. JavaScript has no mutexes (one event loop per isolate; workers share memory only
 * through atomics the proxy does not wait on), so there is never contention: all three values are
 * `"0"`. Without the flag the router answers the explanation of `feature_gate.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CONTENTION_HANDLERS } from "./contention_handler.ts";
 * import { call, testContext } from "./testing_context.ts";
 * const res = await call(testContext(), "GET", "/contention", { handlers: CONTENTION_HANDLERS });
 * assert.equal(res.status, 200);
 * ```
 * @module
 */
import type { Handler } from "./types.ts";
import { jsonResponse } from "../config/proto_json.ts";

/** Handlers of this family, by path. */
export const CONTENTION_HANDLERS = {
  "/contention": () =>
    jsonResponse(
      { num_contentions: "0", current_wait_cycles: "0", lifetime_wait_cycles: "0" },
      { alwaysPrintPrimitives: true },
    ),
} satisfies Record<string, Handler>;
