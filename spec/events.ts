/**
 * Table `events`: placeholder until the table is written.
 *
 * @module
 */
import type { Rule } from "./rule.ts";

/** Rows of the `events` table. */
export const EVENTS = [] as const satisfies readonly Rule[];
