/**
 * The proto descriptions of `envoy.api.v2.Cluster` and the nested messages the Cluster tables
 * cover, generated from the rows of `spec/cluster/fields.ts` and `spec/cluster/objects.ts`
 * (field name, `number`, kind, cardinality, enum, type) and the enum values of
 * `spec/cluster/enums.ts`. Nothing here restates a row: a field is described exactly when its
 * row carries a published v2 field number; rows without one are listed in `undescribed`, and
 * the decoders refuse data they cannot place, naming the table file and the message.
 *
 * `PROTO_MESSAGES` is what the `.pb` / `.pb_text` decoders read: the hand-written bootstrap
 * descriptions of `bootstrap_schema.ts`, plus these generated ones, plus the well-known types the
 * Cluster needs (`type.Percent`, `DoubleValue`, `Any`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROTO_MESSAGES } from "./proto_cluster_schema.ts";
 * const ring = PROTO_MESSAGES["envoy.api.v2.Cluster.RingHashLbConfig"];
 * assert.deepEqual(ring.fields.map((f) => [f.name, f.number]).slice(0, 2), [
 *   ["minimum_ring_size", 1],
 *   ["hash_function", 3],
 * ]);
 * ```
 * @module
 */
import { CLUSTER_FIELDS } from "../../spec/cluster/fields.ts";
import { CLUSTER_OBJECTS } from "../../spec/cluster/objects.ts";
import { CLUSTER_ENUMS } from "../../spec/cluster/enums.ts";
import type { FieldRow } from "../../spec/rule.ts";
import { type FieldDesc, type FieldKind, type MessageDesc, MESSAGES } from "./bootstrap_schema.ts";

/** The v2 package the Cluster tables' type names are relative to. */
export const V2_PACKAGE = "envoy.api.v2";

const DURATION = "google.protobuf.Duration";
const STRUCT = "google.protobuf.Struct";
/** Full name of `google.protobuf.Any`. */
export const ANY = "google.protobuf.Any";
const PERCENT = "envoy.type.Percent";
const DOUBLEV = "google.protobuf.DoubleValue";

/**
 * The full proto name of a table type name (`core.Address` -> `envoy.api.v2.core.Address`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fullTypeName } from "./proto_cluster_schema.ts";
 * assert.equal(fullTypeName("Cluster.RingHashLbConfig"), "envoy.api.v2.Cluster.RingHashLbConfig");
 * ```
 */
export function fullTypeName(tableType: string): string {
  return `${V2_PACKAGE}.${tableType}`;
}

function enumValues(name: string | undefined): readonly string[] | undefined {
  const row = CLUSTER_ENUMS.find((e) => e.name === name);
  if (!row) return undefined;
  const values: string[] = [];
  for (const v of row.values) values[v.number] = v.name;
  return values;
}

function kindOf(row: FieldRow): FieldKind | undefined {
  switch (row.kind) {
    case "string":
    case "bytes":
    case "bool":
    case "uint32":
    case "uint64":
    case "int64":
    case "double":
      return { scalar: row.kind };
    case "enum": {
      const values = enumValues(row.enum);
      return values ? { enum: values } : undefined;
    }
    case "duration":
      return { message: DURATION };
    case "UInt32Value":
      return { message: "google.protobuf.UInt32Value" };
    case "UInt64Value":
      return { message: "google.protobuf.UInt64Value" };
    case "Percent":
      return { message: PERCENT };
    case "struct":
      return { message: STRUCT };
    case "any":
      return { message: ANY };
    case "message":
      return row.type ? { message: fullTypeName(row.type) } : undefined;
  }
}

function tableOf(row: FieldRow): string {
  return row.message === "Cluster" ? "spec/cluster/fields.ts" : "spec/cluster/objects.ts";
}

/** Builds the described messages from table rows (exported for tests). */
export function describeRows(rows: readonly FieldRow[]): Record<string, MessageDesc> {
  const out: Record<string, MessageDesc & { fields: FieldDesc[]; undescribed: string[] }> = {};
  for (const row of rows) {
    const fullName = fullTypeName(row.message);
    const desc = out[fullName] ??= { fullName, fields: [], undescribed: [], source: tableOf(row) };
    const kind = kindOf(row);
    if (row.number === undefined || kind === undefined) {
      desc.undescribed.push(row.field);
      continue;
    }
    desc.fields.push({
      name: row.field,
      number: row.number,
      kind,
      ...(row.cardinality === "repeated" ? { repeated: true } : {}),
      ...(row.cardinality === "map" ? { map: true } : {}),
    });
  }
  return out;
}

/** The Cluster messages generated from the tables, by full name. */
export const CLUSTER_MESSAGES: Readonly<Record<string, MessageDesc>> = describeRows([
  ...(CLUSTER_FIELDS as readonly FieldRow[]),
  ...(CLUSTER_OBJECTS as readonly FieldRow[]),
]);

const WELL_KNOWN: Readonly<Record<string, MessageDesc>> = {
  [PERCENT]: {
    fullName: PERCENT,
    fields: [{ name: "value", number: 1, kind: { scalar: "double" } }],
  },
  [DOUBLEV]: {
    fullName: DOUBLEV,
    fields: [{ name: "value", number: 1, kind: { scalar: "double" } }],
    wellKnown: "wrapper",
  },
  [ANY]: {
    fullName: ANY,
    fields: [
      { name: "type_url", number: 1, kind: { scalar: "string" } },
      { name: "value", number: 2, kind: { scalar: "bytes" } },
    ],
    wellKnown: "any",
  },
};

/**
 * Every message the `.pb` / `.pb_text` decoders can read. A message already written by hand in
 * `bootstrap_schema.ts` (core.Address, core.SocketAddress, ...) keeps that description; the test
 * checks that the table numbers agree with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PROTO_MESSAGES } from "./proto_cluster_schema.ts";
 * assert.equal(PROTO_MESSAGES["envoy.api.v2.Cluster"].fields.find((f) => f.name === "load_assignment")?.number, 33);
 * ```
 */
export const PROTO_MESSAGES: Readonly<Record<string, MessageDesc>> = {
  ...CLUSTER_MESSAGES,
  ...WELL_KNOWN,
  ...MESSAGES,
};

/**
 * The type URL's message name (`type.googleapis.com/envoy.api.v2.Cluster` -> `envoy.api.v2.Cluster`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anyTypeName } from "./proto_cluster_schema.ts";
 * assert.equal(anyTypeName("type.googleapis.com/envoy.api.v2.Cluster"), "envoy.api.v2.Cluster");
 * ```
 */
export function anyTypeName(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf("/") + 1);
}
