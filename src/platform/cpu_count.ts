/**
 * Worker counts for `--concurrency` when it is unset: the number of hardware threads (what
 * `std::thread::hardware_concurrency()` reports: every online CPU), or with `--cpuset-threads`
 * the number of CPUs this process may run on (its cpuset: `sched_getaffinity`, as Envoy, or the
 * cgroup's `cpuset.cpus.effective` file). Without FFI, Deno's `navigator.hardwareConcurrency`
 * is the fallback of both.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpusetSize, hardwareThreads } from "./cpu_count.ts";
 * assert.ok(hardwareThreads() >= 1);
 * assert.ok(cpusetSize() <= hardwareThreads());
 * ```
 * @module
 */
import { libc } from "./libc.ts";

/** cgroup files that hold the effective cpuset (v2, then v1). */
export const CPUSET_FILES: readonly string[] = [
  "/sys/fs/cgroup/cpuset.cpus.effective",
  "/sys/fs/cgroup/cpuset/cpuset.effective_cpus",
];

/**
 * The number of CPUs in a Linux CPU list (`0-3,8,10-11` -> 7); `null` when it is malformed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuListSize } from "./cpu_count.ts";
 * assert.equal(cpuListSize("0-3,8"), 5);
 * assert.equal(cpuListSize("3-1"), null);
 * ```
 */
export function cpuListSize(list: string): number | null {
  const t = list.trim();
  if (t === "") return null;
  const cpus = new Set<number>();
  for (const part of t.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return null;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo || hi - lo > 65535) return null;
    for (let i = lo; i <= hi; i++) cpus.add(i);
  }
  return cpus.size;
}

/** Counts the bits set in a CPU mask. */
function bitCount(mask: Uint8Array): number {
  let n = 0;
  for (let b of mask) {
    while (b) {
      n += b & 1;
      b >>= 1;
    }
  }
  return n;
}

/** `sched_getaffinity(0)` as a CPU count, or `null`. */
function affinityCount(): number | null {
  const c = libc();
  if (!c) return null;
  const mask = new Uint8Array(1024); // 8192 CPUs
  if (c.symbols.sched_getaffinity(0, BigInt(mask.length), mask) !== 0) return null;
  const n = bitCount(mask);
  return n > 0 ? n : null;
}

function readCpusetFile(): number | null {
  for (const f of CPUSET_FILES) {
    const n = readCpuList(f);
    if (n !== null) return n;
  }
  return null;
}

/**
 * The number of hardware threads (online CPUs, as `get_nprocs` counts them), as Envoy's default
 * `--concurrency`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hardwareThreads } from "./cpu_count.ts";
 * assert.ok(hardwareThreads() >= 1);
 * ```
 */
export function hardwareThreads(): number {
  const listed = readCpuList(ONLINE_CPUS_FILE);
  if (listed !== null) return listed;
  const c = libc();
  const n = c ? c.symbols.get_nprocs() : 0;
  return n > 0 ? n : Math.max(1, navigator.hardwareConcurrency);
}

/**
 * The kernel's list of online CPUs: the file glibc's `get_nprocs` reads, read here directly so
 * that a command line that needs the count does not load libc through FFI for it.
 */
export const ONLINE_CPUS_FILE = "/sys/devices/system/cpu/online";

function readCpuList(file: string): number | null {
  try {
    const n = cpuListSize(Deno.readTextFileSync(file));
    return n !== null && n > 0 ? n : null;
  } catch {
    return null; // absent, or no read permission: get_nprocs, then the runtime's count
  }
}

/**
 * The size of this process's cpuset (`--cpuset-threads`): the affinity mask, else the cgroup
 * cpuset file, else {@linkcode hardwareThreads}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpusetSize, hardwareThreads } from "./cpu_count.ts";
 * assert.ok(cpusetSize() <= hardwareThreads());
 * ```
 */
export function cpusetSize(): number {
  return affinityCount() ?? readCpusetFile() ?? hardwareThreads();
}
