/**
 * Rows of table `cluster.objects` for `core.TcpKeepalive`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.TcpKeepalive: rows taken from real Envoy. */
export const TCP_KEEPALIVE_ENVOY = [
  {
    id: "cluster.objects.core.tcp-keepalive.keepalive-probes",
    level: "MUST",
    statement: "`keepalive_probes` is a UInt32Value.",
    cite: NOT_SHOWN,
    envoy:
      "TcpKeepalive: three optional UInt32Value fields; unset ones use the operating system's values.",
    check: "internal",
    message: "core.TcpKeepalive",
    field: "keepalive_probes",
    number: 1,
    kind: "UInt32Value",
    support: "honoured",
  },
  {
    id: "cluster.objects.core.tcp-keepalive.keepalive-time",
    level: "MUST",
    statement: "`keepalive_time` is a UInt32Value.",
    cite: NOT_SHOWN,
    envoy:
      "TcpKeepalive: three optional UInt32Value fields; unset ones use the operating system's values.",
    check: "internal",
    message: "core.TcpKeepalive",
    field: "keepalive_time",
    number: 2,
    kind: "UInt32Value",
    support: "honoured",
  },
  {
    id: "cluster.objects.core.tcp-keepalive.keepalive-interval",
    level: "MUST",
    statement: "`keepalive_interval` is a UInt32Value.",
    cite: NOT_SHOWN,
    envoy:
      "TcpKeepalive: three optional UInt32Value fields; unset ones use the operating system's values.",
    check: "internal",
    message: "core.TcpKeepalive",
    field: "keepalive_interval",
    number: 3,
    kind: "UInt32Value",
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
