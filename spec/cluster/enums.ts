/**
 * Table `cluster.enums`: placeholder until the table is written.
 *
 * @module
 */
import type { EnumRow } from "../rule.ts";

/** Rows of the `cluster.enums` table. */
export const CLUSTER_ENUMS = [] as const satisfies readonly EnumRow[];
