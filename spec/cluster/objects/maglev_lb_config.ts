/**
 * Rows of table `cluster.objects` for `Cluster.MaglevLbConfig`, taken from real Envoy (the
 * specification names MAGLEV but not its configuration message).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** Cluster.MaglevLbConfig: rows from real Envoy. */
export const MAGLEV_LB_CONFIG_ENVOY = [
  {
    id: "cluster.objects.maglev-lb-config.table-size",
    level: "MUST",
    statement:
      "`table_size` is a UInt64Value; it is at most 5000011 and a prime number; unset, it defaults to 65537.",
    cite: NOT_SHOWN,
    envoy:
      "Cluster.MaglevLbConfig.table_size (google.protobuf.UInt64Value, field 1, `lte: 5000011`); Envoy rejects a size that is not prime with `The table size of maglev must be prime number`.",
    check: "internal",
    message: "Cluster.MaglevLbConfig",
    field: "table_size",
    number: 1,
    kind: "UInt64Value",
    default: 65537,
    range: { max: 5000011 },
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
