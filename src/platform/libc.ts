/**
 * The few C library calls the process needs that Deno has no API for, through Deno's FFI
 * (`Deno.dlopen` of `libc.so.6`): `prctl` (dumpable flag), `getrlimit`/`setrlimit` (core file
 * size), `gettid` (the `%t` log flag), `sched_getaffinity` (`--cpuset-threads`),
 * `get_nprocs` (hardware threads, as `std::thread::hardware_concurrency()`) and the socket calls
 * behind TCP keepalive tuning (`getsockname`/`getpeername`/`setsockopt`/`getsockopt`, `errno`).
 *
 * The library is opened once, on first use, and only on Linux when the `ffi` permission is
 * already granted (no prompt); {@linkcode libc} returns `null` everywhere else, and every
 * caller has a fallback. Deno 2.9.1 needs no `--unstable-ffi` flag for this; `-A` grants `ffi`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { libc } from "./libc.ts";
 * const c = libc(); // null where the C library cannot be opened
 * if (c) assert.ok(c.symbols.gettid() > 0);
 * ```
 * @module
 */

const SYMBOLS = {
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  getrlimit: { parameters: ["i32", "buffer"], result: "i32" },
  setrlimit: { parameters: ["i32", "buffer"], result: "i32" },
  gettid: { parameters: [], result: "i32" },
  sched_getaffinity: { parameters: ["i32", "usize", "buffer"], result: "i32" },
  get_nprocs: { parameters: [], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  getpeername: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

/** The opened C library. */
export type Libc = Deno.DynamicLibrary<typeof SYMBOLS>;

/** `prctl` options (linux/prctl.h). */
export const PR_GET_DUMPABLE = 3;
/** `prctl` option that sets the dumpable flag. */
export const PR_SET_DUMPABLE = 4;
/** `RLIMIT_CORE` (asm-generic/resource.h). */
export const RLIMIT_CORE = 4;
/** `RLIM_INFINITY` on 64-bit Linux. */
export const RLIM_INFINITY = 0xffff_ffff_ffff_ffffn;

let opened: Libc | null | undefined;

function ffiGranted(): boolean {
  try {
    return Deno.permissions.querySync({ name: "ffi" }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * The C library, or `null` when it cannot be used (not Linux, no `ffi` permission, no
 * `libc.so.6`, e.g. musl). Opened once and kept open for the life of the process.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { libc } from "./libc.ts";
 * const c = libc();
 * const tid = c ? c.symbols.gettid() : Deno.pid;
 * assert.ok(tid > 0);
 * ```
 */
export function libc(): Libc | null {
  if (opened !== undefined) return opened;
  opened = null;
  if (Deno.build.os !== "linux" || !ffiGranted()) return null;
  try {
    opened = Deno.dlopen("libc.so.6", SYMBOLS);
  } catch {
    opened = null;
  }
  return opened;
}

/**
 * `getrlimit(resource)` as `[soft, hard]`, or `null` when it cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getRlimit, RLIMIT_CORE } from "./libc.ts";
 * const limits = getRlimit(RLIMIT_CORE); // e.g. [0n, 18446744073709551615n]
 * if (limits) assert.ok(limits[0] <= limits[1]);
 * ```
 */
export function getRlimit(resource: number): [bigint, bigint] | null {
  const c = libc();
  if (!c) return null;
  const buf = new BigUint64Array(2);
  if (c.symbols.getrlimit(resource, buf) !== 0) return null;
  return [buf[0], buf[1]];
}

/**
 * `setrlimit(resource, {soft, hard})`; true on success.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getRlimit, RLIMIT_CORE, setRlimit } from "./libc.ts";
 * const limits = getRlimit(RLIMIT_CORE);
 * // Setting the limits they already have; `RLIM_INFINITY` lifts a limit.
 * if (limits) assert.equal(setRlimit(RLIMIT_CORE, limits[0], limits[1]), true);
 * ```
 */
export function setRlimit(resource: number, soft: bigint, hard: bigint): boolean {
  const c = libc();
  if (!c) return false;
  return c.symbols.setrlimit(resource, new BigUint64Array([soft, hard])) === 0;
}
