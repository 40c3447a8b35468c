/**
 * Table `admin.states`: placeholder until the table is written.
 *
 * @module
 */
import type { StateRow } from "../rule.ts";

/** Rows of the `admin.states` table. */
export const STATES = [] as const satisfies readonly StateRow[];
