/**
 * The load-balancer interface and the factory keyed by `lb_policy`. Each policy lives in its own
 * file; a policy without an implementation is reported when the cluster is loaded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLoadBalancer } from "./load_balancer.ts";
 * const lb = createLoadBalancer("ROUND_ROBIN", [], { choiceCount: 2, panicThreshold: 50 });
 * assert.equal(lb.choose({}), null); // no hosts
 * ```
 * @module
 */
import type { Host } from "../host.ts";
import { RoundRobinLoadBalancer } from "./round_robin.ts";
import { RandomLoadBalancer } from "./random.ts";
import { LeastRequestLoadBalancer } from "./least_request.ts";
import { candidateHosts as priorityCandidates } from "../priority_load.ts";

/** What a balancer may look at for one request. */
export interface LbContext {
  /** A hash of the request, for hashing policies. */
  hashKey?: string;
}

/** Chooses a host for each request. */
export interface LoadBalancer {
  /** The chosen host, or `null` when there is none. */
  choose(ctx: LbContext): Host | null;
}

/** Options every balancer gets. */
export interface LbOptions {
  /** LEAST_REQUEST `choice_count`. */
  choiceCount: number;
  /** `healthy_panic_threshold` in percent. */
  panicThreshold: number;
}

type Factory = (hosts: readonly Host[], o: LbOptions) => LoadBalancer;

/** Implemented policies. */
export const LB_FACTORIES: Readonly<Record<string, Factory>> = {
  ROUND_ROBIN: (h, o) => new RoundRobinLoadBalancer(h, o),
  RANDOM: (h, o) => new RandomLoadBalancer(h, o),
  LEAST_REQUEST: (h, o) => new LeastRequestLoadBalancer(h, o),
};

/** Thrown for a policy that has no implementation yet. */
export class UnsupportedLbPolicyError extends Error {
  /** Creates the error for `policy`. */
  constructor(readonly policy: string) {
    super(
      `lb_policy ${policy} is not supported by this build (ROUND_ROBIN, LEAST_REQUEST and RANDOM are)`,
    );
    this.name = "UnsupportedLbPolicyError";
  }
}

/** Builds the balancer of `policy` over `hosts`. */
export function createLoadBalancer(
  policy: string,
  hosts: readonly Host[],
  o: LbOptions,
): LoadBalancer {
  const f = LB_FACTORIES[policy];
  if (!f) throw new UnsupportedLbPolicyError(policy);
  return f(hosts, o);
}

/**
 * The hosts a balancer chooses among for one request (Envoy's priority load, health and panic
 * mode): see {@linkcode priorityCandidates}.
 */
export function candidateHosts(hosts: readonly Host[], panicThreshold: number): readonly Host[] {
  return priorityCandidates(hosts, panicThreshold);
}
