/**
 * What a DNS cluster needs beyond its fields' support (`respect_dns_ttl` and `dns_resolvers`
 * are refused by their rows' support column): a LOGICAL_DNS cluster has exactly one endpoint.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dnsSupportErrors } from "./dns_support.ts";
 * import { testCluster } from "./test_cluster.ts";
 * const c = testCluster("d", [["a", 80], ["b", 80]], { type: "LOGICAL_DNS" });
 * assert.equal(dnsSupportErrors(c)[0].path, "load_assignment");
 * ```
 * @module
 */
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { ConfigError } from "../config/errors.ts";

/** Errors (paths relative to the cluster) for DNS settings of `c` this proxy cannot serve. */
export function dnsSupportErrors(c: EffectiveCluster): ConfigError[] {
  const out: ConfigError[] = [];
  if (c.type === "LOGICAL_DNS" && c.hosts.length !== 1) {
    out.push({
      path: "load_assignment",
      rule: "",
      message: `a LOGICAL_DNS cluster needs exactly one endpoint (got ${c.hosts.length})`,
    });
  }
  return out;
}
