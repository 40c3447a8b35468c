/**
 * Table `admin.endpoints`: placeholder until the table is written.
 *
 * @module
 */
import type { EndpointRow } from "../rule.ts";

/** Rows of the `admin.endpoints` table. */
export const ENDPOINTS = [] as const satisfies readonly EndpointRow[];
