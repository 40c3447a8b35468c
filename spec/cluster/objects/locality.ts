/**
 * Rows of table `cluster.objects` for `core.Locality`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.Locality: rows taken from real Envoy. */
export const LOCALITY_ENVOY = [
  {
    id: "cluster.objects.core.locality.region",
    level: "MUST",
    statement: "`region` is a string.",
    cite: NOT_SHOWN,
    envoy: "Locality: region, zone, sub_zone strings.",
    check: "internal",
    message: "core.Locality",
    field: "region",
    number: 1,
    kind: "string",
    support: "honoured",
  },
  {
    id: "cluster.objects.core.locality.zone",
    level: "MUST",
    statement: "`zone` is a string.",
    cite: NOT_SHOWN,
    envoy: "Locality: region, zone, sub_zone strings.",
    check: "internal",
    message: "core.Locality",
    field: "zone",
    number: 2,
    kind: "string",
    support: "honoured",
  },
  {
    id: "cluster.objects.core.locality.sub-zone",
    level: "MUST",
    statement: "`sub_zone` is a string.",
    cite: NOT_SHOWN,
    envoy: "Locality: region, zone, sub_zone strings.",
    check: "internal",
    message: "core.Locality",
    field: "sub_zone",
    number: 3,
    kind: "string",
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
