/**
 * Table `errors`: placeholder until the table is written.
 *
 * @module
 */
import type { ErrorRow } from "../rule.ts";

/** Rows of the `errors` table. */
export const ERRORS = [] as const satisfies readonly ErrorRow[];
