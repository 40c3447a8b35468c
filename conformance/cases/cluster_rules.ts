/**
 * Cases for `cluster.rules`: each cross-field rule row, read through its machine form
 * (`requires-policy`, `policy-type`, `exclusive`, ...), becomes a pair of clusters, one that
 * keeps the rule (accepted) and one that breaks it (rejected), validated with `--mode validate`.
 * Rules of kind `semantic` are matched by name to a pair below; an unknown name gets no case.
 *
 * @example
 * ```ts
 * import { allRules } from "../../spec/mod.ts";
 * import { clusterRuleCases } from "./cluster_rules.ts";
 * const cases = clusterRuleCases({ rules: allRules(), variant: "new" });
 * ```
 * @module
 */
import { CLUSTER_RULES } from "../../spec/mod.ts";
import type { ClusterRuleRow } from "../../spec/mod.ts";
import type { Case, CaseContext } from "../types.ts";
import type { Profile } from "../profile.ts";
import { FIELDS } from "../arbitraries.ts";
import { baseCluster } from "./bootstrap_files.ts";
import type { Obj } from "./bootstrap_files.ts";
import { acceptedTogether, rejected } from "./cluster_validate.ts";
import { existing } from "./util.ts";
import type { BuildInput } from "./util.ts";

/** A pair: a cluster keeping the rule and one breaking it. */
type Pair = { good: Obj; bad: Obj } | Array<{ good: Obj; bad: Obj }>;
type Loose = Record<string, unknown>;

const addr = (address: string, port_value = 8080) => ({ socket_address: { address, port_value } });
const endpoints = (...hosts: string[]) => ({
  cluster_name: "conformance_cluster",
  endpoints: [{ lb_endpoints: hosts.map((h) => ({ endpoint: { address: addr(h) } })) }],
});
const healthCheck = (grpc = false) => ({
  timeout: "1s",
  interval: "5s",
  unhealthy_threshold: 2,
  healthy_threshold: 2,
  ...(grpc ? { grpc_health_check: {} } : { http_health_check: { path: "/healthz" } }),
});

/** A cluster of `type`, with members only where that type takes them. */
function ofType(type: string, policy?: string): Obj {
  const c: Obj = { ...baseCluster(), type };
  if (type === "ORIGINAL_DST" || type === "EDS") delete c.load_assignment;
  if (type === "ORIGINAL_DST") c.lb_policy = policy ?? "ORIGINAL_DST_LB";
  else if (policy) c.lb_policy = policy;
  return c;
}

/** The type a policy needs, from the `type-policy` rows (STATIC when none names it). */
function typeFor(policy: string): string {
  for (const r of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    const k = r.rule as Loose;
    if (k.kind === "type-policy" && (k.policies as string[]).includes(policy)) {
      return String(k.type);
    }
  }
  return "STATIC";
}

/** Sets a dotted path in a copy of `o`. */
function setPath(o: Obj, path: string, value: unknown): Obj {
  const out = structuredClone(o);
  const keys = path.split(".");
  let at = out;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Obj;
  at[keys.at(-1)!] = value;
  return out;
}

/** A value that "sets" a field: true for bools, an empty object for messages. */
function setValue(path: string): unknown {
  const name = path.split(".").at(-1);
  return FIELDS.find((f) => f.field === name)?.kind === "bool" ? true : {};
}

/** An aggregate cluster `name` over `clusters` (the spec's spelling, renamed by the profile). */
function aggregateCluster(
  p: Profile,
  name: string,
  clusters: unknown,
  policy = "CLUSTER_PROVIDED",
) {
  return {
    name,
    connect_timeout: "1s",
    lb_policy: policy,
    cluster_type: {
      name: p.name("proxy.clusters.aggregate"),
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.clusters.aggregate.v3.ClusterConfig",
        clusters,
      },
    },
  };
}

/** Cluster lists for `semantic` rules that need more than one cluster, by their name. */
const SEMANTIC_LISTS: Record<string, (p: Profile) => { good: Obj[]; bad: Obj[] }> = {
  "aggregate-config": (p) => ({
    good: [baseCluster("a"), aggregateCluster(p, "agg", ["a"])],
    bad: [baseCluster("a"), aggregateCluster(p, "agg", [])],
  }),
  "aggregate-needs-cluster-provided": (p) => ({
    good: [baseCluster("a"), aggregateCluster(p, "agg", ["a"])],
    bad: [baseCluster("a"), aggregateCluster(p, "agg", ["a"], "ROUND_ROBIN")],
  }),
  "aggregate-known-clusters": (p) => ({
    good: [baseCluster("a"), aggregateCluster(p, "agg", ["a"])],
    bad: [baseCluster("a"), aggregateCluster(p, "agg", ["a", "missing"])],
  }),
  "aggregate-no-loop": (p) => ({
    good: [
      baseCluster("a"),
      aggregateCluster(p, "agg", ["a"]),
      aggregateCluster(p, "agg2", ["agg"]),
    ],
    bad: [
      baseCluster("a"),
      aggregateCluster(p, "agg", ["a", "agg2"]),
      aggregateCluster(p, "agg2", ["agg"]),
    ],
  }),
};

