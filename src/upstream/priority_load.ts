/**
 * Which hosts a load balancer chooses among, as Envoy computes it: each priority level gets a
 * share of the load from its availability (healthy hosts × overprovisioning factor 1.4, capped at
 * 100%), higher priorities first, so traffic spills over to lower priorities gradually as hosts
 * fail; degraded hosts take what healthy ones cannot. A priority whose healthy (and degraded)
 * share is below `healthy_panic_threshold` is in panic and balances over all its hosts; when every
 * priority is in panic, load is split by host count (Envoy's total panic). Excluded hosts count
 * nowhere.
 *
 * The plan is cached per host list and recomputed only when some host's health changed
 * ({@linkcode healthEpoch}).
 *
 * @example
 * ```ts
 * import { computePriorityLoad } from "./priority_load.ts";
 * // Priority 0 with 1 of 2 hosts healthy (70% available after overprovisioning), priority 1 healthy.
 * const plan = computePriorityLoad([[2, 1, 0], [2, 2, 0]], 50);
 * console.log(plan.healthy, plan.degraded, plan.panic); // [70, 30] [0, 0] [false, false]
 * ```
 * @module
 */
import type { Host } from "./host.ts";

/** Envoy's default overprovisioning factor (1.4), in percent. */
export const OVERPROVISIONING_FACTOR = 140;

let epoch = 0;

/** A number that changes whenever the health of any host changes. */
export function healthEpoch(): number {
  return epoch;
}

/** Marks that some host's health changed (cached plans are recomputed). */
export function bumpHealthEpoch(): void {
  epoch++;
}

/** The load of each priority level, in percent, and which levels are in panic. */
export interface PriorityLoad {
  /** Share of requests sent to the healthy hosts of each priority. */
  healthy: number[];
  /** Share of requests sent to the degraded hosts of each priority. */
  degraded: number[];
  /** Priorities in panic (their share goes to all their hosts). */
  panic: boolean[];
}

/**
 * Envoy's priority load from `[hosts, healthy, degraded]` counts per priority (hosts without the
 * excluded ones) and the panic threshold in percent.
 */
export function computePriorityLoad(
  counts: readonly (readonly [number, number, number])[],
  panicThreshold: number,
): PriorityLoad {
  const n = Math.max(1, counts.length);
  const healthy = new Array<number>(n).fill(0);
  const degraded = new Array<number>(n).fill(0);
  const hAvail = new Array<number>(n).fill(0);
  const dAvail = new Array<number>(n).fill(0);
  counts.forEach(([total, h, d], p) => {
    if (total <= 0) return;
    hAvail[p] = Math.min(100, Math.floor((OVERPROVISIONING_FACTOR * h) / total));
    dAvail[p] = Math.min(100, Math.floor((OVERPROVISIONING_FACTOR * d) / total));
  });
  const totalAvail = Math.min(
    100,
    hAvail.reduce((a, b) => a + b, 0) + dAvail.reduce((a, b) => a + b, 0),
  );
  if (totalAvail > 0) {
    const distribute = (out: number[], avail: number[], load: number) => {
      let first = -1;
      for (let p = 0; p < n; p++) {
        if (first < 0 && avail[p] > 0) first = p;
        out[p] = Math.min(load, Math.floor((avail[p] * 100) / totalAvail));
        load -= out[p];
      }
      return { first, load };
    };
    const h = distribute(healthy, hAvail, 100);
    const d = distribute(degraded, dAvail, h.load);
    if (d.load > 0) {
      if (h.first >= 0) healthy[h.first] += d.load;
      else degraded[d.first] += d.load;
    }
  }
  const threshold = Math.min(100, panicThreshold);
  const panic = new Array<boolean>(n).fill(true);
  if (totalAvail > 0) {
    counts.forEach(([total, h, d], p) => {
      const pct = total === 0 ? 0 : (100 * (h + d)) / total;
      panic[p] = pct < threshold;
    });
  }
  if (threshold === 0 && totalAvail === 0) {
    // Panic disabled and nothing available: no host is chosen.
    return { healthy: healthy.fill(0), degraded, panic: panic.fill(false) };
  }
  if (panic.every((x) => x)) {
    // Total panic: split the load by the number of hosts in each priority.
    const all = counts.reduce((a, [t]) => a + t, 0);
    degraded.fill(0);
    if (all === 0) {
      healthy.fill(0);
      healthy[0] = 100;
    } else {
      let load = 100;
      let first = -1;
      counts.forEach(([t], p) => {
        if (first < 0 && t > 0) first = p;
        healthy[p] = Math.floor((100 * t) / all);
        load -= healthy[p];
      });
      healthy[first] += load;
    }
  }
  return { healthy, degraded, panic };
}

