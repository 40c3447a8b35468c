/**
 * Defaults read from the tables: the value of a field of a message, or the message with every
 * tabled default filled in, from the `default` column of the `cluster.fields` / `cluster.objects`
 * rows; nothing here restates a tabled value. The effective cluster
 * (`effective_cluster.ts`) is built from these.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueOf } from "./defaults.ts";
 * assert.equal(valueOf("Cluster", {}, "lb_policy"), "ROUND_ROBIN");
 * ```
 * @module
 */
import type { DiscoveryType } from "../../spec/rule.ts";
import { CLUSTER_RULES, row } from "../../spec/mod.ts";
import type { JsonObject } from "./bootstrap_types.ts";
import { ENUMS, enumValues, fieldRow, MESSAGES } from "./nested_schema.ts";
import { isObject, parseDuration, parseEnum, parsePercent, parseUInt64 } from "./values.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (isObject(v) ? v : undefined);

/**
 * The value of `message.field` in `o`, or the row's default, in the kind's unit: Durations in
 * milliseconds, Percent as its number, enums as canonical names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueOf } from "./defaults.ts";
 * assert.equal(valueOf("Cluster.RingHashLbConfig", {}, "maximum_ring_size"), 8388608);
 * ```
 */
export function valueOf(message: string, o: Obj | undefined, field: string): unknown {
  const row = fieldRow(message, field);
  const set = o?.[field];
  const parsed = set === undefined || set === null ? undefined : parseKind(row.kind, set, row.enum);
  if (parsed !== undefined) return parsed;
  if (row.default === undefined) return undefined;
  const known = DEFAULTS.get(row);
  if (known !== undefined || DEFAULTS.has(row)) return known;
  const d = parseKind(row.kind, row.default, row.enum);
  DEFAULTS.set(row, d);
  return d;
}

/** Each row's default in its kind's unit, parsed on first use. */
const DEFAULTS = new Map<object, unknown>();

function parseKind(kind: string, v: unknown, enumName?: string): unknown {
  switch (kind) {
    case "duration": {
      const p = parseDuration(v);
      return p.ok ? p.value : undefined;
    }
    case "Percent": {
      const p = parsePercent(v);
      return p.ok ? p.value : undefined;
    }
    case "uint32":
    case "uint64":
    case "UInt32Value":
    case "UInt64Value": {
      const p = parseUInt64(v);
      return p.ok ? p.value : undefined;
    }
    case "enum": {
      const e = ENUMS.get(enumName ?? "");
      if (!e) return undefined;
      const { names, numbers } = enumValues(e);
      const p = parseEnum(v, names, numbers);
      return p.ok ? p.value : undefined;
    }
    case "bool":
      return typeof v === "boolean" ? v : undefined;
    default:
      return v;
  }
}

/**
 * A copy of `o` with every unset field of `message` that has a default filled in, in proto3
 * JSON form (for health checks and outlier detection, which the proxy core reads as JSON).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withDefaults } from "./defaults.ts";
 * assert.equal(withDefaults("cluster.OutlierDetection", {}).consecutive_5xx, 5);
 * ```
 */
export function withDefaults(message: string, o: Obj): JsonObject {
  const out: Obj = { ...o };
  for (const r of MESSAGES.get(message) ?? []) {
    if ((out[r.field] === undefined || out[r.field] === null) && r.default !== undefined) {
      const d = r.default;
      // Only an object default needs its own copy (a primitive is a value already).
      out[r.field] = typeof d === "object" && d !== null ? structuredClone(d) : d;
    }
  }
  return out as JsonObject;
}

/** The discovery type of a cluster: `type`, or the type a registered `cluster_type` selects. */
export function discoveryTypeOf(c: Obj): { type: DiscoveryType; customType?: string } {
  const custom = obj(c.cluster_type);
  if (custom && typeof custom.name === "string") {
    const hit = row(CLUSTER_RULES, "cluster.rules.custom-type-registered").rule.names
      .find((n) => n.name === custom.name);
    if (hit) return { type: hit.type, customType: custom.name };
    return { type: valueOf("Cluster", {}, "type") as DiscoveryType, customType: custom.name };
  }
  return { type: valueOf("Cluster", c, "type") as DiscoveryType };
}
