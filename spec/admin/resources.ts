/**
 * Table `admin.resources`: placeholder until the table is written.
 *
 * @module
 */
import type { Rule } from "../rule.ts";

/** Rows of the `admin.resources` table. */
export const ADMIN_RESOURCES = [] as const satisfies readonly Rule[];
