/**
 * DNS cluster settings this proxy cannot honour yet, reported rather than ignored:
 * `respect_dns_ttl: true` (the system resolver does not report record TTLs) and custom
 * `dns_resolvers` (only the system resolver is used).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dnsSupportErrors } from "./dns_support.ts";
 * import { testCluster } from "./test_cluster.ts";
 * const c = testCluster("d", [["localhost", 80]], { type: "STRICT_DNS", respectDnsTtl: true });
 * assert.equal(dnsSupportErrors(c)[0].path, "respect_dns_ttl");
 * ```
 * @module
 */
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { ConfigError } from "../config/errors.ts";

/** Errors (paths relative to the cluster) for unsupported DNS settings of `c`. */
export function dnsSupportErrors(c: EffectiveCluster): ConfigError[] {
  const out: ConfigError[] = [];
  if (c.respectDnsTtl) {
    out.push({
      path: "respect_dns_ttl",
      rule: "",
      message: "respect_dns_ttl is not supported: the system resolver does not report TTLs; " +
        "the refresh interval is dns_refresh_rate",
    });
  }
  const r = c.config.dns_resolvers ?? c.config.dnsResolvers;
  if (Array.isArray(r) && r.length > 0) {
    out.push({
      path: "dns_resolvers",
      rule: "",
      message: "dns_resolvers is not supported yet: names are resolved by the system resolver",
    });
  }
  if (c.type === "LOGICAL_DNS" && c.hosts.length !== 1) {
    out.push({
      path: "load_assignment",
      rule: "",
      message: `a LOGICAL_DNS cluster needs exactly one endpoint (got ${c.hosts.length})`,
    });
  }
  return out;
}
