/**
 * Table `admin.stats_shapes`: placeholder until the table is written.
 *
 * @module
 */
import type { Rule } from "../rule.ts";

/** Rows of the `admin.stats_shapes` table. */
export const STATS_SHAPES = [] as const satisfies readonly Rule[];
