/**
 * Tables `cli.options` and `cli.constraints`: placeholder until the tables are written.
 *
 * @module
 */
import type { OptionConstraintRow, OptionRow } from "../rule.ts";

/** Rows of the `cli.options` table. */
export const OPTIONS = [] as const satisfies readonly OptionRow[];

/** Rows of the `cli.constraints` table. */
export const OPTION_CONSTRAINTS = [] as const satisfies readonly OptionConstraintRow[];
