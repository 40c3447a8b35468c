/**
 * Table `versioning`: placeholder until the table is written.
 *
 * @module
 */
import type { Rule } from "./rule.ts";

/** Rows of the `versioning` table. */
export const VERSIONING = [] as const satisfies readonly Rule[];
