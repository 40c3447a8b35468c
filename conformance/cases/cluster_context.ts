/**
 * Where a Cluster field or nested message can be valid: the cluster context a field needs
 * (its lb_policy from the rules table, its discovery type from `appliesTo`), the minimal object
 * of a described message (its required fields filled), and valid samples of message types the
 * specification does not show.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contextFor } from "./cluster_context.ts";
 * assert.equal(contextFor("ring_hash_lb_config")?.lb_policy, "RING_HASH");
 * ```
 * @module
 */
import { CLUSTER_RULES } from "../../spec/mod.ts";
import type { ClusterRuleRow } from "../../spec/mod.ts";
import { FIELDS } from "../arbitraries.ts";
import type { Field, Step } from "../arbitraries.ts";
import { baseCluster } from "./bootstrap_files.ts";
import type { Obj } from "./bootstrap_files.ts";

/** Rule rows that tie a Cluster field to lb_policy values (`requires-policy`). */
export function requiredPolicy(field: string): string | undefined {
  for (const r of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    if (r.rule.kind === "requires-policy" && r.rule.field === field) return r.rule.policies[0];
  }
  return undefined;
}

/** Makes a cluster in which `top` (a top-level field) is valid; null when the suite cannot. */
export function contextFor(top: string): Obj | null {
  const c = baseCluster();
  const row = FIELDS.find((f) => f.message === "Cluster" && f.field === top);
  if (row?.group === "cluster_discovery_type" && top !== "type") return null;
  const policy = requiredPolicy(top);
  if (policy) c.lb_policy = policy;
  const types = row?.appliesTo;
  if (types && !types.includes("STATIC")) {
    if (types.includes("STRICT_DNS")) c.type = "STRICT_DNS";
    else if (types.includes("ORIGINAL_DST")) {
      c.type = "ORIGINAL_DST";
      c.lb_policy = "ORIGINAL_DST_LB";
      delete c.load_assignment;
    } else return null;
  }
  if (top === "original_dst_lb_config") {
    c.type = "ORIGINAL_DST";
    c.lb_policy = "ORIGINAL_DST_LB";
    delete c.load_assignment;
  }
  return c;
}

/** A minimal valid object of a message: its required fields filled. */
export function minimal(message: string): Obj | null {
  const o: Obj = {};
  for (const f of FIELDS.filter((x) => x.message === message && x.required)) {
    if (f.kind === "message" && f.type === "core.Address") {
      o[f.field] = { socket_address: { address: "127.0.0.1", port_value: 0 } };
    } else if (f.kind === "message" && f.type) {
      const sub = minimal(f.type);
      if (sub === null) return null;
      o[f.field] = f.cardinality === "repeated" ? [sub] : sub;
    } else if (f.kind === "string" && message !== "Cluster.CustomClusterType") {
      // The only required strings are names; the cluster's own name fits them.
      o[f.field] = "conformance_cluster";
    } else return null;
  }
  return o;
}

/** Puts `obj` at `steps` inside a copy of `cluster`. */
export function place(cluster: Obj, steps: readonly Step[], obj: Obj): Obj {
  if (steps.length === 0) return { ...cluster, ...obj };
  const out = structuredClone(cluster);
  let at: Obj = out;
  steps.forEach((s, i) => {
    const last = i === steps.length - 1;
    const existingValue = at[s.field];
    let next: Obj = (Array.isArray(existingValue) ? existingValue[0] : existingValue) as Obj ?? {};
    if (last) next = { ...next, ...obj };
    at[s.field] = s.repeated ? [next] : next;
    at = next;
  });
  return out;
}

/** A cluster where message `m` is present with its required fields, or null. */
export function host(
  m: string,
  paths: Map<string, Step[]>,
): { cluster: Obj; steps: Step[] } | null {
  const steps = paths.get(m);
  if (!steps) return null;
  let cluster = contextFor(steps[0]?.field ?? "name");
  if (cluster === null) return null;
  let msg = "Cluster";
  for (let i = 0; i < steps.length; i++) {
    const row = FIELDS.find((f) => f.message === msg && f.field === steps[i].field);
    if (!row?.type) return null;
    msg = row.type;
    const min = minimal(msg);
    if (min === null) return null;
    cluster = place(cluster, steps.slice(0, i + 1), min);
  }
  return { cluster, steps };
}

/** A valid value of a message-typed field (addresses get a loopback socket address). */
export function sampleMessage(f: Field): unknown {
  const one = SAMPLES[f.type ?? ""] ?? minimal(f.type ?? "") ?? {};
  return f.cardinality === "repeated" ? [one] : one;
}

/**
 * Valid instances of message types whose fields the specification does not show (so the tables
 * cannot describe them); shapes as real Envoy accepts them.
 */
export const SAMPLES: Record<string, Obj> = {
  "core.Address": { socket_address: { address: "127.0.0.1", port_value: 53 } },
  "core.HealthCheck": {
    timeout: "1s",
    interval: "5s",
    unhealthy_threshold: 2,
    healthy_threshold: 2,
    http_health_check: { path: "/healthz" },
  },
  "core.HttpProtocolOptions": { idle_timeout: "60s" },
  "core.Http1ProtocolOptions": {},
  "core.Http2ProtocolOptions": {},
  "cluster.CircuitBreakers": { thresholds: [{ max_connections: 10 }] },
  "cluster.OutlierDetection": { consecutive_5xx: 5 },
  "core.Metadata": { filter_metadata: { "conformance.metadata": { k: "v" } } },
  "auth.UpstreamTlsContext": { sni: "conformance.example" },
  "Cluster.LbSubsetConfig": { subset_selectors: [{ keys: ["version"] }] },
  "Cluster.CommonLbConfig": { healthy_panic_threshold: { value: 40 } },
  "UpstreamConnectionOptions": { tcp_keepalive: {} },
  "core.TcpKeepalive": {},
};

/** A cluster carrying a message-typed field with a valid sample, or null. */
export function withMessage(f: Field, at: { cluster: Obj; steps: Step[] }): Obj | null {
  if (f.kind !== "message" || f.group) return null;
  if (!((f.type ?? "") in SAMPLES) && minimal(f.type ?? "") === null) return null;
  if (f.message === "Cluster" && f.field === "load_assignment") return at.cluster;
  if (f.message === "Cluster" && f.appliesTo) return null;
  if (f.message === "Cluster" && f.field === "hosts") {
    const c: Obj = { ...at.cluster, hosts: sampleMessage(f) };
    delete c.load_assignment;
    return c;
  }
  return place(at.cluster, at.steps, { [f.field]: sampleMessage(f) });
}