/** Pairs for `semantic` rules, by their name. */
const SEMANTIC: Record<string, (p: Profile) => Pair> = {
  "maglev-table-size-prime": () => ({
    good: { ...baseCluster(), lb_policy: "MAGLEV", maglev_lb_config: { table_size: 65537 } },
    bad: { ...baseCluster(), lb_policy: "MAGLEV", maglev_lb_config: { table_size: 65536 } },
  }),
  "logical-dns-single-endpoint": () => ({
    good: { ...ofType("LOGICAL_DNS"), load_assignment: endpoints("127.0.0.1") },
    bad: { ...ofType("LOGICAL_DNS"), load_assignment: endpoints("127.0.0.1", "127.0.0.2") },
  }),
  "logical-dns-single-host": () => {
    const good: Obj = { ...ofType("LOGICAL_DNS"), hosts: [addr("127.0.0.1")] };
    delete good.load_assignment;
    return { good, bad: { ...good, hosts: [addr("127.0.0.1"), addr("127.0.0.2")] } };
  },
  "logical-dns-no-resolver-name": () => ({
    good: { ...ofType("LOGICAL_DNS"), load_assignment: endpoints("127.0.0.1") },
    bad: {
      ...ofType("LOGICAL_DNS"),
      load_assignment: {
        cluster_name: "conformance_cluster",
        endpoints: [{
          lb_endpoints: [{
            endpoint: {
              address: {
                socket_address: {
                  address: "127.0.0.1",
                  port_value: 8080,
                  resolver_name: "conformance",
                },
              },
            },
          }],
        }],
      },
    },
  }),
  "static-hosts-are-ip": () => ({
    good: baseCluster(),
    bad: { ...baseCluster(), load_assignment: endpoints("conformance.invalid") },
  }),
  "grpc-health-check-needs-http2": () => ({
    good: { ...baseCluster(), health_checks: [healthCheck(true)], http2_protocol_options: {} },
    bad: { ...baseCluster(), health_checks: [healthCheck(true)] },
  }),
  "http1-and-http2-need-protocol-selection": () => ({
    good: {
      ...baseCluster(),
      http_protocol_options: {},
      http2_protocol_options: {},
      protocol_selection: "USE_DOWNSTREAM_PROTOCOL",
    },
    bad: { ...baseCluster(), http_protocol_options: {}, http2_protocol_options: {} },
  }),
  "tls-files-readable": () => ({
    good: baseCluster(),
    bad: {
      ...baseCluster(),
      tls_context: {
        common_tls_context: {
          validation_context: { trusted_ca: { filename: "/nonexistent/conformance-ca.pem" } },
        },
      },
    },
  }),
};

/**
 * Derives the accepted/rejected pair(s) of a rule row, or null when the suite cannot.
 *
 * @param row the rule row
 * @param p the naming profile
 * @returns the pairs, or null
 */
export function rulePairs(row: ClusterRuleRow, p: Profile): Pair | null {
  const r = row.rule as Loose;
  const base = baseCluster();
  switch (r.kind) {
    case "requires-policy": {
      const good = { ...base, lb_policy: (r.policies as string[])[0], [String(r.field)]: {} };
      const other = (r.policies as string[]).includes("ROUND_ROBIN") ? "RANDOM" : "ROUND_ROBIN";
      return { good, bad: { ...good, lb_policy: other } };
    }
    case "hosts-required":
      return (r.types as string[]).map((t) => {
        const good = ofType(t);
        const bad = { ...good };
        delete bad.load_assignment;
        return { good, bad };
      });
    case "min-not-above-max": {
      const [top, lo] = String(r.min).split(".");
      const hi = String(r.max).split(".")[1];
      const ctx = top === "ring_hash_lb_config" ? { ...base, lb_policy: "RING_HASH" } : base;
      return {
        good: { ...ctx, [top]: { [lo]: 1024, [hi]: 2048 } },
        bad: { ...ctx, [top]: { [lo]: 2048, [hi]: 1024 } },
      };
    }
    case "policy-type": {
      const other = ["STATIC", "STRICT_DNS"].find((t) => !(r.types as string[]).includes(t));
      return other ? { good: base, bad: ofType(other, String(r.policy)) } : null;
    }
    case "type-policy": {
      const good = ofType(String(r.type), (r.policies as string[])[0]);
      const wrong = ["ROUND_ROBIN", "RANDOM"].find((x) => !(r.policies as string[]).includes(x));
      return wrong ? { good, bad: { ...good, lb_policy: wrong } } : null;
    }
    case "custom-type": {
      const names = (r.names as Array<{ name: string; type: string }>)
        .filter((n) => n.name.startsWith(`${p.word}.`) && n.type === "STATIC");
      if (names.length === 0) return null;
      const bare = { ...base };
      delete bare.type;
      return {
        good: { ...bare, cluster_type: { name: names[0].name } },
        bad: { ...bare, cluster_type: { name: "conformance.cluster.unregistered" } },
      };
    }
    case "type-requires": {
      const bad = ofType(String(r.type));
      return {
        good: {
          ...bad,
          [String(r.field)]: {
            eds_config: { path: "/nonexistent/proxyspec-conformance-eds.yaml" },
          },
        },
        bad,
      };
    }
    case "max-items": {
      if (r.field !== "health_checks") return null;
      const n = Number(r.max);
      return {
        good: { ...base, health_checks: Array.from({ length: n }, () => healthCheck()) },
        bad: { ...base, health_checks: Array.from({ length: n + 1 }, () => healthCheck()) },
      };
    }
    case "group": {
      const [a, b] = FIELDS.filter((f) => f.message === "Cluster" && f.group === r.group).map((f) =>
        f.field
      );
      const value = (f: string) =>
        f.startsWith("typed_")
          ? { "conformance.extension": { "@type": "type.googleapis.com/google.protobuf.Struct" } }
          : { "conformance.extension": {} };
      const good = { ...base, [b]: value(b) };
      return { good, bad: { ...good, [a]: value(a) } };
    }
    case "policy-forbids": {
      return (r.policies as string[]).map((pol) => {
        const good = ofType(typeFor(pol), pol);
        return { good, bad: { ...good, [String(r.field)]: {} } };
      });
    }
    case "requires-field": {
      const bad = setPath(base, String(r.field), setValue(String(r.field)));
      return { good: setPath(bad, String(r.requires), {}), bad };
    }
    case "semantic":
      return SEMANTIC[String(r.name)]?.(p) ?? null;
    default:
      return null;
  }
}

