/**
 * Rows of table `cluster.objects` for `UpstreamConnectionOptions`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** UpstreamConnectionOptions: rows the specification shows. */
export const UPSTREAM_CONNECTION_OPTIONS = [
  {
    id: "cluster.objects.upstream-connection-options.tcp-keepalive",
    level: "MUST",
    statement: "`tcp_keepalive` is a core.TcpKeepalive message.",
    cite: {
      section: "Other objects",
      quote:
        "| UpstreamConnectionOptions | tcp_keepalive | core.TcpKeepalive | When set, SO_KEEPALIVE is enabled on the socket. |",
    },
    check: "command",
    message: "UpstreamConnectionOptions",
    field: "tcp_keepalive",
    kind: "message",
    type: "core.TcpKeepalive",
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
