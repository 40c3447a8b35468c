/**
 * MAGLEV as Envoy builds it (Maglev paper, listing 1, with weights). Each candidate host has an
 * offset `xxHash64(address) % size` and a skip `xxHash64(address, seed 1) % (size - 1) + 1`;
 * rounds go over the hosts in order, and a host takes its next free slot of its permutation
 * `(offset + skip * j) % size` in a round when `round * weight >= its running target` (the target
 * grows by the largest share each time it takes a slot), until the table is full. A request hash
 * picks slot `hash % size`. Same hosts, same hash: same host as Envoy. The table size is a prime,
 * 65537 unless set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MaglevLoadBalancer } from "./maglev.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * assert.equal(new MaglevLoadBalancer([], defaultLbOptions()).choose({}), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import {
  candidateHosts,
  type LbContext,
  type LbOptions,
  type LoadBalancer,
} from "./load_balancer.ts";
import { priorityDraw, randomHash, xxHash64 } from "./hash.ts";
import { PerHostList } from "./host_list.ts";
import {
  hostHashKey,
  type LocalityWeights,
  localityWeightsOf,
  normalizedWeights,
} from "./normalized_weights.ts";

/** A built Maglev lookup table. */
export class MaglevTable {
  /** The host of each slot (empty when there are no hosts). */
  readonly table: Host[];
  /** Slots per host: fewest and most (Envoy's `min_entries_per_host` / `max_entries_per_host`). */
  readonly minEntriesPerHost: number;
  readonly maxEntriesPerHost: number;
  readonly #size: bigint;

  /**
   * Builds the table of `all` with `size` slots (a prime); with `localityWeights` (locality
   * weighting), each locality's share is its weight (hosts of weightless localities are left out).
   */
  constructor(all: readonly Host[], readonly size: number, localityWeights?: LocalityWeights) {
    this.#size = BigInt(size);
    const nw = normalizedWeights(all, localityWeights);
    const hosts = nw.hosts;
    if (hosts.length === 0) {
      this.table = [];
      this.minEntriesPerHost = 0;
      this.maxEntriesPerHost = 0;
      return;
    }
    const big = this.#size;
    const entries = hosts.map((host, k) => {
      const key = hostHashKey(host);
      return {
        host,
        offset: Number(xxHash64(key) % big),
        skip: Number(xxHash64(key, 1n) % (big - 1n)) + 1,
        weight: nw.weights[k],
        target: 0,
        next: 0,
        count: 0,
      };
    });
    const table: (Host | undefined)[] = new Array(size);
    let filled = 0;
    for (let round = 1; filled < size; round++) {
      for (let i = 0; i < entries.length && filled < size; i++) {
        const e = entries[i];
        if (round * e.weight < e.target) continue;
        e.target += nw.max;
        let c = (e.offset + e.skip * e.next) % size;
        while (table[c] !== undefined) {
          e.next++;
          c = (e.offset + e.skip * e.next) % size;
        }
        table[c] = e.host;
        e.next++;
        e.count++;
        filled++;
      }
    }
    this.table = table as Host[];
    this.minEntriesPerHost = Math.min(...entries.map((e) => e.count));
    this.maxEntriesPerHost = Math.max(...entries.map((e) => e.count));
  }

  /** The host of slot `hash % size`. */
  choose(hash: bigint): Host | null {
    if (this.table.length === 0) return null;
    return this.table[Number(hash % this.#size)];
  }
}

/** Consistent hashing with a Maglev table over the candidate hosts. */
export class MaglevLoadBalancer implements LoadBalancer {
  readonly #tables = new PerHostList<MaglevTable>();

  /**
   * Balances over `hosts`; builds the table of the current candidates at once, as Envoy does when
   * the host set changes.
   */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {
    this.table();
  }

  /**
   * The table of the current candidates (rebuilt when they change); `hash` draws the priority as
   * Envoy's thread-aware balancers do (`hash % 100` against the priority load).
   */
  table(hash?: bigint): MaglevTable {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold, priorityDraw(hash));
    return this.#tables.get(hs, (h) => {
      const lw = this.o.localityWeighted
        ? localityWeightsOf(this.hosts.filter((x) => x.priority === h[0]?.priority))
        : undefined;
      const t = new MaglevTable(h, this.o.maglevTableSize, lw);
      this.o.gauge?.("maglev_lb.min_entries_per_host", t.minEntriesPerHost);
      this.o.gauge?.("maglev_lb.max_entries_per_host", t.maxEntriesPerHost);
      return t;
    });
  }

  /** The host for the request's hash, or for a random hash when it has none. */
  choose(ctx: LbContext): Host | null {
    const h = ctx.computeHashKey?.() ?? randomHash();
    const t = this.table(h);
    if (t.table.length === 0) return null;
    return t.choose(h);
  }
}
