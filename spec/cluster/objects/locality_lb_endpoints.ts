/**
 * Rows of table `cluster.objects` for `endpoint.LocalityLbEndpoints`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** endpoint.LocalityLbEndpoints: rows taken from real Envoy. */
export const LOCALITY_LB_ENDPOINTS_ENVOY = [
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.locality",
    level: "MUST",
    statement: "`locality` is a core.Locality message.",
    cite: NOT_SHOWN,
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "locality",
    number: 1,
    kind: "message",
    type: "core.Locality",
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.lb-endpoints",
    level: "MUST",
    statement: "`lb_endpoints` is a list of endpoint.LbEndpoint message values.",
    cite: NOT_SHOWN,
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "lb_endpoints",
    number: 2,
    kind: "message",
    cardinality: "repeated",
    type: "endpoint.LbEndpoint",
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.load-balancing-weight",
    level: "MUST",
    statement: "`load_balancing_weight` is a UInt32Value; it is at least 1.",
    cite: NOT_SHOWN,
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "load_balancing_weight",
    number: 3,
    kind: "UInt32Value",
    range: { min: 1 },
    support: "honoured",
    supportNote: "read with locality_weighted_lb_config",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.priority",
    level: "MUST",
    statement: "`priority` is a uint32; it is at most 128; unset, it defaults to 0.",
    cite: NOT_SHOWN,
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "priority",
    number: 5,
    kind: "uint32",
    default: 0,
    range: { max: 128 },
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.locality-lb-endpoints.proximity",
    level: "MUST",
    statement: "`proximity` is a UInt32Value.",
    cite: NOT_SHOWN,
    envoy: "LocalityLbEndpoints: load_balancing_weight gte 1; priority lte 128.",
    check: "internal",
    message: "endpoint.LocalityLbEndpoints",
    field: "proximity",
    number: 6,
    kind: "UInt32Value",
    support: "refused",
    supportNote: "zone-aware and locality-weighted load balancing are not implemented",
  },
] as const satisfies readonly FieldRow[];
