/**
 * Table `cluster.fields`: placeholder until the table is written.
 *
 * @module
 */
import type { FieldRow } from "../rule.ts";

/** Rows of the `cluster.fields` table. */
export const CLUSTER_FIELDS = [] as const satisfies readonly FieldRow[];
