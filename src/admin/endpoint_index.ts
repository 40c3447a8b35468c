/**
 * The endpoint table grouped by path: one entry per admin path with its method rule, optional
 * feature, help line and the union of its rows' parameters. The router, `/help` and the home
 * page all read this index, so what they show and enforce comes from `spec/admin/endpoints.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexEndpoints } from "./endpoint_index.ts";
 * import { ENDPOINTS } from "../../spec/admin/endpoints.ts";
 * const index = indexEndpoints(ENDPOINTS);
 * assert.equal(index.get("/quitquitquit")?.mutating, true);
 * ```
 * @module
 */
import type { EndpointRow, Feature, QueryParam } from "../../spec/rule.ts";

/** One admin path. */
export interface EndpointEntry {
  path: string;
  /** POST only: any other method answers 400 and changes nothing. */
  mutating: boolean;
  requires?: Feature;
  help: string;
  params: QueryParam[];
  rows: EndpointRow[];
}

/**
 * Groups rows by path. A path is mutating when any of its rows is; its help line is the first
 * non-empty one.
 */
export function indexEndpoints(rows: readonly EndpointRow[]): Map<string, EndpointEntry> {
  const index = new Map<string, EndpointEntry>();
  for (const row of rows) {
    let e = index.get(row.path);
    if (!e) {
      e = { path: row.path, mutating: false, help: "", params: [], rows: [] };
      index.set(row.path, e);
    }
    e.rows.push(row);
    e.mutating ||= row.mutating;
    e.requires ??= row.requires;
    if (!e.help && row.help) e.help = row.help;
    for (const p of row.params) {
      if (!e.params.some((q) => q.name === p.name)) e.params.push(p);
    }
  }
  return index;
}

/** Paths sorted as Envoy sorts its handlers: by plain string order. */
export function sortedEntries(index: ReadonlyMap<string, EndpointEntry>): EndpointEntry[] {
  return [...index.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
