/**
 * The schema interpreter behind the Cluster validator: it indexes the `cluster.fields`,
 * `cluster.objects` and `cluster.enums` tables by message name and checks one JSON object
 * against the rows of its message -- value kinds, cardinality, enums, ranges, required fields,
 * exclusivity groups (and required oneofs), unknown fields -- recursing into every nested message
 * the tables describe. A message type without rows is opaque: only its object shape is checked.
 * It returns a normalized copy (snake_case keys, canonical enum names, invalid fields dropped)
 * so that cross-field rules and defaults read well-formed values only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { validateMessage } from "./nested_schema.ts";
 * const errors: { path: string; rule: string; message: string }[] = [];
 * validateMessage("Cluster.RingHashLbConfig", { minimum_ring_size: 9000000 }, "c.ring", {
 *   errors,
 *   allowUnknown: false,
 * });
 * assert.equal(errors[0].rule, "cluster.objects.ring-hash-lb-config.minimum-ring-size");
 * ```
 * @module
 */
import { CLUSTER_FIELDS } from "../../spec/cluster/fields.ts";
import { CLUSTER_OBJECTS } from "../../spec/cluster/objects.ts";
import { CLUSTER_ENUMS } from "../../spec/cluster/enums.ts";
import { CLUSTER_RULES } from "../../spec/cluster/rules.ts";
import { ERRORS, row } from "../../spec/mod.ts";
import type { EnumRow, FieldRow } from "../../spec/rule.ts";
import type { ConfigError } from "./errors.ts";
import {
  isObject,
  parseBool,
  type Parsed,
  parseDouble,
  parseDuration,
  parseEnum,
  parseInt64,
  parsePercent,
  parseUInt32,
  parseUInt64,
  show,
} from "./values.ts";

/** Every described message, by name (`Cluster`, `Cluster.RingHashLbConfig`, `core.Address`). */
export const MESSAGES: ReadonlyMap<string, readonly FieldRow[]> = (() => {
  const m = new Map<string, FieldRow[]>();
  for (const r of [...CLUSTER_FIELDS, ...CLUSTER_OBJECTS] as readonly FieldRow[]) {
    const list = m.get(r.message) ?? [];
    list.push(r);
    m.set(r.message, list);
  }
  return m;
})();

/** Every enumeration, by name. */
export const ENUMS: ReadonlyMap<string, EnumRow> = new Map(
  (CLUSTER_ENUMS as readonly EnumRow[]).map((e) => [e.name, e]),
);

/** What {@linkcode validateMessage} reads of a message's rows, built once per message. */
interface MessageIndex {
  byName: ReadonlyMap<string, FieldRow>;
  required: readonly FieldRow[];
  /** The groups one of whose members must be set, each once, in table order. */
  requiredGroups: readonly string[];
}

const INDEX = new Map<string, MessageIndex>();

function indexOf(message: string): MessageIndex {
  let ix = INDEX.get(message);
  if (ix) return ix;
  const rows = MESSAGES.get(message) ?? [];
  ix = {
    byName: new Map(rows.map((r) => [r.field, r])),
    required: rows.filter((r) => r.required),
    requiredGroups: [...new Set(rows.filter((r) => r.groupRequired).map((r) => r.group!))],
  };
  INDEX.set(message, ix);
  return ix;
}

/** The row of a field of a described message. */
export function fieldRow(message: string, field: string): FieldRow {
  const row = indexOf(message).byName.get(field);
  if (!row) throw new Error(`no table row for ${message}.${field}`);
  return row;
}

/** An enumeration's value names and numbers, in table order (built once per enumeration). */
export function enumValues(e: EnumRow): { names: readonly string[]; numbers: readonly number[] } {
  let v = ENUM_VALUES.get(e);
  if (!v) {
    v = { names: e.values.map((x) => x.name), numbers: e.values.map((x) => x.number) };
    ENUM_VALUES.set(e, v);
  }
  return v;
}

const ENUM_VALUES = new WeakMap<
  EnumRow,
  { names: readonly string[]; numbers: readonly number[] }
>();

/** The rule ID for unknown fields: the `errors` table row about unknown protobuf fields. */
export function unknownFieldRule(): string {
  return row(ERRORS, "errors.unknown-static-fields").id;
}

