/**
 * Rows of table `cluster.objects` for `Cluster.CustomClusterType`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.CustomClusterType: rows the specification shows. */
export const CUSTOM_CLUSTER_TYPE = [
  {
    id: "cluster.objects.custom-cluster-type.name",
    level: "MUST",
    statement:
      "`name` is a required, non-empty string naming a supported (registered) cluster type.",
    cite: {
      section: "Cluster.CustomClusterType",
      quote:
        "name | string, REQUIRED | Type of cluster to instantiate; must match a supported cluster type.",
    },
    check: "command",
    message: "Cluster.CustomClusterType",
    field: "name",
    number: 1,
    kind: "string",
    required: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.custom-cluster-type.typed-config",
    level: "MUST",
    statement: "`typed_config` is an Any (an object with `@type`).",
    cite: {
      section: "Cluster.CustomClusterType",
      quote: "typed_config | Any | Cluster-specific configuration.",
    },
    check: "command",
    message: "Cluster.CustomClusterType",
    field: "typed_config",
    number: 2,
    kind: "any",
    support: "refused",
    supportNote:
      "the built-in cluster types take no extra configuration; only the aggregate cluster's ClusterConfig (envoy.clusters.aggregate) is taken",
  },
] as const satisfies readonly FieldRow[];
