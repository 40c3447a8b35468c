/**
 * Whether the Linux kernel moves the connections waiting in a closed listening socket's accept
 * queue to another socket of its `SO_REUSEPORT` group (`net.ipv4.tcp_migrate_req`, Linux 5.14
 * and later), instead of resetting them. A hot restart needs it only where it cannot steer new
 * connections away from the parent's sockets before they close (`reuseport_steering.ts`: no
 * FFI, not Linux, fewer workers in the new process than in the old): Deno cannot hand a
 * listening socket to another process (no way to adopt a descriptor received by `SCM_RIGHTS`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tcpMigrateReq } from "./tcp_migrate_req.ts";
 * assert.ok([true, false, null].includes(tcpMigrateReq()));
 * ```
 * @module
 */

/** Where Linux shows the setting (per network namespace). */
export const TCP_MIGRATE_REQ_PATH = "/proc/sys/net/ipv4/tcp_migrate_req";

/** The setting read from `path`: true (1), false (0), or null when there is none to read. */
export function tcpMigrateReq(path: string = TCP_MIGRATE_REQ_PATH): boolean | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path).trim();
  } catch {
    return null;
  }
  if (text === "1") return true;
  if (text === "0") return false;
  return null;
}