/**
 * Builds the cross-field rule cases.
 *
 * @param input every rule and the variant
 * @returns the cases
 */
export function clusterRuleCases(input: BuildInput): Case[] {
  const out: Case[] = [];
  for (const row of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    if (row.check === "internal") continue;
    const kind = (row.rule as Loose).kind;
    if (kind === "unique-name") {
      out.push({
        id: `cluster-rule:${row.id}`,
        title: row.statement,
        rules: existing(input.rules, row.id),
        target: "command",
        phase: "read",
        run: (ctx) =>
          rejected(
            ctx,
            [baseCluster("a"), baseCluster("b")],
            [baseCluster("a"), baseCluster("a")],
            "two clusters named a",
          ),
      });
      continue;
    }
    const lists = kind === "semantic"
      ? SEMANTIC_LISTS[String((row.rule as Loose).name)]
      : undefined;
    if (lists) {
      out.push({
        id: `cluster-rule:${row.id}`,
        title: row.statement,
        rules: existing(input.rules, row.id),
        target: "command",
        phase: "read",
        run: (ctx) => {
          const { good, bad } = lists(ctx.profile);
          return rejected(ctx, good, bad, `${row.id}: ${JSON.stringify(bad).slice(0, 160)}`);
        },
      });
      continue;
    }
    if (rulePairs(row, { id: "seed", word: "proxy", name: (s) => s, text: (s) => s }) === null) {
      continue;
    }
    // Rows of the objects a rule's accepted cluster sets, when the pair exercises them.
    const extra = kind === "requires-policy"
      ? ["errors.lb-config-without-policy"]
      : kind === "custom-type"
      ? ["cluster.objects.custom-cluster-type.name", "cluster.fields.cluster-type"]
      : kind === "type-requires"
      ? ["cluster.objects.eds-cluster-config.eds-config", "cluster.fields.eds-cluster-config"]
      : [];
    out.push({
      id: `cluster-rule:${row.id}`,
      title: row.statement,
      rules: existing(input.rules, row.id, ...extra),
      target: "command",
      phase: "read",
      run: async (ctx: CaseContext) => {
        const pairs = rulePairs(row, ctx.profile)!;
        const list = Array.isArray(pairs) ? pairs : [pairs];
        // The accepted halves in one run first: each control below is then already known.
        await acceptedTogether(ctx, list.map(({ good }) => [good]));
        for (const { good, bad } of list) {
          await rejected(ctx, [good], [bad], `${row.id}: ${JSON.stringify(bad).slice(0, 160)}`);
        }
      },
    });
  }
  return out.filter((c) => c.rules.length > 0);
}

/**
 * Field names a cross-field rule constrains; a random valid value of such a field may still be
 * rejected because of another field, so single-field properties leave them out.
 *
 * @returns field names
 */
export function constrainedFields(): Set<string> {
  const out = new Set<string>();
  const names = new Set(FIELDS.map((f) => f.field));
  for (const row of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    const r = row.rule as Loose;
    for (const k of ["field", "requires", "min", "max"]) {
      if (typeof r[k] === "string") out.add(String(r[k]).split(".").at(-1)!);
    }
    for (const f of (r.fields as string[] | undefined) ?? []) out.add(f);
    if (r.kind === "semantic") {
      for (const w of row.statement.split(/[^a-z0-9_]+/)) if (names.has(w)) out.add(w);
    }
  }
  return out;
}