/** Where errors go and how unknown fields are treated. */
export interface SchemaContext {
  errors: ConfigError[];
  allowUnknown: boolean;
  onUnknown?: (path: string) => void;
}

/** A proto3 JSON (lowerCamelCase) field name in its proto (snake_case) spelling. */
export const camelToSnake = (k: string): string =>
  HAS_UPPER.test(k) ? k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase()) : k;

/** A proto field name has no upper-case letter: most keys need no rewriting (checked once). */
const HAS_UPPER = /[A-Z]/;

/**
 * True for proto3 JSON `bytes`: base64, standard or URL-safe, padded or not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBase64 } from "./nested_schema.ts";
 * assert.ok(isBase64("UE9ORw=="));
 * assert.ok(isBase64("UE9ORw"));
 * assert.ok(!isBase64("not base64!"));
 * ```
 */
export function isBase64(text: string): boolean {
  return /^[A-Za-z0-9+/_-]*={0,2}$/.test(text) && text.replace(/=+$/, "").length % 4 !== 1;
}

/** True when a JSON value counts as set (proto3 JSON: `null` means unset). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function parseScalar(row: FieldRow, v: unknown): Parsed<unknown> {
  switch (row.kind) {
    case "string":
      return typeof v === "string" ? { ok: true, value: v } : {
        ok: false,
        error: `expected a string, got ${show(v)}`,
      };
    case "bytes":
      return typeof v === "string" && isBase64(v) ? { ok: true, value: v } : {
        ok: false,
        error: `expected base64 bytes, got ${show(v)}`,
      };
    case "bool":
      return parseBool(v);
    case "duration":
      return parseDuration(v);
    case "uint32":
    case "UInt32Value":
      return parseUInt32(v);
    case "uint64":
    case "UInt64Value":
      return parseUInt64(v);
    case "int64":
      return parseInt64(v);
    case "double":
      return parseDouble(v);
    case "Percent":
      return parsePercent(v);
    case "struct":
      return isObject(v) ? { ok: true, value: v } : {
        ok: false,
        error: `expected an object (Struct), got ${show(v)}`,
      };
    case "any":
      if (!isObject(v)) return { ok: false, error: `expected an object (Any), got ${show(v)}` };
      return typeof v["@type"] === "string" ? { ok: true, value: v } : {
        ok: false,
        error: `an Any needs a string "@type" naming its message type`,
      };
    default:
      return { ok: false, error: `unsupported value kind ${row.kind}` };
  }
}

/** Checks a number against a row's range; returns an error sentence or null. */
export function rangeError(row: FieldRow, n: number): string | null {
  const r = row.range;
  if (!r) return null;
  const unit = row.kind === "duration" ? "ms" : "";
  const got = `${n}${unit}`;
  if (r.gtZero && !(n > 0)) return `value must be greater than 0 (got ${got})`;
  if (r.exclusiveMin !== undefined && !(n > r.exclusiveMin)) {
    return `value must be greater than ${r.exclusiveMin}${unit} (got ${got})`;
  }
  if (r.min !== undefined && r.max !== undefined && (n < r.min || n > r.max)) {
    return `value must be inside range [${r.min}, ${r.max}]${unit} (got ${got})`;
  }
  if (r.min !== undefined && n < r.min) {
    return `value must be greater than or equal to ${r.min}${unit} (got ${got})`;
  }
  if (r.max !== undefined && n > r.max) {
    if (row.kind.toLowerCase().startsWith("uint")) {
      return `value must be inside range [0, ${r.max}] (got ${got})`;
    }
    return `value must be less than or equal to ${r.max}${unit} (got ${got})`;
  }
  return null;
}

/** Value kinds parsed to an unsigned number (the rows' `uint32`, `UInt64Value`, ...). */
const UNSIGNED: ReadonlySet<string> = new Set(["uint32", "uint64", "UInt32Value", "UInt64Value"]);

/** Value kinds parsed to a number that a row's range applies to. */
const NUMERIC: ReadonlySet<string> = new Set([
  ...UNSIGNED,
  "duration",
  "Percent",
  "double",
  "int64",
]);

/**
 * The path of a field's value: `key` under `base`, `base.key` for a field or map key and
 * `base[key]` for a list index. Built only when needed (an error, a nested message): most values
 * are valid scalars, whose paths would be garbage.
 */
