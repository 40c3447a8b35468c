/**
 * The descriptor of a connected TCP socket, which Deno does not expose: on Linux, every
 * descriptor of the process (`/proc/self/fd`) is asked for its local and peer address
 * (`getsockname`, `getpeername`) through the C library until one matches. Used where a socket
 * option Deno has no API for must be read or set (TCP keepalive tuning, `SO_ORIGINAL_DST`); it
 * costs a system call or two per open descriptor, so callers use it once per connection and
 * only where the configuration asks for it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { socketDescriptor } from "./socket_descriptor.ts";
 * const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const c = await Deno.connect({ hostname: "127.0.0.1", port: (l.addr as Deno.NetAddr).port });
 * const s = await l.accept();
 * const fd = socketDescriptor(c.localAddr as Deno.NetAddr, c.remoteAddr as Deno.NetAddr);
 * assert.ok(fd === -1 || fd > 2); // -1 without FFI or off Linux
 * c.close(); s.close(); l.close();
 * ```
 * @module
 */
import { libc } from "./libc.ts";

const AF_INET = 2;
const AF_INET6 = 10;

/** The port and address of a `sockaddr_in`/`sockaddr_in6` in `b`, or null. */
export function sockaddr(b: Uint8Array): { port: number; address: string } | null {
  const family = b[0] | (b[1] << 8);
  const port = (b[2] << 8) | b[3];
  if (family === AF_INET) return { port, address: `${b[4]}.${b[5]}.${b[6]}.${b[7]}` };
  if (family !== AF_INET6) return null;
  const parts: string[] = [];
  for (let i = 8; i < 24; i += 2) parts.push(((b[i] << 8) | b[i + 1]).toString(16));
  return { port, address: parts.join(":") };
}

/** Whether an address as the kernel's sockaddr gives it and one as Deno prints it are the same. */
export function sameAddress(kernel: string, deno: string): boolean {
  if (kernel === deno) return true;
  // IPv6 text forms differ (zero compression, IPv4-mapped): compare through URL parsing.
  try {
    return new URL(`http://[${kernel}]/`).hostname === new URL(`http://[${deno}]/`).hostname;
  } catch {
    return false;
  }
}

/**
 * The descriptor of the connected TCP socket with these local and remote addresses, or -1
 * (not Linux, no FFI, or not found).
 */
export function socketDescriptor(local: Deno.NetAddr, remote: Deno.NetAddr): number {
  const c = libc();
  if (!c) return -1;
  let names: number[];
  try {
    names = [...Deno.readDirSync("/proc/self/fd")].map((e) => Number(e.name));
  } catch {
    return -1;
  }
  const buf = new Uint8Array(128);
  const len = new Uint32Array(1);
  // Newest descriptors are most often the highest: look there first.
  names.sort((a, b) => b - a);
  for (const fd of names) {
    if (!Number.isInteger(fd)) continue;
    len[0] = buf.length;
    if (c.symbols.getsockname(fd, buf, len) !== 0) continue;
    const l = sockaddr(buf);
    if (l === null || l.port !== local.port || !sameAddress(l.address, local.hostname)) continue;
    len[0] = buf.length;
    if (c.symbols.getpeername(fd, buf, len) !== 0) continue;
    const r = sockaddr(buf);
    if (r !== null && r.port === remote.port && sameAddress(r.address, remote.hostname)) return fd;
  }
  return -1;
}

const SOL_IP = 0;
const SOL_IPV6 = 41;
/** `SO_ORIGINAL_DST` (linux/netfilter_ipv4.h) and `IP6T_SO_ORIGINAL_DST` share the number. */
const SO_ORIGINAL_DST = 80;

/**
 * The destination a client originally addressed before netfilter redirected its connection to
 * this socket (`SO_ORIGINAL_DST`, `IP6T_SO_ORIGINAL_DST`), as Envoy's `original_dst` listener
 * filter reads it; null when the connection was not redirected (no NAT entry), or the socket
 * cannot be reached (not Linux, no FFI).
 */
export function originalDestination(
  local: Deno.NetAddr,
  remote: Deno.NetAddr,
): Deno.NetAddr | null {
  const c = libc();
  if (!c) return null;
  const fd = socketDescriptor(local, remote);
  if (fd < 0) return null;
  const v6 = local.hostname.includes(":");
  const buf = new Uint8Array(v6 ? 28 : 16);
  const len = new Uint32Array([buf.length]);
  if (c.symbols.getsockopt(fd, v6 ? SOL_IPV6 : SOL_IP, SO_ORIGINAL_DST, buf, len) !== 0) {
    return null;
  }
  const a = sockaddr(buf);
  return a === null ? null : { transport: "tcp", hostname: a.address, port: a.port };
}