/** The hosts of one priority, split by health. */
interface Level {
  /** The hosts that count (excluded and ignored new hosts aside). */
  all: Host[];
  healthy: Host[];
  degraded: Host[];
  /** Hosts eligible in panic mode: `all` and the ignored new hosts. */
  panic: Host[];
}

/** The cached plan of one host list. */
interface Plan {
  epoch: number;
  levels: Level[];
  load: PriorityLoad;
  threshold: number;
}

const plans = new WeakMap<readonly Host[], Plan>();
const deliveredEpochs = new WeakMap<readonly Host[], () => number>();

/**
 * Makes plans over `hosts` follow `epoch` (the health epoch a cluster last delivered to its
 * balancers, see `merge_window.ts`) instead of the current one.
 */
export function followDeliveredEpoch(hosts: readonly Host[], epoch: () => number): void {
  deliveredEpochs.set(hosts, epoch);
}
const panicCounters = new WeakMap<readonly Host[], () => void>();
const ignoringNewHosts = new WeakSet<readonly Host[]>();

/**
 * `ignore_new_hosts_until_first_hc`: hosts of `hosts` not checked yet are left out of the
 * counts (priority spill-over, panic threshold) but stay eligible in panic mode.
 */
export function ignoreNewHosts(hosts: readonly Host[]): void {
  ignoringNewHosts.add(hosts);
}

/**
 * Registers what to call each time a choice among `hosts` is made in panic mode (the cluster's
 * `lb_healthy_panic` counter).
 */
export function onPanic(hosts: readonly Host[], count: () => void): void {
  panicCounters.set(hosts, count);
}

function plan(hosts: readonly Host[], panicThreshold: number): Plan {
  const cached = plans.get(hosts);
  const e = deliveredEpochs.get(hosts)?.() ?? epoch;
  if (cached && cached.epoch === e && cached.threshold === panicThreshold) return cached;
  const levels: Level[] = [];
  const ignorePending = ignoringNewHosts.has(hosts);
  for (const h of hosts) {
    if (h.excluded()) continue;
    const p = Math.max(0, h.priority | 0);
    while (levels.length <= p) levels.push({ all: [], healthy: [], degraded: [], panic: [] });
    const l = levels[p];
    l.panic.push(h);
    if (ignorePending && h.pendingActiveHc) continue;
    l.all.push(h);
    if (h.healthy()) (h.degraded() ? l.degraded : l.healthy).push(h);
  }
  const load = computePriorityLoad(
    levels.map((l) => [l.all.length, l.healthy.length, l.degraded.length] as const),
    panicThreshold,
  );
  const p: Plan = { epoch: e, levels, load, threshold: panicThreshold };
  plans.set(hosts, p);
  return p;
}

/**
 * The hosts a balancer chooses among for one request: a priority level is drawn by its load (from
 * `random`, 0 <= x < 1), then its healthy hosts, its degraded hosts, or all its hosts when it is in
 * panic. Empty when no host may be chosen.
 */
export function candidateHosts(
  hosts: readonly Host[],
  panicThreshold: number,
  random: () => number = Math.random,
): readonly Host[] {
  if (hosts.length === 0) return hosts;
  const pl = plan(hosts, panicThreshold);
  if (pl.levels.length === 0) return [];
  const { healthy, degraded, panic } = pl.load;
  // The common case: one priority, every host healthy.
  if (pl.levels.length === 1 && healthy[0] === 100 && !panic[0]) {
    return pl.levels[0].healthy.length === hosts.length ? hosts : pl.levels[0].healthy;
  }
  let x = Math.floor(random() * 100);
  let p = 0;
  let useDegraded = false;
  for (; p < pl.levels.length; p++) {
    if (x < healthy[p]) break;
    x -= healthy[p];
  }
  if (p >= pl.levels.length) {
    for (p = 0; p < pl.levels.length; p++) {
      if (x < degraded[p]) break;
      x -= degraded[p];
    }
    useDegraded = true;
  }
  if (p >= pl.levels.length) return [];
  const level = pl.levels[p];
  if (panic[p]) {
    panicCounters.get(hosts)?.();
    return level.panic;
  }
  return useDegraded ? level.degraded : level.healthy;
}
