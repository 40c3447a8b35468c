/**
 * Rows of table `cluster.objects` for `ClusterLoadAssignment`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** ClusterLoadAssignment: rows taken from real Envoy. */
export const CLUSTER_LOAD_ASSIGNMENT_ENVOY = [
  {
    id: "cluster.objects.cluster-load-assignment.cluster-name",
    level: "MUST",
    statement: "`cluster_name` is a string; it is required.",
    cite: NOT_SHOWN,
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "cluster_name",
    number: 1,
    kind: "string",
    required: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster-load-assignment.endpoints",
    level: "MUST",
    statement: "`endpoints` is a list of endpoint.LocalityLbEndpoints message values.",
    cite: NOT_SHOWN,
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "endpoints",
    number: 2,
    kind: "message",
    cardinality: "repeated",
    type: "endpoint.LocalityLbEndpoints",
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster-load-assignment.named-endpoints",
    level: "MUST",
    statement: "`named_endpoints` is a map from string to endpoint.Endpoint message.",
    cite: NOT_SHOWN,
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "named_endpoints",
    number: 5,
    kind: "message",
    cardinality: "map",
    type: "endpoint.Endpoint",
    support: "refused",
    supportNote: "named endpoints are not implemented",
  },
  {
    id: "cluster.objects.cluster-load-assignment.policy",
    level: "MUST",
    statement: "`policy` is a ClusterLoadAssignment.Policy message.",
    cite: NOT_SHOWN,
    envoy: "ClusterLoadAssignment: `cluster_name` min_bytes 1 (all v2 revisions).",
    check: "internal",
    message: "ClusterLoadAssignment",
    field: "policy",
    number: 4,
    kind: "message",
    type: "ClusterLoadAssignment.Policy",
    support: "refused",
    supportNote: "overprovisioning and drop_overloads are not implemented",
  },
] as const satisfies readonly FieldRow[];
