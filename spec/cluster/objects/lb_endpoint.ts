/**
 * Rows of table `cluster.objects` for `endpoint.LbEndpoint`.
 * Two lists: the rows taken from real Envoy (check `internal`), and the rows shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** endpoint.LbEndpoint: rows taken from real Envoy. */
export const LB_ENDPOINT_ENVOY = [
  {
    id: "cluster.objects.endpoint.lb-endpoint.endpoint",
    level: "MUST",
    statement:
      "`endpoint` is a endpoint.Endpoint message; at most one member of group `host_identifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "endpoint",
    number: 1,
    kind: "message",
    type: "endpoint.Endpoint",
    group: "host_identifier",
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.endpoint-name",
    level: "MUST",
    statement: "`endpoint_name` is a string; at most one member of group `host_identifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "endpoint_name",
    number: 5,
    kind: "string",
    group: "host_identifier",
    support: "refused",
    supportNote: "named endpoints are not implemented",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.health-status",
    level: "MUST",
    statement: '`health_status` is a core.HealthStatus value; unset, it defaults to "UNKNOWN".',
    cite: NOT_SHOWN,
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "health_status",
    number: 2,
    kind: "enum",
    enum: "core.HealthStatus",
    default: "UNKNOWN",
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.lb-endpoint.metadata",
    level: "MUST",
    statement: "`metadata` is a core.Metadata message.",
    cite: NOT_SHOWN,
    envoy:
      "LbEndpoint: oneof host_identifier `endpoint`/`endpoint_name`; health_status defined_only.",
    check: "internal",
    message: "endpoint.LbEndpoint",
    field: "metadata",
    number: 3,
    kind: "message",
    type: "core.Metadata",
    support: "honoured",
    supportNote: "the proxy.lb / envoy.lb namespace is read by subset load balancing",
  },
] as const satisfies readonly FieldRow[];

/** endpoint.LbEndpoint: rows the specification shows. */
export const LB_ENDPOINT = [
  {
    id: "cluster.objects.endpoint.lb-endpoint.load-balancing-weight",
    level: "MUST",
    statement: "`load_balancing_weight` of a host lies in 1..100; unset, it defaults to 1.",
    cite: { section: "Limits", quote: "| Host weight | 1 to 100 |" },
    envoy:
      "Envoy's PGV rule is only `gte: 1`; v2-era Envoy clamps host weights to at most 128 instead of rejecting larger ones.",
    check: "command",
    message: "endpoint.LbEndpoint",
    field: "load_balancing_weight",
    number: 4,
    kind: "UInt32Value",
    default: 1,
    range: { min: 1, max: 100 },
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
