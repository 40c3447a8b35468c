/**
 * fast-check arbitraries derived from the Cluster tables (`cluster.fields`, `cluster.objects`,
 * `cluster.enums`, `cluster.rules`): where each described message sits inside a Cluster, valid
 * and invalid values for each field row by its kind, range and enum, and a valid Cluster built
 * from the rows. Nothing here restates a field: kinds, ranges, defaults and enum values all come
 * from the rows.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validClusterArbitrary } from "./arbitraries.ts";
 * const [cluster] = fc.sample(validClusterArbitrary(), 1);
 * ```
 * @module
 */
import fc from "fast-check";
import { CLUSTER_ENUMS, CLUSTER_FIELDS, CLUSTER_OBJECTS, CLUSTER_RULES } from "../spec/mod.ts";
import type { ClusterRuleRow, EnumRow, FieldRow } from "../spec/mod.ts";
import { baseCluster } from "./cases/bootstrap_files.ts";
import type { Obj } from "./cases/bootstrap_files.ts";

/** A field row with the range bounds some tables add (`exclusiveMin`). */
export type Field = FieldRow & {
  range?: { min?: number; max?: number; gtZero?: boolean; exclusiveMin?: number };
};

/** Every field row of the Cluster message and of the described nested messages. */
export const FIELDS: readonly Field[] = [
  ...(CLUSTER_FIELDS as readonly Field[]),
  ...(CLUSTER_OBJECTS as readonly Field[]),
];

/** One step from a message to a nested one. */
export interface Step {
  field: string;
  repeated: boolean;
}

/**
 * Finds, for every message reachable from `Cluster` through message-typed rows, the shortest
 * path of fields that leads to it.
 *
 * @returns message name → steps (empty for `Cluster`)
 * @example
 * ```ts
 * import { messagePaths } from "./arbitraries.ts";
 * messagePaths().get("Cluster.RingHashLbConfig"); // [{ field: "ring_hash_lb_config", repeated: false }]
 * ```
 */
export function messagePaths(): Map<string, Step[]> {
  const paths = new Map<string, Step[]>([["Cluster", []]]);
  const queue = ["Cluster"];
  while (queue.length > 0) {
    const m = queue.shift()!;
    for (const f of FIELDS.filter((r) => r.message === m && r.kind === "message" && r.type)) {
      if (paths.has(f.type!)) continue;
      paths.set(f.type!, [...paths.get(m)!, {
        field: f.field,
        repeated: f.cardinality === "repeated",
      }]);
      queue.push(f.type!);
    }
  }
  return paths;
}

/** The enum row a field names, if any. */
export function enumOf(f: Field): EnumRow | undefined {
  return (CLUSTER_ENUMS as readonly EnumRow[]).find((e) => e.name === f.enum);
}

