/**
 * Rows of table `cluster.objects` for `Cluster.LeastRequestLbConfig`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

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

/** Cluster.LeastRequestLbConfig: rows from real Envoy. */
export const LEAST_REQUEST_LB_CONFIG_ENVOY = [
  {
    id: "cluster.objects.least-request-lb-config.active-request-bias",
    level: "MUST",
    statement:
      "`active_request_bias` is a core.RuntimeDouble; when host weights differ, a host weighs `weight / (active requests + 1) ^ bias`; unset, the bias is 1.0 (a negative value at run time counts as 1.0).",
    cite: NOT_SHOWN,
    envoy:
      "Cluster.LeastRequestLbConfig.active_request_bias (core.RuntimeDouble, field 2); read when the host set changes.",
    check: "internal",
    message: "Cluster.LeastRequestLbConfig",
    field: "active_request_bias",
    number: 2,
    kind: "message",
    type: "core.RuntimeDouble",
    support: "honoured",
  },
  {
    id: "cluster.objects.least-request-lb-config.slow-start-config",
    level: "MUST",
    statement: "`slow_start_config` is a Cluster.SlowStartConfig message.",
    cite: NOT_SHOWN,
    envoy: "Cluster.LeastRequestLbConfig.slow_start_config (Cluster.SlowStartConfig, field 3).",
    check: "internal",
    message: "Cluster.LeastRequestLbConfig",
    field: "slow_start_config",
    number: 3,
    kind: "message",
    type: "Cluster.SlowStartConfig",
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
