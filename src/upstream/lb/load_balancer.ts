/**
 * The load-balancer interface and the factory keyed by the rows of the `Cluster.LbPolicy` enum.
 * Each policy lives in its own file; a policy without an implementation maps to `null` and is
 * refused, with its field path, when the cluster is loaded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLoadBalancer, defaultLbOptions } from "./load_balancer.ts";
 * const lb = createLoadBalancer("ROUND_ROBIN", [], defaultLbOptions());
 * assert.equal(lb.choose({}), null); // no hosts
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import type { Json } from "../../config/bootstrap_types.ts";
import { valueOf } from "../../config/defaults.ts";
import { RoundRobinLoadBalancer } from "./round_robin.ts";
import { RandomLoadBalancer } from "./random.ts";
import { LeastRequestLoadBalancer } from "./least_request.ts";
import { RingHashLoadBalancer } from "./ring_hash.ts";
import { MaglevLoadBalancer } from "./maglev.ts";
import { type OriginalDstHosts, OriginalDstLoadBalancer } from "../original_dst.ts";
import type { SlowStartOptions } from "./slow_start.ts";

import {
  type LB_IMPLEMENTED,
  type LbPolicy,
  UnsupportedLbPolicyError,
} from "./lb_policy_support.ts";

import { candidateHosts as priorityCandidates, followDeliveredEpoch } from "../priority_load.ts";

/** What a balancer may look at for one request. */
export interface LbContext {
  /**
   * The request's 64-bit hash (route `hash_policy`), computed on demand and at most once per
   * pick; `undefined` when no policy produced one. Only hashing balancers call it, as Envoy's
   * `computeHashKey()` (a cookie policy with a `ttl` sets its cookie only then).
   */
  computeHashKey?: () => bigint | undefined;
  /** A retry host predicate: true when `host` should be chosen again (Envoy's name). */
  shouldSelectAnotherHost?: (host: Host) => boolean;
  /** How many times host selection may be repeated when the predicate rejects a host. */
  hostSelectionRetryCount?: () => number;
  /** The request's headers (lower-case names), for balancers that read one. */
  headers?: readonly (readonly [string, string])[];
  /** The route's `metadata_match` criteria (`proxy.lb` / `envoy.lb`), for subset balancing. */
  metadataMatch?: Readonly<Record<string, Json>>;
  /** The downstream connection's local (original destination) address. */
  downstreamLocal?: { readonly hostname: string; readonly port: number };
}

/** Chooses a host for each request. */
export interface LoadBalancer {
  /** The chosen host, or `null` when there is none. */
  choose(ctx: LbContext): Host | null;
}

/** `ring_hash_lb_config` after defaults. */
export interface RingHashOptions {
  minimumRingSize: number;
  maximumRingSize: number;
  /** `XX_HASH` or `MURMUR_HASH_2`. */
  hashFunction: string;
}

/** Options every balancer gets. */
export interface LbOptions {
  /** LEAST_REQUEST `choice_count`. */
  choiceCount: number;
  /**
   * LEAST_REQUEST with unequal weights: a host's weight is divided by
   * `(active requests + 1) ^ activeRequestBias` (Envoy's default 1.0).
   */
  activeRequestBias: number;
  /**
   * `active_request_bias` read from the runtime: when set, LEAST_REQUEST reads it (instead of
   * `activeRequestBias`) each time its candidate hosts change, as Envoy does on a host set update.
   */
  activeRequestBiasNow?: () => number;
  /** `slow_start_config` of ROUND_ROBIN and LEAST_REQUEST; unset: no slow start. */
  slowStart?: SlowStartOptions | null;
  /** `healthy_panic_threshold` in percent. */
  panicThreshold: number;
  ringHash: RingHashOptions;
  /** MAGLEV lookup table size, a prime (Envoy's default 65537). */
  maglevTableSize: number;
  /**
   * Start offset of ROUND_ROBIN. Envoy draws it at random for each balancer; clusters here use 0,
   * so the first request goes to the first host and picks are reproducible.
   */
  seed: number;
  /**
   * Receives the gauges of a built ring or table, by Envoy's names relative to the cluster scope
   * (`ring_hash_lb.size`, `ring_hash_lb.min_hashes_per_host`, `ring_hash_lb.max_hashes_per_host`,
   * `maglev_lb.min_entries_per_host`, `maglev_lb.max_entries_per_host`).
   */
  gauge?: (name: string, value: number) => void;
  /**
   * `locality_weighted_lb_config` is set: RING_HASH and MAGLEV give each locality its weight's
   * share of the ring or table (the other policies are wrapped by the locality balancer).
   */
  localityWeighted?: boolean;
  /**
   * The health epoch the cluster last delivered (`update_merge_window`); balancers' plans follow
   * it rather than the current health. Unset: the current health.
   */
  epoch?: () => number;
  /** The on-demand hosts of an ORIGINAL_DST cluster (its balancer chooses through them). */
  originalDst?: OriginalDstHosts;
}

