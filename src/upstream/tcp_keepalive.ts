/**
 * `upstream_connection_options.tcp_keepalive`: turns on `SO_KEEPALIVE` and sets
 * `keepalive_time`, `keepalive_interval` and `keepalive_probes` (`TCP_KEEPIDLE`,
 * `TCP_KEEPINTVL`, `TCP_KEEPCNT`) on an upstream connection, as Envoy does.
 *
 * Deno only switches `SO_KEEPALIVE` and exposes no descriptor, so on Linux the socket's
 * descriptor is found by asking every descriptor of the process (`/proc/self/fd`) for its local
 * and peer address (`getsockname`, `getpeername`) through the C library, and the three options
 * are set with `setsockopt`. This runs once per new connection of a cluster that configures
 * them. Without FFI (or off Linux) only `SO_KEEPALIVE` is set and the kernel's defaults apply;
 * {@linkcode applyTcpKeepalive} says so in its result.
 *
 * @example Not run: it needs an upstream server to connect to (127.0.0.1:8080).
 * ```ts ignore
 * import { applyTcpKeepalive } from "./tcp_keepalive.ts";
 * const c = await Deno.connect({ hostname: "127.0.0.1", port: 8080 });
 * applyTcpKeepalive(c, { time: 60, interval: 10, probes: 3 }); // { tuned: true }
 * ```
 * @module
 */
import { libc } from "../platform/libc.ts";
import { socketDescriptor } from "../platform/socket_descriptor.ts";

/** The keepalive settings of a cluster (seconds, seconds, count). */
export interface TcpKeepalive {
  probes?: number;
  time?: number;
  interval?: number;
}

const IPPROTO_TCP = 6;
const TCP_KEEPIDLE = 4;
const TCP_KEEPINTVL = 5;
const TCP_KEEPCNT = 6;
function setInt(fd: number, opt: number, v: number): boolean {
  const c = libc()!;
  return c.symbols.setsockopt(fd, IPPROTO_TCP, opt, new Int32Array([v]), 4) === 0;
}

/**
 * Reads a TCP-level integer option of descriptor `fd` (for tests and diagnostics), or null.
 *
 * @example Not run: it needs the descriptor (`fd`) of an open TCP socket.
 * ```ts ignore
 * tcpOption(fd, "time"); // 60
 * ```
 */
export function tcpOption(fd: number, which: keyof TcpKeepalive): number | null {
  const c = libc();
  if (!c) return null;
  const v = new Int32Array(1);
  const len = new Uint32Array([4]);
  const opt = which === "time" ? TCP_KEEPIDLE : which === "interval" ? TCP_KEEPINTVL : TCP_KEEPCNT;
  return c.symbols.getsockopt(fd, IPPROTO_TCP, opt, v, len) === 0 ? v[0] : null;
}

/** What {@linkcode applyTcpKeepalive} could do. */
export interface KeepaliveResult {
  /** True when the configured time, interval and probes were set on the socket. */
  tuned: boolean;
  /** Why they were not (SO_KEEPALIVE is on either way). */
  reason?: string;
}

/** Turns keepalive on for `conn` with the settings of `k`. */
export function applyTcpKeepalive(conn: Deno.TcpConn, k: TcpKeepalive): KeepaliveResult {
  conn.setKeepAlive(true);
  return tuneTcpKeepalive(conn.localAddr as Deno.NetAddr, conn.remoteAddr as Deno.NetAddr, k);
}

/**
 * Sets the time, interval and probes of `k` on the socket connected from `local` to `remote`
 * (one whose `SO_KEEPALIVE` is already on, such as a `node:net` socket after `setKeepAlive`).
 */
export function tuneTcpKeepalive(
  local: Deno.NetAddr,
  remote: Deno.NetAddr,
  k: TcpKeepalive,
): KeepaliveResult {
  if (k.time === undefined && k.interval === undefined && k.probes === undefined) {
    return { tuned: true };
  }
  const fd = socketDescriptor(local, remote);
  if (fd < 0) {
    return { tuned: false, reason: "no socket descriptor reachable (needs Linux and FFI)" };
  }
  const ok = (k.time === undefined || setInt(fd, TCP_KEEPIDLE, k.time)) &&
    (k.interval === undefined || setInt(fd, TCP_KEEPINTVL, k.interval)) &&
    (k.probes === undefined || setInt(fd, TCP_KEEPCNT, k.probes));
  return ok ? { tuned: true } : { tuned: false, reason: "setsockopt failed" };
}
