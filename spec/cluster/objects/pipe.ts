/**
 * Rows of table `cluster.objects` for `core.Pipe`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.Pipe: rows taken from real Envoy. */
export const PIPE_ENVOY = [
  {
    id: "cluster.objects.core.pipe.path",
    level: "MUST",
    statement: "`path` is a string; it is required.",
    cite: NOT_SHOWN,
    envoy: "Pipe: `path` min_bytes 1; `mode` lte 511.",
    check: "internal",
    message: "core.Pipe",
    field: "path",
    number: 1,
    kind: "string",
    required: true,
    support: "refused",
    supportNote: "upstream hosts are reached over TCP only",
  },
  {
    id: "cluster.objects.core.pipe.mode",
    level: "MUST",
    statement: "`mode` is a uint32; it is at most 511.",
    cite: NOT_SHOWN,
    envoy: "Pipe: `path` min_bytes 1; `mode` lte 511.",
    check: "internal",
    message: "core.Pipe",
    field: "mode",
    kind: "uint32",
    range: { max: 511 },
    support: "refused",
    supportNote: "upstream hosts are reached over TCP only",
  },
] as const satisfies readonly FieldRow[];
