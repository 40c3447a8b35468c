/**
 * `/quitquitquit` (answers `OK\n`, then shuts the server down cleanly: listeners closed, exit 0),
 * `/healthcheck/fail` and `/healthcheck/ok` (`OK\n`; set `server.healthCheckFailed`, which the
 * HTTP health check filter reads and which makes the state DRAINING, so `/ready` answers 503
 * `DRAINING` as in Envoy; the specification's States table is silent about `/ready` there).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SERVER_CMD_HANDLERS } from "./server_cmd_handler.ts";
 * import { call, testContext } from "./testing_context.ts";
 * const server = testContext();
 * await call(server, "POST", "/healthcheck/fail", { handlers: SERVER_CMD_HANDLERS });
 * assert.equal(server.healthCheckFailed, true);
 * ```
 * @module
 */
import type { Handler } from "./types.ts";
import { textResponse } from "../config/proto_json.ts";

/** Handlers of this family, by path. */
export const SERVER_CMD_HANDLERS = {
  "/quitquitquit": (_req, server) => {
    // Let the answer go out first; the admin listener finishes in-flight responses on close.
    setTimeout(() => {
      server.shutdown().catch((e) => console.error(`shutdown failed: ${e}`));
    }, 0);
    return textResponse("OK\n");
  },
  "/healthcheck/fail": (_req, server) => {
    server.healthCheckFailed = true;
    return textResponse("OK\n");
  },
  "/healthcheck/ok": (_req, server) => {
    server.healthCheckFailed = false;
    return textResponse("OK\n");
  },
} satisfies Record<string, Handler>;
