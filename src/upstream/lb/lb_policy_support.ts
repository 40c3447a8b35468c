/**
 * Which load balancing policies this build has a balancer for, and the check that refuses a
 * cluster's policy when it has none or when its discovery type must provide the balancer and
 * does not. Kept apart from the balancers themselves (`load_balancer.ts`, whose factory table is
 * typed from {@linkcode LB_IMPLEMENTED}), so that validating a configuration loads none of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lbPolicyError } from "./lb_policy_support.ts";
 * assert.equal(lbPolicyError("MAGLEV", "STATIC", "a"), null);
 * assert.match(lbPolicyError("NOPE", "STATIC", "a") ?? "", /lb_policy NOPE is not supported/);
 * ```
 * @module
 */
import type { CLUSTER_ENUMS } from "../../../spec/cluster/enums.ts";

type LbPolicyRow = Extract<(typeof CLUSTER_ENUMS)[number], { name: "Cluster.LbPolicy" }>;
/** The names of the `Cluster.LbPolicy` enum rows. */
export type LbPolicy = LbPolicyRow["values"][number]["name"];

/**
 * Whether each policy has a balancer in this build. `load_balancer.ts` must map a `true` policy
 * to its factory and a `false` one to `null` (its table's type says so), so the two cannot
 * disagree.
 */
export const LB_IMPLEMENTED = {
  ROUND_ROBIN: true,
  RANDOM: true,
  LEAST_REQUEST: true,
  RING_HASH: true,
  MAGLEV: true,
  ORIGINAL_DST_LB: true,
  CLUSTER_PROVIDED: true,
} as const satisfies Readonly<Record<LbPolicy, boolean>>;

/** True when `policy` names a policy with a balancer in this build. */
export function lbImplemented(policy: string): boolean {
  return (LB_IMPLEMENTED as Readonly<Record<string, boolean>>)[policy] === true;
}

/** Thrown for a policy that has no implementation yet. */
export class UnsupportedLbPolicyError extends Error {
  /** Creates the error for `policy`. */
  constructor(readonly policy: string) {
    const supported = Object.entries(LB_IMPLEMENTED).filter(([, f]) => f).map(([p]) => p);
    super(`lb_policy ${policy} is not supported by this build (${supported.join(", ")} are)`);
    this.name = "UnsupportedLbPolicyError";
  }
}

/** The policies whose balancer the cluster type provides, and the types that provide one. */
const PROVIDED: Readonly<Record<string, readonly string[]>> = {
  ORIGINAL_DST_LB: ["ORIGINAL_DST"],
  // AGGREGATE: the aggregate cluster (`envoy.clusters.aggregate`), which balances over clusters.
  CLUSTER_PROVIDED: ["ORIGINAL_DST", "AGGREGATE"],
};

/**
 * Why a cluster of discovery type `type` cannot balance with `policy`, or null when it can: a
 * policy without an implementation, or one the cluster type has to provide and does not.
 */
export function lbPolicyError(policy: string, type: string, name: string): string | null {
  if (!lbImplemented(policy)) return new UnsupportedLbPolicyError(policy).message;
  const types = PROVIDED[policy];
  if (types && !types.includes(type)) {
    return `cluster provided LB specified but cluster '${name}' did not provide one (lb_policy ` +
      `${policy} needs a cluster of type ${types.join(" or ")})`;
  }
  return null;
}