/** Envoy's Maglev table size. */
export const MAGLEV_DEFAULT_TABLE_SIZE = 65537;

const RING = "Cluster.RingHashLbConfig";

/**
 * The options with the defaults of the spec tables, and Envoy's for what the tables do not have
 * (Maglev table size, active request bias); clusters override them with their effective values.
 */
export function defaultLbOptions(over: Partial<LbOptions> = {}): LbOptions {
  return {
    choiceCount: valueOf("Cluster.LeastRequestLbConfig", undefined, "choice_count") as number,
    activeRequestBias: 1,
    panicThreshold: valueOf(
      "Cluster.CommonLbConfig",
      undefined,
      "healthy_panic_threshold",
    ) as number,
    ringHash: {
      minimumRingSize: valueOf(RING, undefined, "minimum_ring_size") as number,
      maximumRingSize: valueOf(RING, undefined, "maximum_ring_size") as number,
      hashFunction: valueOf(RING, undefined, "hash_function") as string,
    },
    maglevTableSize: MAGLEV_DEFAULT_TABLE_SIZE,
    seed: 0,
    ...over,
  };
}

type Factory = (hosts: readonly Host[], o: LbOptions) => LoadBalancer;

/**
 * The balancer of each policy; `null`: not implemented, refused at load time. A policy has a
 * factory exactly when `LB_IMPLEMENTED` (`lb_policy_support.ts`) says it is implemented.
 */
export const LB_FACTORIES: {
  readonly [P in LbPolicy]: (typeof LB_IMPLEMENTED)[P] extends true ? Factory : null;
} = {
  ROUND_ROBIN: (h, o) => new RoundRobinLoadBalancer(h, o),
  RANDOM: (h, o) => new RandomLoadBalancer(h, o),
  LEAST_REQUEST: (h, o) => new LeastRequestLoadBalancer(h, o),
  RING_HASH: (h, o) => new RingHashLoadBalancer(h, o),
  MAGLEV: (h, o) => new MaglevLoadBalancer(h, o),
  ORIGINAL_DST_LB: (_h, o) => originalDst(o),
  // The cluster type provides the balancer: ORIGINAL_DST's (the aggregate cluster chooses a
  // cluster before any host balancer; validation refuses other types).
  CLUSTER_PROVIDED: (_h, o) => originalDst(o),
};

function originalDst(o: LbOptions): LoadBalancer {
  if (!o.originalDst) throw new Error("ORIGINAL_DST_LB needs an ORIGINAL_DST cluster");
  return new OriginalDstLoadBalancer(o.originalDst);
}

/** The factory of `policy`, or null when it has none. */
export function lbFactory(policy: string): Factory | null {
  return (LB_FACTORIES as Readonly<Record<string, Factory | null>>)[policy] ?? null;
}

/** Builds the balancer of `policy` over `hosts`. */
export function createLoadBalancer(
  policy: string,
  hosts: readonly Host[],
  o: LbOptions,
): LoadBalancer {
  const f = lbFactory(policy);
  if (!f) throw new UnsupportedLbPolicyError(policy);
  if (o.epoch) followDeliveredEpoch(hosts, o.epoch);
  return f(hosts, o);
}

/**
 * The hosts a balancer chooses among for one request (Envoy's priority load, health and panic
 * mode): see {@linkcode priorityCandidates}.
 */
export function candidateHosts(
  hosts: readonly Host[],
  panicThreshold: number,
  random?: () => number,
): readonly Host[] {
  return priorityCandidates(hosts, panicThreshold, random);
}