function pathOf(base: string, key: string | number): string {
  return typeof key === "number" ? `${base}[${key}]` : `${base}.${key}`;
}

/** Reports an error at `key` under `base`; answers undefined (the value is left out). */
function reject(
  ctx: SchemaContext,
  base: string,
  key: string | number,
  rule: string,
  message: string,
): undefined {
  ctx.errors.push({ path: pathOf(base, key), rule, message });
  return undefined;
}

/**
 * Checks one element (not an array) of a field, at `key` under `base` (see {@linkcode pathOf});
 * returns its normalized form or undefined.
 */
function checkElement(
  row: FieldRow,
  v: unknown,
  base: string,
  key: string | number,
  ctx: SchemaContext,
): unknown {
  const kind = row.kind;
  if (kind === "message") {
    if (!isObject(v)) {
      return reject(ctx, base, key, row.id, `expected an object (${row.type}), got ${show(v)}`);
    }
    return MESSAGES.has(row.type ?? "") ? validateMessage(row.type!, v, pathOf(base, key), ctx) : v;
  }
  if (kind === "enum") {
    const e = ENUMS.get(row.enum ?? "");
    if (!e) return reject(ctx, base, key, row.id, `no enumeration ${row.enum} in the tables`);
    const { names, numbers } = enumValues(e);
    const p = parseEnum(v, names, numbers);
    return p.ok ? p.value : reject(ctx, base, key, e.id, `${p.error} (${e.name})`);
  }
  // A string is its own value (parseScalar's answer, without building it).
  if (kind === "string" && typeof v === "string") {
    if (row.required && v === "") {
      return reject(
        ctx,
        base,
        key,
        row.id,
        "value must not be empty (value length must be at least 1 bytes)",
      );
    }
    return v;
  }
  const p = parseScalar(row, v);
  if (!p.ok) {
    // A negative number for an unsigned field with a range of its own is out of that range
    // (as a value above it is), not out of the whole type's range.
    const max = row.range?.max;
    if (
      max !== undefined && typeof v === "number" && Number.isInteger(v) && v < 0 &&
      UNSIGNED.has(kind)
    ) {
      return reject(
        ctx,
        base,
        key,
        row.id,
        `value must be inside range [${row.range?.min ?? 0}, ${max}] (got ${v})`,
      );
    }
    return reject(ctx, base, key, row.id, p.error);
  }
  if (row.range !== undefined && NUMERIC.has(kind)) {
    const re = rangeError(row, p.value as number);
    if (re) return reject(ctx, base, key, row.id, re);
  }
  return v;
}

/**
 * Checks one field value, `key` of the message at `base`, with its cardinality; returns the
 * normalized value or undefined.
 */
function checkField(
  row: FieldRow,
  v: unknown,
  base: string,
  key: string,
  ctx: SchemaContext,
): unknown {
  if (row.cardinality === "repeated") {
    const path = `${base}.${key}`;
    if (!Array.isArray(v)) {
      ctx.errors.push({ path, rule: row.id, message: `expected a list, got ${show(v)}` });
      return undefined;
    }
    // The normalized list, made at the first item not kept as it is (until then `v` is it).
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const y = checkElement(row, v[i], path, i, ctx);
      if (out === undefined) {
        if (y === v[i]) continue;
        out = v.slice(0, i);
      }
      if (y !== undefined) out.push(y);
    }
    return out ?? v;
  }
  if (row.cardinality === "map") {
    const path = `${base}.${key}`;
    if (!isObject(v)) {
      ctx.errors.push({ path, rule: row.id, message: `expected a map (object), got ${show(v)}` });
      return undefined;
    }
    const out: Record<string, unknown> = {};
    let same = true;
    for (const [k, x] of Object.entries(v)) {
      const y = checkElement(row, x, path, k, ctx);
      if (y !== undefined) out[k] = y;
      if (y !== x) same = false;
    }
    return same ? v : out;
  }
  return checkElement(row, v, base, key, ctx);
}

/**
 * Checks `value` against the rows of `message`; pushes every error to `ctx.errors` and returns
 * the normalized object (fields that failed are left out). When normalizing changes nothing (no
 * key renamed or left out, every value the same), that is `value` itself: a bootstrap's
 * clusters are then not held twice (the same holds for lists and maps, in `checkField`).
 */
