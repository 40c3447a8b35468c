/**
 * Table `cluster.objects`: placeholder until the table is written.
 *
 * @module
 */
import type { FieldRow } from "../rule.ts";

/** Rows of the `cluster.objects` table. */
export const CLUSTER_OBJECTS = [] as const satisfies readonly FieldRow[];
