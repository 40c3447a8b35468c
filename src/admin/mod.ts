/**
 * The admin interface as one plug for the server: {@linkcode ADMIN} builds the router from the
 * endpoint table, binds the admin listener where the bootstrap says, feeds the hystrix streams on
 * each stats flush and registers its shutdown work (streams, taps, profilers, the listener) on
 * the server context. `src/server/` imports nothing from here; the command line passes it in.
 *
 * @example Not run: it starts a whole server (listeners, clusters, admin, signals).
 * ```ts ignore
 * import { ADMIN } from "./mod.ts";
 * import { startServer } from "../server/server.ts";
 * const running = await startServer(options, bootstrap, { admin: ADMIN });
 * ```
 * @module
 */
import type { AdminHandle, AdminPlugin } from "../server/server.ts";
import type { ServerContext } from "../server/context.ts";
import { flushIntervalMs } from "../server/flush_timer.ts";
import { startAdminListener } from "./admin_listener.ts";
import { ADMIN_HANDLERS } from "./handlers.ts";
import { closeHystrixStreams, hystrixFlush } from "./hystrix_handler.ts";
import { stopProfilers } from "./profiling_handler.ts";
import { createAdminRouter } from "./router.ts";
import { adminRequestGuard } from "./request_guard.ts";
import { detachTap } from "./tap_handler.ts";

async function start(server: ServerContext): Promise<AdminHandle | null> {
  let listener: AdminHandle | null = null;
  const guard = adminRequestGuard(server, () => listener?.address);
  const route = createAdminRouter(server, { handlers: ADMIN_HANDLERS, guard });
  listener = await startAdminListener(
    server.bootstrap.admin,
    route,
    server.options.admin_address_path,
  );
  const windowMs = flushIntervalMs(server.bootstrap);
  // After the flush has closed the histogram intervals.
  const detachHystrix = server.stats.onFlush(() =>
    queueMicrotask(() => hystrixFlush(server, windowMs))
  );
  server.onShutdown(async () => {
    detachHystrix();
    closeHystrixStreams(server);
    detachTap(server);
    await stopProfilers(server);
  });
  return listener;
}

/** The admin interface, for {@linkcode startServer}'s `admin` setting. */
export const ADMIN: AdminPlugin = { start };
