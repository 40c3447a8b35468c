/**
 * Rows of table `cluster.objects` for `Cluster.OriginalDstLbConfig`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.OriginalDstLbConfig: rows the specification shows. */
export const ORIGINAL_DST_LB_CONFIG = [
  {
    id: "cluster.objects.original-dst-lb-config.use-http-header",
    level: "MUST",
    statement: "`use_http_header` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.OriginalDstLbConfig",
      quote:
        "`use_http_header` (bool): when true the header `x-proxy-original-dst-host` can override the destination address.",
    },
    envoy: "Envoy's header is `x-envoy-original-dst-host`.",
    check: "command",
    message: "Cluster.OriginalDstLbConfig",
    field: "use_http_header",
    number: 1,
    kind: "bool",
    default: false,
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
