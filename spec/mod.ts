/**
 * Every table of the executable specification, by name. `deno task spec:json` writes them to
 * `spec/rules.json`; `deno task spec:doc` to `docs/SPEC.md`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { allRules } from "./mod.ts";
 * const ids = allRules().map((r) => r.id);
 * assert.equal(new Set(ids).size, ids.length); // every rule ID is unique
 * ```
 * @module
 */
import type { Rule, TableName } from "./rule.ts";
import { ENDPOINTS } from "./admin/endpoints.ts";
import { ADMIN_GENERAL } from "./admin/general.ts";
import { ADMIN_RESOURCES } from "./admin/resources.ts";
import { STATS_SHAPES } from "./admin/stats_shapes.ts";
import { STATES } from "./admin/states.ts";
import { ERRORS } from "./admin/errors.ts";
import { LIMITS } from "./limits.ts";
import { VERSIONING } from "./versioning.ts";
import { SECURITY } from "./security.ts";
import { EVENTS } from "./events.ts";
import { CLUSTER_FIELDS } from "./cluster/fields.ts";
import { CLUSTER_OBJECTS } from "./cluster/objects.ts";
import { CLUSTER_ENUMS } from "./cluster/enums.ts";
import { CLUSTER_RULES } from "./cluster/rules.ts";
import { OPTION_CONSTRAINTS, OPTIONS } from "./cli/options.ts";
import { LOG_FLAGS } from "./cli/log_format.ts";

export * from "./rule.ts";
export {
  ADMIN_GENERAL,
  ADMIN_RESOURCES,
  CLUSTER_ENUMS,
  CLUSTER_FIELDS,
  CLUSTER_OBJECTS,
  CLUSTER_RULES,
  ENDPOINTS,
  ERRORS,
  EVENTS,
  LIMITS,
  LOG_FLAGS,
  OPTION_CONSTRAINTS,
  OPTIONS,
  SECURITY,
  STATES,
  STATS_SHAPES,
  VERSIONING,
};

/** Every table, keyed by its name. */
export const TABLES: Readonly<Record<TableName, readonly Rule[]>> = {
  "admin.endpoints": ENDPOINTS,
  "admin.general": ADMIN_GENERAL,
  "admin.resources": ADMIN_RESOURCES,
  "admin.stats_shapes": STATS_SHAPES,
  "admin.states": STATES,
  "errors": ERRORS,
  "limits": LIMITS,
  "versioning": VERSIONING,
  "security": SECURITY,
  "events": EVENTS,
  "cluster.fields": CLUSTER_FIELDS,
  "cluster.objects": CLUSTER_OBJECTS,
  "cluster.enums": CLUSTER_ENUMS,
  "cluster.rules": CLUSTER_RULES,
  "cli.options": OPTIONS,
  "cli.constraints": OPTION_CONSTRAINTS,
  "cli.log_format": LOG_FLAGS,
};

/** A rule tagged with the table it belongs to. */
export type TaggedRule = Rule & { table: TableName };

/** Every row of every table, tagged with its table name, in table order. */
export function allRules(): TaggedRule[] {
  return (Object.entries(TABLES) as [TableName, readonly Rule[]][]).flatMap(([table, rows]) =>
    rows.map((r) => ({ ...r, table }))
  );
}

/** Finds a rule of any table by ID (for tools that take an ID as text). */
export function ruleById(id: string): TaggedRule | undefined {
  return allRules().find((r) => r.id === id);
}

/** The IDs of the rows of a table: literal types for tables declared `as const`. */
export type RowId<T extends readonly Rule[]> = T[number]["id"];

/** The row of table `T` whose ID is `I`, with that row's own (literal) column types. */
export type RowOf<T extends readonly Rule[], I extends RowId<T>> = Extract<T[number], { id: I }>;

const INDEX = new WeakMap<readonly Rule[], ReadonlyMap<string, Rule>>();

/**
 * The row of `table` with ID `id`: the one way implementation code reads a single row. For a
 * table declared `as const`, an ID that is not one of its rows does not compile, and the result
 * has the row's literal column types. Throws when the row is missing (a table typed with plain
 * `string` IDs).
 *
 * @example
 * ```ts
 * import { LIMITS, row } from "./mod.ts";
 * row(LIMITS, "limits.stats-flush-interval").value.default; // 5000
 * ```
 */
export function row<const T extends readonly Rule[], I extends RowId<T>>(
  table: T,
  id: I,
): RowOf<T, I> {
  let index = INDEX.get(table);
  if (index === undefined) {
    index = new Map(table.map((r) => [r.id, r]));
    INDEX.set(table, index);
  }
  const found = index.get(id);
  if (found === undefined) throw new Error(`no row ${id} in this table`);
  return found as RowOf<T, I>;
}
