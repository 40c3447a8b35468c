/**
 * The handler of every admin path, typed `Record<EndpointPath, Handler>` over the paths of the
 * endpoint table: a path of `spec/admin/endpoints.ts` without a handler does not compile.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ADMIN_HANDLERS } from "./handlers.ts";
 * import { createAdminRouter } from "./router.ts";
 * import { testContext } from "./testing_context.ts";
 * const route = createAdminRouter(testContext(), { handlers: ADMIN_HANDLERS });
 * const res = await route(new Request("http://127.0.0.1/server_info"));
 * assert.equal(res.headers.get("content-type"), "application/json");
 * ```
 * @module
 */
import type { ENDPOINTS } from "../../spec/admin/endpoints.ts";
import type { Handler } from "./types.ts";
import { HOME_HANDLERS } from "./home_handler.ts";
import { SERVER_INFO_HANDLERS } from "./server_info_handler.ts";
import { CLUSTERS_HANDLERS } from "./clusters_handler.ts";
import { CONFIG_DUMP_HANDLERS } from "./config_dump_handler.ts";
import { LISTENERS_HANDLERS } from "./listeners_handler.ts";
import { RUNTIME_HANDLERS } from "./runtime_handler.ts";
import { LOGGING_HANDLERS } from "./logging_handler.ts";
import { SERVER_CMD_HANDLERS } from "./server_cmd_handler.ts";
import { PROFILING_HANDLERS } from "./profiling_handler.ts";
import { CONTENTION_HANDLERS } from "./contention_handler.ts";
import { HYSTRIX_HANDLERS } from "./hystrix_handler.ts";
import { TAP_HANDLERS } from "./tap_handler.ts";
import { STATS_MOUNT } from "./mount_stats.ts";

/** Every path of the endpoint table. */
export type EndpointPath = (typeof ENDPOINTS)[number]["path"];

const OWN = {
  ...HOME_HANDLERS,
  ...SERVER_INFO_HANDLERS,
  ...CLUSTERS_HANDLERS,
  ...CONFIG_DUMP_HANDLERS,
  ...LISTENERS_HANDLERS,
  ...RUNTIME_HANDLERS,
  ...LOGGING_HANDLERS,
  ...SERVER_CMD_HANDLERS,
  ...PROFILING_HANDLERS,
  ...CONTENTION_HANDLERS,
  ...HYSTRIX_HANDLERS,
  ...TAP_HANDLERS,
  ...STATS_MOUNT,
} satisfies Record<EndpointPath, Handler>;

/** The handler of every admin path. */
export const ADMIN_HANDLERS: Readonly<Record<EndpointPath, Handler>> = OWN;
