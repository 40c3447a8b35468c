/**
 * Steering a `SO_REUSEPORT` group's new connections with a classic BPF program (Linux,
 * `SO_ATTACH_REUSEPORT_CBPF`), through the C library (`libc.ts`), so a hot restart resets no
 * connection even with `net.ipv4.tcp_migrate_req` at 0.
 *
 * The kernel keeps a group's listening sockets in an array in the order they joined (the
 * parent's P sockets at 0..P-1, the child's C appended at P..P+C-1); a program attached to any
 * member's descriptor chooses the array index of the socket that takes each new connection, and
 * an index beyond the array falls back to the kernel's hash. A socket that leaves the group is
 * replaced by the array's last one (`net/core/sock_reuseport.c`, `__reuseport_detach_sock`).
 * Hence:
 * - while the parent drains, {@linkcode spreadProgram} sends every new connection to one of the
 *   child's sockets (P + random mod C), so the parent's accept queues only empty;
 * - just before the parent closes its sockets, {@linkcode pinProgram} sends them all to index
 *   P: with C >= P that slot holds a child's socket through every close, whatever their order,
 *   until no parent socket is left (then it is past the end: the hash, over the child's only);
 * - once the parent's sockets have left, the child detaches the program and the kernel's hash
 *   spreads over its sockets again.
 *
 * Every function returns a failure as a value (no FFI, not Linux, an old kernel): callers log
 * it and keep today's behaviour.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listeningDescriptors, spreadProgram } from "./reuseport_steering.ts";
 * assert.equal(spreadProgram(2, 2).length, 4 * 8); // four 8-byte instructions
 * const l = Deno.listen({ hostname: "127.0.0.1", port: 0, reusePort: true });
 * const fds = listeningDescriptors("127.0.0.1", (l.addr as Deno.NetAddr).port);
 * assert.ok(fds.length === 1 || fds.length === 0); // 0 without FFI or off Linux
 * l.close();
 * ```
 * @module
 */
import { libc } from "./libc.ts";
import { sameAddress, sockaddr } from "./socket_descriptor.ts";

const SOL_SOCKET = 1;
const SO_ACCEPTCONN = 30;
/** `SO_ATTACH_REUSEPORT_CBPF` (asm-generic/socket.h, Linux 4.5). */
export const SO_ATTACH_REUSEPORT_CBPF = 51;
/** `SO_DETACH_REUSEPORT_BPF` (asm-generic/socket.h, Linux 5.3). */
export const SO_DETACH_REUSEPORT_BPF = 68;

/** Classic BPF opcodes (linux/bpf_common.h, linux/filter.h). */
const BPF_LD_W_ABS = 0x00 | 0x00 | 0x20;
const BPF_ALU_MOD_K = 0x04 | 0x90 | 0x00;
const BPF_ALU_ADD_K = 0x04 | 0x00 | 0x00;
const BPF_RET_A = 0x06 | 0x10;
const BPF_RET_K = 0x06 | 0x00;
/** `SKF_AD_OFF + SKF_AD_RANDOM`: an ancillary load of a fresh random 32-bit number. */
const SKF_AD_RANDOM = (-0x1000 + 56) >>> 0;

