/**
 * Table `cluster.rules`: placeholder until the table is written.
 *
 * @module
 */
import type { ClusterRuleRow } from "../rule.ts";

/** Rows of the `cluster.rules` table. */
export const CLUSTER_RULES = [] as const satisfies readonly ClusterRuleRow[];
