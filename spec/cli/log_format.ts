/**
 * Table `cli.log_format`: placeholder until the table is written.
 *
 * @module
 */
import type { LogFlagRow } from "../rule.ts";

/** Rows of the `cli.log_format` table. */
export const LOG_FLAGS = [] as const satisfies readonly LogFlagRow[];