function program(insns: Array<[number, number]>): Uint8Array {
  const b = new Uint8Array(insns.length * 8);
  const v = new DataView(b.buffer);
  insns.forEach(([code, k], i) => {
    v.setUint16(i * 8, code, true); // jt, jf stay 0
    v.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return b;
}

/**
 * The program that picks index `first + random mod count` (`struct sock_filter[]`, host byte
 * order, little-endian as on every Linux architecture Deno runs on).
 */
export function spreadProgram(first: number, count: number): Uint8Array {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count ${count} is not >= 1`);
  return program([
    [BPF_LD_W_ABS, SKF_AD_RANDOM],
    [BPF_ALU_MOD_K, count],
    [BPF_ALU_ADD_K, first],
    [BPF_RET_A, 0],
  ]);
}

/** The program that picks index `index` for every connection. */
export function pinProgram(index: number): Uint8Array {
  return program([[BPF_RET_K, index]]);
}

/** Where a group's listening sockets are bound (a Deno hostname and port). */
export interface GroupAddress {
  address: string;
  port: number;
}

/** A request to pin a group to one index before this process's sockets in it close. */
export interface ReuseportPin extends GroupAddress {
  index: number;
}

/** The kernel's `/proc/net/tcp{,6}` form of a bound address (`0100007F:1F90`), from a sockaddr. */
function procAddress(b: Uint8Array): string | null {
  const family = b[0] | (b[1] << 8);
  const hex = (i: number) => b[i].toString(16).toUpperCase().padStart(2, "0");
  const port = ((b[2] << 8) | b[3]).toString(16).toUpperCase().padStart(4, "0");
  // Each 32-bit word of the address is printed as a host-order (little-endian) number.
  const words = family === 2 ? [4] : family === 10 ? [8, 12, 16, 20] : null;
  if (words === null) return null;
  return words.map((o) => hex(o + 3) + hex(o + 2) + hex(o + 1) + hex(o)).join("") + ":" + port;
}

/** This process's listening TCP sockets bound to exactly `address`:`port` (none without FFI). */
export function listeningDescriptors(address: string, port: number): number[] {
  return listening(address, port).map((s) => s.fd);
}

function listening(address: string, port: number): Array<{ fd: number; proc: string }> {
  const c = libc();
  if (!c) return [];
  let names: number[];
  try {
    names = [...Deno.readDirSync("/proc/self/fd")].map((e) => Number(e.name));
  } catch {
    return [];
  }
  const buf = new Uint8Array(128);
  const len = new Uint32Array(1);
  const flag = new Int32Array(1);
  const out: Array<{ fd: number; proc: string }> = [];
  for (const fd of names.sort((a, b) => a - b)) {
    if (!Number.isInteger(fd)) continue;
    len[0] = buf.length;
    if (c.symbols.getsockname(fd, buf, len) !== 0) continue;
    const a = sockaddr(buf);
    if (a === null || a.port !== port || !sameAddress(a.address, address)) continue;
    len[0] = 4;
    const asBytes = new Uint8Array(flag.buffer);
    if (c.symbols.getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, asBytes, len) !== 0) continue;
    const proc = procAddress(buf);
    if (flag[0] === 1 && proc !== null) out.push({ fd, proc });
  }
  return out;
}

/**
 * How many sockets of any process in this network namespace listen on exactly
 * `address`:`port` (the members of its reuseport group), from `/proc/net/tcp{,6}`; null when
 * this process has no socket there or Linux does not show it.
 */
export function groupSize(address: string, port: number): number | null {
  const own = listening(address, port);
  if (own.length === 0) return null;
  const key = own[0].proc;
  let text: string;
  try {
    text = Deno.readTextFileSync(key.length > 13 ? "/proc/net/tcp6" : "/proc/net/tcp");
  } catch {
    return null;
  }
  let n = 0;
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f[1] === key && f[3] === "0A") n++;
  }
  return n;
}

/** The result of a steering call: ok, or why not. */
export type SteeringResult = { ok: true } | { ok: false; reason: string };

function errno(): string {
  const c = libc();
  const p = c?.symbols.__errno_location();
  if (!p) return "unknown error";
  const n = new Deno.UnsafePointerView(p).getInt32();
  const names: Record<number, string> = {
    1: "EPERM",
    9: "EBADF",
    12: "ENOMEM",
    22: "EINVAL",
    92: "ENOPROTOOPT",
  };
  return `errno ${n}${names[n] ? ` (${names[n]})` : ""}`;
}

/** Attaches `prog` (a {@linkcode spreadProgram} or {@linkcode pinProgram}) to `fd`'s group. */
export function attachProgram(fd: number, prog: Uint8Array): SteeringResult {
  const c = libc();
  if (!c) return { ok: false, reason: "the C library cannot be used (FFI, Linux)" };
  const fprog = new Uint8Array(16); // struct sock_fprog: u16 len, padding, pointer
  const v = new DataView(fprog.buffer);
  v.setUint16(0, prog.length / 8, true);
  v.setBigUint64(8, BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(prog))), true);
  if (c.symbols.setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, fprog, 16) === 0) {
    return { ok: true };
  }
  return { ok: false, reason: `setsockopt(SO_ATTACH_REUSEPORT_CBPF): ${errno()}` };
}

/**
 * Removes the program of `fd`'s group. Where the kernel has no `SO_DETACH_REUSEPORT_BPF`
 * (before 5.3), attaches one that returns an index past any group instead: the hash decides.
 */
export function detachProgram(fd: number): SteeringResult {
  const c = libc();
  if (!c) return { ok: false, reason: "the C library cannot be used (FFI, Linux)" };
  const none = new Uint8Array(4);
  if (c.symbols.setsockopt(fd, SOL_SOCKET, SO_DETACH_REUSEPORT_BPF, none, 4) === 0) {
    return { ok: true };
  }
  return attachProgram(fd, pinProgram(0xffff_ffff));
}

/**
 * Attaches {@linkcode pinProgram}`(pin.index)` to the group of this process's sockets at
 * `pin.address`:`pin.port`.
 */
export function pinGroup(pin: ReuseportPin): SteeringResult {
  // The program is the group's, set through any of its sockets: another worker of this process
  // may be closing its own socket of the group meanwhile (EBADF), so each one is tried in turn.
  let result: SteeringResult = { ok: false, reason: "no listening socket of this process there" };
  for (const fd of listeningDescriptors(pin.address, pin.port)) {
    result = attachProgram(fd, pinProgram(pin.index));
    if (result.ok) break;
  }
  return result;
}
