/**
 * The check that rejects settings of valid clusters this proxy core cannot honour (rather than
 * ignoring them): fields the rows' support column refuses, load balancing policies, discovery
 * types and EDS sources without an implementation, source addresses, health checks and DNS
 * settings. `--mode validate` and serve both run it; it loads none of the running cluster code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLocalCluster } from "./cluster_support.ts";
 * assert.equal(checkLocalCluster("web", [{ name: "api" }])[0].message, "local cluster 'web' must be defined");
 * ```
 * @module
 */
import { ipVersion } from "../http/cidr.ts";
import type { EffectiveCluster } from "../config/effective_cluster.ts";
import type { ConfigError } from "../config/errors.ts";
import { clusterSupportErrors } from "../config/support_check.ts";
import { AGGREGATE_TYPE_NAMES } from "../config/aggregate_cluster.ts";
import { hostPortProblem } from "./host_port_problem.ts";
import { lbPolicyError } from "./lb/lb_policy_support.ts";
import { edsSourceOf } from "./eds_source.ts";
import { dnsSupportErrors } from "./dns_support.ts";
import { healthSupportErrors } from "./health_check/health_check_support.ts";
import type { XdsClients } from "./xds_clients.ts";

/**
 * Settings of valid clusters that this core cannot honour yet, as errors with paths: every field
 * the rows' support column refuses (`support_check.ts`), then the values of honoured fields this
 * core has no implementation of (a load balancing policy, a discovery type, an EDS source).
 * `path` is the clusters array (`static_resources.clusters`), `first` the index there of
 * `clusters[0]` (the clusters may be checked one at a time: what is said of one cluster depends
 * on that cluster alone).
 */
export function checkClusterSupport(
  clusters: readonly EffectiveCluster[],
  path = "static_resources.clusters",
  first = 0,
): ConfigError[] {
  const errors: ConfigError[] = [];
  const refused = new Set<string>();
  const rows = new Set<ConfigError>();
  clusters.forEach((c, i) => {
    const at = `${path}[${first + i}]`;
    for (const e of clusterSupportErrors([c.config], path)) {
      const p = at + e.path.slice(`${path}[0]`.length);
      refused.add(p);
      const row = { ...e, path: p };
      rows.add(row);
      errors.push(row);
    }
    const aggregate = AGGREGATE_TYPE_NAMES.includes(c.customType ?? "");
    const lbError = lbPolicyError(c.lbPolicy, aggregate ? "AGGREGATE" : c.type, c.name);
    if (lbError) errors.push({ path: `${at}.lb_policy`, rule: "", message: lbError });
    for (const message of bindErrors(c)) {
      const own = c.config.upstream_bind_config !== undefined;
      const where = own ? `${at}.upstream_bind_config` : "cluster_manager.upstream_bind_config";
      errors.push({ path: `${where}.source_address`, rule: "", message });
    }
    for (const e of healthSupportErrors(c.config)) {
      errors.push({ path: `${at}.${e.path}`, rule: "", message: e.message });
    }
    if (c.type === "EDS") {
      const src = edsSourceOf(c.config);
      if (!src.ok) errors.push({ path: `${at}.${src.at}`, rule: "", message: src.message });
    } else if (c.type === "STRICT_DNS" || c.type === "LOGICAL_DNS") {
      for (const e of dnsSupportErrors(c)) errors.push({ ...e, path: `${at}.${e.path}` });
    } else if (c.type === "ORIGINAL_DST" && c.hosts.length > 0) {
      errors.push({
        path: `${at}.load_assignment`,
        rule: "",
        message: "ORIGINAL_DST clusters must have no load assignment configured",
      });
    } else if (c.type !== "STATIC" && c.type !== "ORIGINAL_DST") {
      errors.push({
        path: `${at}.type`,
        rule: "",
        message: `cluster type ${c.type} is not supported by this build (STATIC, STRICT_DNS, ` +
          "LOGICAL_DNS, EDS and ORIGINAL_DST are)",
      });
    }
    c.hosts.forEach((h) => {
      const problem = hostPortProblem(h.address, h.port);
      if (problem !== null) {
        errors.push({ path: `${at}.load_assignment.endpoints`, rule: "", message: problem });
      }
    });
  });
  // A field refused by its row is reported once, in the row's words.
  // (and a complaint about the object holding a refused field, or inside one, is dropped too).
  const related = (p: string) =>
    [...refused].some((r) => r === p || r.startsWith(`${p}.`) || p.startsWith(`${r}.`));
  return errors.filter((e) => rows.has(e) || !related(e.path));
}

/**
 * `cluster_manager.local_cluster_name` must name a static cluster (Envoy: "local cluster '<name>'
 * must be defined").
 */
export function checkLocalCluster(
  name: unknown,
  clusters: readonly { name: string }[],
): ConfigError[] {
  if (name === undefined || name === "" || clusters.some((c) => c.name === name)) return [];
  return [{
    path: "cluster_manager.local_cluster_name",
    rule: "",
    message: `local cluster '${String(name)}' must be defined`,
  }];
}

/**
 * What is wrong with a cluster's source address (its own or the bootstrap's): it must be an IP
 * literal (Envoy: "malformed IP address") with a port up to 65535.
 */
function bindErrors(c: EffectiveCluster): string[] {
  const b = c.upstreamBind;
  if (!b) return [];
  if (!ipVersion(b.address)) return [`malformed IP address: ${b.address}`];
  if (!(Number.isInteger(b.port) && b.port >= 0 && b.port <= 65535)) {
    return [`port_value ${b.port} is out of range (0 to 65535)`];
  }
  return [];
}

/** Why the control-plane EDS sources of `clusters` (at `path[i]`) cannot be used by `xds`. */
export function edsXdsErrors(
  clusters: readonly EffectiveCluster[],
  path: string,
  xds: XdsClients,
): ConfigError[] {
  const out: ConfigError[] = [];
  clusters.forEach((c, i) => {
    const src = c.type === "EDS" ? edsSourceOf(c.config) : null;
    if (!src?.ok || !src.spec) return;
    const p = xds.check(src.spec, `${path}[${i}].eds_cluster_config.eds_config`);
    if (p) out.push({ ...p, rule: "" });
  });
  return out;
}
