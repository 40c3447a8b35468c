/**
 * What is wrong with a host's port, in words that say why: a Unix domain socket (pipe) host,
 * which has no port because this build connects over TCP only, is told so rather than that its
 * port is invalid.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostPortProblem } from "./host_port_problem.ts";
 * assert.equal(hostPortProblem("10.0.0.1", 80), null);
 * assert.match(hostPortProblem("/tmp/s.sock", 0)!, /Unix domain socket/);
 * assert.match(hostPortProblem("10.0.0.1", 0)!, /port 0 is not valid/);
 * ```
 * @module
 */

/** Null when `port` is a usable TCP port; otherwise the message for host `address`. */
export function hostPortProblem(address: string, port: number): string | null {
  if (port > 0 && port < 65536) return null;
  if (address.startsWith("/") || address.startsWith("@")) {
    return `host ${address} is a Unix domain socket (pipe); this build connects over TCP only`;
  }
  return `host ${address}: port ${port} is not valid (1 to 65535)`;
}
