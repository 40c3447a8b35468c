/**
 * Table `limits`: placeholder until the table is written.
 *
 * @module
 */
import type { LimitRow } from "./rule.ts";

/** Rows of the `limits` table. */
export const LIMITS = [] as const satisfies readonly LimitRow[];
