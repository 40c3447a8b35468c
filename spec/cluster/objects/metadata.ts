/**
 * Rows of table `cluster.objects` for `core.Metadata`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.Metadata: rows taken from real Envoy. */
export const METADATA_ENVOY = [
  {
    id: "cluster.objects.core.metadata.filter-metadata",
    level: "MUST",
    statement: "`filter_metadata` is a map from string to Struct (any JSON object).",
    cite: NOT_SHOWN,
    envoy: "core.Metadata: `filter_metadata` map of Struct (v3 adds `typed_filter_metadata`).",
    check: "internal",
    message: "core.Metadata",
    field: "filter_metadata",
    number: 1,
    kind: "struct",
    cardinality: "map",
    support: "honoured",
    supportNote: "kept and shown by /config_dump; no filter of this build reads it",
  },
  {
    id: "cluster.objects.core.metadata.typed-filter-metadata",
    level: "MUST",
    statement: "`typed_filter_metadata` is a map from string to Any (an object with `@type`).",
    cite: NOT_SHOWN,
    envoy: "core.Metadata: `filter_metadata` map of Struct (v3 adds `typed_filter_metadata`).",
    check: "internal",
    message: "core.Metadata",
    field: "typed_filter_metadata",
    kind: "any",
    cardinality: "map",
    support: "honoured",
    supportNote: "kept and shown by /config_dump; no filter of this build reads it",
  },
] as const satisfies readonly FieldRow[];
