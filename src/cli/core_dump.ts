/**
 * `--enable-core-dump`: on Linux, marks the process dumpable (`prctl(PR_SET_DUMPABLE, 1)`) and
 * raises the core file size limit (`RLIMIT_CORE`) to unlimited, or to the hard limit when the
 * process may not raise the hard limit. A no-op elsewhere, as the option says.
 *
 * @example Not run: it changes the core dump settings of the process that runs it.
 * ```ts ignore
 * import { enableCoreDump } from "./core_dump.ts";
 * const r = enableCoreDump();
 * if (r.applied) console.log("core dumps on, limit", r.coreLimit);
 * ```
 * @module
 */
import {
  getRlimit,
  libc,
  PR_GET_DUMPABLE,
  PR_SET_DUMPABLE,
  RLIM_INFINITY,
  RLIMIT_CORE,
  setRlimit,
} from "../platform/libc.ts";

/** What {@linkcode enableCoreDump} did. */
export interface CoreDumpResult {
  /** False off Linux or without FFI: nothing was changed. */
  applied: boolean;
  /** The dumpable flag after the call (`prctl(PR_GET_DUMPABLE)`), when known. */
  dumpable?: number;
  /** The soft core file size limit after the call, when known (`RLIM_INFINITY` = unlimited). */
  coreLimit?: bigint;
  /** Why nothing (or not everything) was applied. */
  reason?: string;
}

/**
 * Enables core dumps for this process (Linux only).
 *
 * @example Not run: it changes the core dump settings of the process that runs it.
 * ```ts ignore
 * import { enableCoreDump } from "./core_dump.ts";
 * enableCoreDump(); // { applied: true, dumpable: 1, coreLimit: 18446744073709551615n } as root
 * ```
 */
export function enableCoreDump(): CoreDumpResult {
  const c = libc();
  if (!c) {
    return {
      applied: false,
      reason: Deno.build.os === "linux"
        ? "the C library is not reachable (FFI permission or libc.so.6 missing)"
        : "core dumps are only enabled on Linux",
    };
  }
  if (c.symbols.prctl(PR_SET_DUMPABLE, 1n, 0n, 0n, 0n) !== 0) {
    return { applied: false, reason: "prctl(PR_SET_DUMPABLE, 1) failed" };
  }
  let reason: string | undefined;
  if (!setRlimit(RLIMIT_CORE, RLIM_INFINITY, RLIM_INFINITY)) {
    // Not allowed to raise the hard limit: raise the soft limit as far as it goes.
    const cur = getRlimit(RLIMIT_CORE);
    if (!cur || !setRlimit(RLIMIT_CORE, cur[1], cur[1])) {
      reason = "could not raise RLIMIT_CORE";
    } else if (cur[1] !== RLIM_INFINITY) {
      reason = `RLIMIT_CORE raised to the hard limit ${cur[1]}`;
    }
  }
  const dumpable = c.symbols.prctl(PR_GET_DUMPABLE, 0n, 0n, 0n, 0n);
  const coreLimit = getRlimit(RLIMIT_CORE)?.[0];
  return { applied: true, dumpable, ...(coreLimit !== undefined ? { coreLimit } : {}), reason };
}