export function validateMessage(
  message: string,
  value: Record<string, unknown>,
  path: string,
  ctx: SchemaContext,
): Record<string, unknown> {
  const rows = MESSAGES.get(message) ?? [];
  const { byName, required, requiredGroups } = indexOf(message);
  // The normalized object, made at the first key not kept as it is (until then `value` is it).
  let out: Record<string, unknown> | undefined;
  /** How many keys, all kept as they are, were met before `out` was made. */
  let kept = 0;
  // The exclusivity groups met so far, each with its first member (few per message).
  let groups: string[] | undefined;
  let firsts: FieldRow[] | undefined;
  for (const rawKey in value) {
    if (!Object.hasOwn(value, rawKey)) {
      out ??= keptKeys(value, kept);
      continue;
    }
    const v = value[rawKey];
    let row = byName.get(rawKey);
    const key = row ? rawKey : camelToSnake(rawKey);
    if (!row && key !== rawKey) row = byName.get(key);
    if (!row || !isSet(v) || key !== rawKey) out ??= keptKeys(value, kept);
    if (!row) {
      if (ctx.allowUnknown) ctx.onUnknown?.(`${path}.${rawKey}`);
      else {
        ctx.errors.push({
          path: `${path}.${rawKey}`,
          rule: unknownFieldRule(),
          message: `unknown field "${rawKey}" in ${message} (Cannot find field.)`,
        });
      }
      continue;
    }
    if (!isSet(v)) continue;
    if (row.group) {
      groups ??= [];
      firsts ??= [];
      const g = groups.indexOf(row.group);
      if (g < 0) {
        groups.push(row.group);
        firsts.push(row);
      } else {
        const cited = GROUP_RULES.get(row.group);
        ctx.errors.push({
          path: `${path}.${rawKey}`,
          rule: cited?.id ?? row.id,
          message: cited?.message ??
            `only one of ${groupMembers(rows, row.group)} may be set, and ${
              firsts[g].field
            } is already set (group ${row.group})`,
        });
        out ??= keptKeys(value, kept);
        continue;
      }
    }
    const y = checkField(row, v, path, rawKey, ctx);
    if (out === undefined) {
      if (y === v) {
        kept++;
        continue;
      }
      out = keptKeys(value, kept);
    }
    if (y !== undefined) out[key] = y;
  }
  for (const r of required) {
    if (!isPresent(value, r.field, byName)) {
      ctx.errors.push({
        path: `${path}.${r.field}`,
        rule: r.id,
        message: `${r.field} is required in ${message} (value is required)`,
      });
    }
  }
  for (const g of requiredGroups) {
    if (!groups?.includes(g)) {
      const first = rows.find((r) => r.group === g)!;
      ctx.errors.push({
        path,
        rule: first.id,
        message: `one of ${groupMembers(rows, g)} must be set in ${message} (group ${g})`,
      });
    }
  }
  return out ?? value;
}

/** A copy of the first `n` keys of `value` (own keys all, met in order), with their values. */
function keptKeys(value: Record<string, unknown>, n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (n === 0) return out;
  let i = 0;
  for (const k in value) {
    out[k] = value[k];
    if (++i === n) break;
  }
  return out;
}

/**
 * True when a key of `value` names `field` (as it is, or in its lowerCamelCase spelling when
 * that is no field of its own) with a set value: what makes a required field present.
 */
function isPresent(
  value: Record<string, unknown>,
  field: string,
  byName: ReadonlyMap<string, FieldRow>,
): boolean {
  if (Object.hasOwn(value, field) && isSet(value[field])) return true;
  for (const rawKey in value) {
    if (!Object.hasOwn(value, rawKey) || byName.has(rawKey)) continue;
    if (camelToSnake(rawKey) === field && isSet(value[rawKey])) return true;
  }
  return false;
}

/** Cluster rule rows that cite an exclusivity group, by group: their ID and message win. */
const GROUP_RULES: ReadonlyMap<string, { id: string; message: string }> = new Map(
  CLUSTER_RULES.flatMap((r) => r.rule.kind === "group" ? [[r.rule.group, r]] : []),
);

function groupMembers(rows: readonly FieldRow[], group: string): string {
  return rows.filter((r) => r.group === group).map((r) => r.field).join(", ");
}