/** Formats milliseconds as a proto3 JSON Duration. */
export function duration(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

/**
 * Valid values of a field row, from its kind, range and enum (`null` when the suite cannot
 * make one: `any`, messages, maps).
 *
 * @param f the row
 * @returns an arbitrary, or null
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { FIELDS, validValue } from "./arbitraries.ts";
 * const arb = validValue(FIELDS[0]);
 * if (arb) console.log(fc.sample(arb, 3));
 * ```
 */
export function validValue(f: Field): fc.Arbitrary<unknown> | null {
  if (f.cardinality === "map") return null;
  const r = f.range ?? {};
  const lo = Math.max(
    r.min ?? 0,
    r.gtZero ? 1 : 0,
    r.exclusiveMin !== undefined ? r.exclusiveMin + 1 : 0,
  );
  let one: fc.Arbitrary<unknown> | null;
  switch (f.kind) {
    case "string":
      one = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
      break;
    case "bool":
      one = fc.boolean();
      break;
    case "enum": {
      const e = enumOf(f);
      one = e ? fc.constantFrom(...e.values.map((v) => v.name)) : null;
      break;
    }
    case "duration":
      one = fc.integer({ min: lo, max: Math.min(r.max ?? 3_600_000, 3_600_000) }).map(duration);
      break;
    case "uint32":
    case "UInt32Value":
    case "uint64":
    case "UInt64Value":
    case "int64":
      one = fc.integer({ min: lo, max: Math.min(r.max ?? 1_000_000, 1_000_000) });
      break;
    case "double":
      one = fc.double({ min: lo, max: r.max ?? 1000, noNaN: true });
      break;
    case "Percent":
      one = fc.integer({ min: r.min ?? 0, max: r.max ?? 100 }).map((value) => ({ value }));
      break;
    case "struct":
      one = fc.constant({});
      break;
    default:
      one = null;
  }
  if (one === null) return null;
  return f.cardinality === "repeated" ? fc.array(one, { minLength: 1, maxLength: 3 }) : one;
}

/**
 * Values of a field row that its kind, range or enum forbids, each with what makes it bad.
 *
 * @param f the row
 * @returns labelled bad values (empty when the suite knows none)
 * @example
 * ```ts
 * import { FIELDS, invalidValues } from "./arbitraries.ts";
 * invalidValues(FIELDS[0]).map((b) => b.why);
 * ```
 */
export function invalidValues(f: Field): Array<{ why: string; value: unknown }> {
  const out: Array<{ why: string; value: unknown }> = [];
  const r = f.range ?? {};
  const wrap = (v: unknown) => f.cardinality === "repeated" ? [v] : v;
  switch (f.kind) {
    case "enum":
      out.push({ why: "an unknown enum value", value: wrap("CONFORMANCE_UNKNOWN_VALUE") });
      break;
    case "duration":
      out.push({ why: "a malformed duration", value: wrap("abc") });
      if (r.gtZero) out.push({ why: "a zero duration (must be > 0)", value: wrap("0s") });
      if (r.exclusiveMin !== undefined) {
        out.push({
          why: `a duration of ${r.exclusiveMin} ms (must be more)`,
          value: wrap(duration(r.exclusiveMin)),
        });
      }
      if (r.min !== undefined) {
        out.push({ why: "a negative duration", value: wrap(duration(r.min - 1000)) });
      }
      if (r.max !== undefined) {
        out.push({ why: "a duration above the maximum", value: wrap(duration(r.max + 1)) });
      }
      break;
    case "uint32":
    case "UInt32Value":
    case "uint64":
    case "UInt64Value":
      out.push({ why: "a negative number", value: wrap(-1) });
      if (r.max !== undefined) {
        out.push({ why: `${r.max + 1} (above ${r.max})`, value: wrap(r.max + 1) });
      }
      if (r.min !== undefined && r.min > 0) {
        out.push({ why: `${r.min - 1} (below ${r.min})`, value: wrap(r.min - 1) });
      }
      if (r.gtZero) out.push({ why: "0 (must be > 0)", value: wrap(0) });
      break;
    case "Percent":
      if (r.max !== undefined) {
        out.push({ why: "a percentage above the maximum", value: wrap({ value: r.max + 1 }) });
      }
      if (r.min !== undefined) {
        out.push({ why: "a negative percentage", value: wrap({ value: r.min - 1 }) });
      }
      break;
    case "bool":
      out.push({ why: "a string where a bool belongs", value: wrap("notabool") });
      break;
  }
  return out;
}

/** The lb_policy values the rules table ties to a cluster type, or to a cluster_type. */
function policiesNeedingContext(): Set<string> {
  const s = new Set<string>();
  for (const r of CLUSTER_RULES as readonly ClusterRuleRow[]) {
    if (r.rule.kind === "policy-type") s.add(r.rule.policy);
    if (r.rule.kind === "type-policy") { for (const p of r.rule.policies) s.add(p); }
  }
  // Until the rules table ties them to their cluster types: CLUSTER_PROVIDED is for cluster
  // types that bring their own balancer (the enum's meaning), ORIGINAL_DST_LB for ORIGINAL_DST.
  s.add("CLUSTER_PROVIDED");
  s.add("ORIGINAL_DST_LB");
  return s;
}

/**
 * Scalar top-level Cluster fields that any STATIC cluster may carry with any valid value: no
 * group, no discovery-type restriction, not `name`/`type`, and not tied to a policy by a rule.
 *
 * @returns the rows
 * @example
 * ```ts
 * import { freeClusterFields } from "./arbitraries.ts";
 * freeClusterFields().map((f) => f.field);
 * ```
 */
export function freeClusterFields(): Field[] {
  const tied = new Set(
    (CLUSTER_RULES as readonly ClusterRuleRow[]).flatMap((r) =>
      r.rule.kind === "requires-policy" ? [r.rule.field] : []
    ),
  );
  return (CLUSTER_FIELDS as readonly Field[]).filter((f) =>
    f.kind !== "message" && f.kind !== "any" && !f.group && !f.appliesTo && !f.deprecated &&
    !f.required && f.field !== "type" && !tied.has(f.field) && validValue(f) !== null
  );
}

/**
 * A valid STATIC cluster with a random subset of the free fields set to random valid values.
 *
 * @param name the cluster name
 * @returns an arbitrary Cluster (proto3 JSON)
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validClusterArbitrary } from "./arbitraries.ts";
 * fc.sample(validClusterArbitrary("c1"), 2);
 * ```
 */
export function validClusterArbitrary(name = "conformance_cluster"): fc.Arbitrary<Obj> {
  const avoid = policiesNeedingContext();
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of freeClusterFields()) {
    let arb = validValue(f)!;
    if (f.field === "lb_policy") arb = arb.filter((v) => !avoid.has(String(v)));
    parts[f.field] = arb;
  }
  return fc.record(parts, { requiredKeys: [] }).map((extra) => ({
    ...baseCluster(name),
    ...extra,
  }));
}
