/**
 * RING_HASH as Envoy builds it (Ketama-style). Each candidate host gets about
 * `scale * weight / sum` points, hashed from `<address>_<i>` with xxHash64 or MurmurHash2
 * (`hash_function`), where `scale` gives the lightest host a whole number of points within
 * `minimum_ring_size`, capped at `maximum_ring_size`; points are sorted, and a request hash picks
 * the first point at or after it (wrapping to the start). Same hosts, same hash: same host as
 * Envoy. Without a request hash the pick is random.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RingHashLoadBalancer } from "./ring_hash.ts";
 * import { defaultLbOptions } from "./load_balancer.ts";
 * assert.equal(new RingHashLoadBalancer([], defaultLbOptions()).choose({}), null);
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import {
  candidateHosts,
  type LbContext,
  type LbOptions,
  type LoadBalancer,
  type RingHashOptions,
} from "./load_balancer.ts";
import { murmurHash2, priorityDraw, randomHash, xxHash64 } from "./hash.ts";
import { PerHostList } from "./host_list.ts";
import {
  hostHashKey,
  type LocalityWeights,
  localityWeightsOf,
  normalizedWeights,
} from "./normalized_weights.ts";

const SCRATCH = new BigUint64Array(1);
const SCRATCH_WORDS = new Uint32Array(SCRATCH.buffer);

/** A built ring: sorted points and the host of each. */
export class Ring {
  /** Sorted point hashes. */
  readonly hashes: BigUint64Array;
  /** The host of each point. */
  readonly hosts: Host[];
  /** Points per host: fewest and most (Envoy's `min_hashes_per_host` / `max_hashes_per_host`). */
  readonly minHashesPerHost: number;
  readonly maxHashesPerHost: number;
  /** The ring size Envoy reports (`ring_hash_lb.size`): `ceil(scale)`, 0 without hosts. */
  readonly size: number;
  /** `hashes` as 32-bit words, low then high half of each point (little-endian platforms). */
  readonly #words: Uint32Array;

  /**
   * Builds the ring of `all` (weights from each host) with `o`; with `localityWeights` (locality
   * weighting), each locality's share is its weight (hosts of weightless localities are left out).
   */
  constructor(all: readonly Host[], o: RingHashOptions, localityWeights?: LocalityWeights) {
    const nw = normalizedWeights(all, localityWeights);
    const hosts = nw.hosts;
    const hash = o.hashFunction === "MURMUR_HASH_2" ? murmurHash2 : xxHash64;
    if (hosts.length === 0) {
      this.hashes = new BigUint64Array(0);
      this.hosts = [];
      this.minHashesPerHost = 0;
      this.maxHashesPerHost = 0;
      this.size = 0;
      this.#words = new Uint32Array(0);
      return;
    }
    const scale = Math.min(
      Math.ceil(nw.min * o.minimumRingSize) / nw.min,
      o.maximumRingSize,
    );
    const size = Math.ceil(scale);
    this.size = size;
    const points: bigint[] = [];
    const owners: number[] = [];
    let current = 0;
    let target = 0;
    let minPer = size;
    let maxPer = 0;
    for (let k = 0; k < hosts.length; k++) {
      const prefix = hostHashKey(hosts[k]) + "_";
      target += scale * nw.weights[k];
      let i = 0;
      while (current < target) {
        points.push(hash(prefix + i));
        owners.push(k);
        i++;
        current++;
      }
      minPer = Math.min(minPer, i);
      maxPer = Math.max(maxPer, i);
    }
    // Sort positions by hash, comparing the high then the low 32 bits as numbers (no BigInt
    // arithmetic in the comparator); equal hashes keep their order.
    const unsorted = BigUint64Array.from(points);
    const w = new Uint32Array(unsorted.buffer);
    const order = Array.from(points, (_, i) => i);
    order.sort((a, b) => (w[2 * a + 1] - w[2 * b + 1]) || (w[2 * a] - w[2 * b]) || (a - b));
    this.hashes = BigUint64Array.from(order, (i) => unsorted[i]);
    this.hosts = order.map((i) => hosts[owners[i]]);
    this.#words = new Uint32Array(this.hashes.buffer);
    this.minHashesPerHost = minPer;
    this.maxHashesPerHost = maxPer;
  }

  /** The host of the first point at or after `h`, wrapping around (Envoy's Ketama search). */
  choose(h: bigint): Host | null {
    const n = this.hashes.length;
    if (n === 0) return null;
    // Compare in 32-bit halves (numbers) rather than reading BigInts from the array.
    SCRATCH[0] = h;
    const hi = SCRATCH_WORDS[1];
    const lo = SCRATCH_WORDS[0];
    const w = this.#words;
    let lowp = 0;
    let highp = n;
    for (;;) {
      const midp = Math.trunc((lowp + highp) / 2);
      if (midp === n) return this.hosts[0];
      // cmp: sign of (h - ring[midp]); above: h > ring[midp - 1] (ring[-1] is 0).
      const mh = w[2 * midp + 1];
      const cmp = hi !== mh ? hi - mh : lo - w[2 * midp];
      let above = hi !== 0 || lo !== 0;
      if (midp > 0) {
        const ph = w[2 * midp - 1];
        above = hi !== ph ? hi > ph : lo > w[2 * midp - 2];
      }
      if (cmp <= 0 && above) return this.hosts[midp];
      if (cmp > 0) lowp = midp + 1;
      else highp = midp - 1;
      if (lowp > highp) return this.hosts[0];
    }
  }
}

/** Consistent hashing on a ring over the candidate hosts. */
export class RingHashLoadBalancer implements LoadBalancer {
  readonly #rings = new PerHostList<Ring>();

  /**
   * Balances over `hosts`; builds the ring of the current candidates at once, as Envoy does when
   * the host set changes.
   */
  constructor(readonly hosts: readonly Host[], readonly o: LbOptions) {
    this.ring();
  }

  /**
   * The ring of the current candidates (rebuilt when they change); `hash` draws the priority as
   * Envoy's thread-aware balancers do (`hash % 100` against the priority load).
   */
  ring(hash?: bigint): Ring {
    const hs = candidateHosts(this.hosts, this.o.panicThreshold, priorityDraw(hash));
    return this.#rings.get(hs, (h) => {
      const r = new Ring(
        h,
        this.o.ringHash,
        this.o.localityWeighted
          ? localityWeightsOf(this.hosts.filter((x) => x.priority === h[0]?.priority))
          : undefined,
      );
      const g = this.o.gauge;
      if (g) {
        g("ring_hash_lb.size", r.size);
        g("ring_hash_lb.min_hashes_per_host", r.minHashesPerHost);
        g("ring_hash_lb.max_hashes_per_host", r.maxHashesPerHost);
      }
      return r;
    });
  }

  /** The host for the request's hash, or for a random hash when it has none. */
  choose(ctx: LbContext): Host | null {
    const h = ctx.computeHashKey?.() ?? randomHash();
    const ring = this.ring(h);
    if (ring.hosts.length === 0) return null;
    return ring.choose(h);
  }
}
