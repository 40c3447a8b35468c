/**
 * Rows of table `cluster.objects` for `Cluster.LeastRequestLbConfig`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.LeastRequestLbConfig: rows the specification shows. */
export const LEAST_REQUEST_LB_CONFIG = [
  {
    id: "cluster.objects.least-request-lb-config.choice-count",
    level: "MUST",
    statement: "`choice_count` is a UInt32Value of at least 2; unset, it defaults to 2.",
    cite: {
      section: "Cluster.LeastRequestLbConfig",
      quote:
        "`choice_count` (UInt32Value): number of random healthy hosts from which the one with fewest active requests is chosen; default 2.",
    },
    envoy:
      "The lower bound 2 is Envoy's PGV rule (`gte: 2`); the specification gives only the default.",
    check: "command",
    message: "Cluster.LeastRequestLbConfig",
    field: "choice_count",
    number: 1,
    kind: "UInt32Value",
    default: 2,
    range: { min: 2 },
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
