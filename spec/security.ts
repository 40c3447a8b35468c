/**
 * Table `security`: placeholder until the table is written.
 *
 * @module
 */
import type { Rule } from "./rule.ts";

/** Rows of the `security` table. */
export const SECURITY = [] as const satisfies readonly Rule[];
