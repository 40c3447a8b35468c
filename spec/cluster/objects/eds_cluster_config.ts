/**
 * Rows of table `cluster.objects` for `Cluster.EdsClusterConfig`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.EdsClusterConfig: rows the specification shows. */
export const EDS_CLUSTER_CONFIG = [
  {
    id: "cluster.objects.eds-cluster-config.eds-config",
    level: "MUST",
    statement: "`eds_config` is a core.ConfigSource message.",
    cite: {
      section: "Cluster.EdsClusterConfig",
      quote: "eds_config | core.ConfigSource | Source of EDS updates.",
    },
    check: "command",
    message: "Cluster.EdsClusterConfig",
    field: "eds_config",
    number: 1,
    kind: "message",
    type: "core.ConfigSource",
    support: "honoured",
    supportNote: "a file config source; a control plane is refused",
  },
  {
    id: "cluster.objects.eds-cluster-config.service-name",
    level: "MUST",
    statement: "`service_name` is a string.",
    cite: {
      section: "Cluster.EdsClusterConfig",
      quote:
        "service_name | string | Optional alternative to the cluster name presented to EDS; may be of arbitrary length.",
    },
    check: "command",
    message: "Cluster.EdsClusterConfig",
    field: "service_name",
    number: 2,
    kind: "string",
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
