/**
 * The handler of every admin path, typed `Record<EndpointPath, Handler>` over the paths of the
 * endpoint table: a path of `spec/admin/endpoints.ts` without a handler does not compile.
 *
 * The rarer endpoints' modules (`/clusters`, `/config_dump`, `/listeners`, `/runtime`,
 * `/logging`, the profilers, `/hystrix_event_stream`, `/tap`) load on the first request to one of
 * their paths ({@linkcode RARE_HANDLERS}), so an idle proxy does not hold them: their text, with
 * its inline source map, is kept for the life of the process once loaded (about 0.6 MiB for
 * these). Their answers are the same; only the first request to one of them waits for its
 * module. `/ready`, `/server_info`, the health check switches, `/quitquitquit` and the stats
 * endpoints stay loaded from start-up.
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
import { LazyModule } from "../platform/lazy_module.ts";
import { HOME_HANDLERS } from "./home_handler.ts";
import { SERVER_INFO_HANDLERS } from "./server_info_handler.ts";
import { SERVER_CMD_HANDLERS } from "./server_cmd_handler.ts";
import { CONTENTION_HANDLERS } from "./contention_handler.ts";
import { STATS_MOUNT } from "./mount_stats.ts";
import type * as Clusters from "./clusters_handler.ts";
import type * as ConfigDump from "./config_dump_handler.ts";
import type * as Listeners from "./listeners_handler.ts";
import type * as Runtime from "./runtime_handler.ts";
import type * as Logging from "./logging_handler.ts";
import type * as Profiling from "./profiling_handler.ts";
import type * as Hystrix from "./hystrix_handler.ts";
import type * as Tap from "./tap_handler.ts";

/** Every path of the admin endpoint table. */
export type EndpointPath = (typeof ENDPOINTS)[number]["path"];

/** `src/admin/profiling_handler.ts`, loaded on the first `/cpuprofiler` or `/heapprofiler`. */
export const PROFILING: LazyModule<typeof Profiling> = new LazyModule(
  "src/admin/profiling_handler.ts",
  () => import("./profiling_handler.ts"),
);
/** `src/admin/hystrix_handler.ts`, loaded on the first `/hystrix_event_stream`. */
export const HYSTRIX: LazyModule<typeof Hystrix> = new LazyModule(
  "src/admin/hystrix_handler.ts",
  () => import("./hystrix_handler.ts"),
);
/** `src/admin/tap_handler.ts`, loaded on the first `/tap`. */
export const TAP: LazyModule<typeof Tap> = new LazyModule(
  "src/admin/tap_handler.ts",
  () => import("./tap_handler.ts"),
);

/**
 * Handlers for `paths` that call `pick(module)[path]` of a module loaded on first use: the first
 * call waits for the module, later ones call it directly.
 */
function onFirstUse<M, P extends string>(
  mod: LazyModule<M>,
  pick: (m: M) => Readonly<Record<P, Handler>>,
  paths: readonly P[],
): Record<P, Handler> {
  const out = {} as Record<P, Handler>;
  for (const p of paths) {
    out[p] = (req, server) =>
      mod.loaded
        ? pick(mod.get())[p](req, server)
        : mod.load().then((m) => pick(m)[p](req, server));
  }
  return out;
}

/** Paths of a handler family (the keys of its `*_HANDLERS` table). */
type PathsOf<T> = readonly (keyof T & string)[];

/** The rarer endpoints: the paths of each module loaded on first use, by module. */
export const RARE_HANDLERS = {
  clusters: ["/clusters"] satisfies PathsOf<typeof Clusters.CLUSTERS_HANDLERS>,
  config_dump: ["/config_dump", "/init_dump"] satisfies PathsOf<
    typeof ConfigDump.CONFIG_DUMP_HANDLERS
  >,
  listeners: ["/listeners", "/drain_listeners"] satisfies PathsOf<
    typeof Listeners.LISTENERS_HANDLERS
  >,
  runtime: ["/runtime", "/runtime_modify"] satisfies PathsOf<typeof Runtime.RUNTIME_HANDLERS>,
  logging: ["/logging", "/reopen_logs"] satisfies PathsOf<typeof Logging.LOGGING_HANDLERS>,
  profiling: ["/cpuprofiler", "/heapprofiler"] satisfies PathsOf<
    typeof Profiling.PROFILING_HANDLERS
  >,
  hystrix: ["/hystrix_event_stream"] satisfies PathsOf<typeof Hystrix.HYSTRIX_HANDLERS>,
  tap: ["/tap"] satisfies PathsOf<typeof Tap.TAP_HANDLERS>,
} as const;

const CLUSTERS = new LazyModule(
  "src/admin/clusters_handler.ts",
  () => import("./clusters_handler.ts"),
);
const CONFIG_DUMP = new LazyModule(
  "src/admin/config_dump_handler.ts",
  () => import("./config_dump_handler.ts"),
);
const LISTENERS = new LazyModule(
  "src/admin/listeners_handler.ts",
  () => import("./listeners_handler.ts"),
);
const RUNTIME = new LazyModule(
  "src/admin/runtime_handler.ts",
  () => import("./runtime_handler.ts"),
);
const LOGGING = new LazyModule(
  "src/admin/logging_handler.ts",
  () => import("./logging_handler.ts"),
);

const OWN = {
  ...HOME_HANDLERS,
  ...SERVER_INFO_HANDLERS,
  ...onFirstUse(CLUSTERS, (m) => m.CLUSTERS_HANDLERS, RARE_HANDLERS.clusters),
  ...onFirstUse(CONFIG_DUMP, (m) => m.CONFIG_DUMP_HANDLERS, RARE_HANDLERS.config_dump),
  ...onFirstUse(LISTENERS, (m) => m.LISTENERS_HANDLERS, RARE_HANDLERS.listeners),
  ...onFirstUse(RUNTIME, (m) => m.RUNTIME_HANDLERS, RARE_HANDLERS.runtime),
  ...onFirstUse(LOGGING, (m) => m.LOGGING_HANDLERS, RARE_HANDLERS.logging),
  ...SERVER_CMD_HANDLERS,
  ...onFirstUse(PROFILING, (m) => m.PROFILING_HANDLERS, RARE_HANDLERS.profiling),
  ...CONTENTION_HANDLERS,
  ...onFirstUse(HYSTRIX, (m) => m.HYSTRIX_HANDLERS, RARE_HANDLERS.hystrix),
  ...onFirstUse(TAP, (m) => m.TAP_HANDLERS, RARE_HANDLERS.tap),
  ...STATS_MOUNT,
} satisfies Record<EndpointPath, Handler>;

/** The handler of every admin path. */
export const ADMIN_HANDLERS: Readonly<Record<EndpointPath, Handler>> = OWN;
