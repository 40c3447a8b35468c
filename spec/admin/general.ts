/**
 * Table `admin.general`: placeholder until the table is written.
 *
 * @module
 */
import type { Rule } from "../rule.ts";

/** Rows of the `admin.general` table. */
export const ADMIN_GENERAL = [] as const satisfies readonly Rule[];
