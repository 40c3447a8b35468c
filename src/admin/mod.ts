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
import { ADMIN_HANDLERS, HYSTRIX, PROFILING, TAP } from "./handlers.ts";
import { createAdminRouter } from "./router.ts";
import { adminRequestGuard } from "./request_guard.ts";
import { loggedAdminRoute, parseAdminAccessLogs } from "../access_log/admin_access_log.ts";
import { AccessLogFiles } from "../access_log/access_log_file.ts";
import { parseHeaderMatcher } from "../router/header_matcher.ts";
import type { Json } from "../config/bootstrap_types.ts";

async function start(server: ServerContext): Promise<AdminHandle | null> {
  let listener: Awaited<ReturnType<typeof startAdminListener>> = null;
  const guard = adminRequestGuard(server, () => listener?.address);
  const route = createAdminRouter(server, { handlers: ADMIN_HANDLERS, guard });
  // The configuration check has reported any error in these already.
  const logs = parseAdminAccessLogs(server.bootstrap.admin as Json, [], parseHeaderMatcher);
  const files = new AccessLogFiles(
    server.options.file_flush_interval_msec,
    (msg) => server.logging.log("admin", "error", msg),
  );
  const hostname = server.bootstrap.admin?.address?.socket_address?.address || "127.0.0.1";
  let local: Deno.NetAddr = { transport: "tcp", hostname, port: 0 };
  listener = await startAdminListener(
    server.bootstrap.admin,
    loggedAdminRoute(route, logs, files, { local: () => local }, server.runtime),
    server.options.admin_address_path,
  );
  if (listener) local = { ...local, port: listener.port };
  server.onShutdown(() => files.close());
  const windowMs = flushIntervalMs(server.bootstrap);
  // After the flush has closed the histogram intervals. The hystrix, tap and profiling modules
  // load on their endpoint's first request: until then there is no stream, tap or profiler.
  const detachHystrix = server.stats.onFlush(() => {
    if (HYSTRIX.loaded) queueMicrotask(() => HYSTRIX.get().hystrixFlush(server, windowMs));
  });
  server.onShutdown(async () => {
    detachHystrix();
    if (HYSTRIX.loaded) HYSTRIX.get().closeHystrixStreams(server);
    if (TAP.loaded) TAP.get().detachTap(server);
    if (PROFILING.loaded) await PROFILING.get().stopProfilers(server);
  });
  return listener;
}

/** The admin interface, for {@linkcode startServer}'s `admin` setting. */
export const ADMIN: AdminPlugin = { start };
