/**
 * STRICT_DNS and LOGICAL_DNS clusters: every endpoint of `load_assignment` names a DNS target,
 * resolved through the system resolver (`getaddrinfo`, so `/etc/hosts` counts) every
 * `dns_refresh_rate`, with `dns_lookup_family` (AUTO: IPv6, else IPv4). STRICT_DNS makes one host
 * per resolved address of every target; LOGICAL_DNS keeps one host, the first address of its only
 * target. A failed resolution keeps the previous hosts. Counts `update_attempt`, `update_success`,
 * `update_failure`, `update_no_rebuild` and `membership_change` under `cluster.<name>`. The
 * cluster warms (no hosts, `503 no healthy upstream`) until every target was resolved once.
 *
 * @example Not run: it resolves the cluster's host names through DNS (network).
 * ```ts ignore
 * import { DnsUpdater } from "./dns.ts";
 * const dns = new DnsUpdater(cluster, { log: console.log });
 * await dns.start(); // resolves after the first resolution of every target, good or bad
 * await dns.close();
 * ```
 * @module
 */
import { lookup } from "node:dns/promises";
import type { EffectiveHost } from "../config/effective_cluster.ts";
import type { Counter } from "../stats/types.ts";
import type { Cluster } from "./cluster.ts";

/** DNS lookup families of a cluster. */
export type LookupFamily = "AUTO" | "V4_ONLY" | "V6_ONLY";

/** Resolves `name` to IP addresses (none: no record); rejects on failure. */
export type Resolver = (name: string, family: LookupFamily) => Promise<string[]>;

/** The system resolver (`getaddrinfo`). */
export const systemResolver: Resolver = async (name, family) => {
  const ask = async (f: 4 | 6) => {
    try {
      return (await lookup(name, { all: true, family: f })).map((a) => a.address);
    } catch (e) {
      if ((e as { code?: string }).code === "ENOTFOUND") return [];
      throw e;
    }
  };
  if (family === "V4_ONLY") return await ask(4);
  if (family === "V6_ONLY") return await ask(6);
  const v6 = await ask(6);
  return v6.length ? v6 : await ask(4);
};

/** Keeps one DNS cluster's hosts in step with DNS. */
export class DnsUpdater {
  readonly #targets: EffectiveHost[];
  readonly #resolved: (EffectiveHost[] | null)[];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #inflight = new Set<Promise<void>>();
  readonly #s: Record<
    "attempt" | "success" | "failure" | "noRebuild" | "change",
    Counter
  >;
  #closed = false;

  /** Resolves the endpoints of `cluster` (their addresses are DNS names). */
  constructor(
    readonly cluster: Cluster,
    readonly deps: { resolver?: Resolver; log: (level: string, msg: string) => void },
  ) {
    const e = cluster.effective;
    this.#targets = e.type === "LOGICAL_DNS" ? e.hosts.slice(0, 1) : e.hosts;
    this.#resolved = this.#targets.map(() => null);
    const sc = cluster.stats.s;
    this.#s = {
      attempt: sc.counter("update_attempt"),
      success: sc.counter("update_success"),
      failure: sc.counter("update_failure"),
      noRebuild: sc.counter("update_no_rebuild"),
      change: sc.counter("membership_change"),
    };
  }

  /** Resolves every target once, then keeps refreshing them. */
  async start(): Promise<void> {
    await Promise.all(this.#targets.map((_, i) => this.#resolve(i)));
    this.cluster.initialized = true;
  }

  #resolve(i: number): Promise<void> {
    const p = this.#run(i);
    this.#inflight.add(p);
    return p.finally(() => this.#inflight.delete(p));
  }

  async #run(i: number): Promise<void> {
    if (this.#closed) return;
    const t = this.#targets[i];
    const e = this.cluster.effective;
    this.#s.attempt.inc();
    let addrs: string[];
    try {
      addrs = await (this.deps.resolver ?? systemResolver)(t.address, e.dnsLookupFamily);
    } catch (err) {
      this.deps.log(
        "warning",
        `cluster ${this.cluster.name}: DNS resolution of ${t.address} failed: ${
          (err as Error).message
        }`,
      );
      if (this.#closed) return;
      this.#s.failure.inc();
      this.#schedule(i);
      return;
    }
    if (this.#closed) return;
    this.#s.success.inc();
    if (e.type === "LOGICAL_DNS") addrs = addrs.slice(0, 1);
    const hostname = t.hostname || t.address;
    const next = addrs.map((a) => ({ ...t, address: a, hostname }));
    const prev = this.#resolved[i];
    if (
      prev !== null && prev.length === next.length &&
      prev.every((h, j) => h.address === next[j].address)
    ) {
      this.#s.noRebuild.inc();
    } else {
      this.#resolved[i] = next;
      const all = this.#resolved.flatMap((r) => r ?? []);
      const { added, removed } = this.cluster.updateHosts(all);
      if (added + removed > 0) this.#s.change.inc();
    }
    this.#schedule(i);
  }

  #schedule(i: number) {
    if (this.#closed) return;
    const id = setTimeout(() => {
      this.#timers.delete(id);
      void this.#resolve(i);
    }, this.cluster.effective.dnsRefreshRateMs);
    this.#timers.add(id);
  }

  /** Stops refreshing; resolves when no lookup is in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const id of this.#timers) clearTimeout(id);
    this.#timers.clear();
    await Promise.all([...this.#inflight]);
  }
}
