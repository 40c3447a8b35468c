/**
 * Rows of table `cluster.objects` for `UpstreamBindConfig`.
 * Two lists: the rows shown by the specification, and the rows taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** UpstreamBindConfig: rows the specification shows. */
export const UPSTREAM_BIND_CONFIG = [
  {
    id: "cluster.objects.upstream-bind-config.source-address",
    level: "MUST",
    statement: "`source_address` is a core.Address message; it is required.",
    cite: {
      section: "Other objects",
      quote:
        "| UpstreamBindConfig | source_address | core.Address | Address to bind to when opening upstream connections. |",
    },
    envoy:
      "Envoy's core.BindConfig.source_address is a core.SocketAddress (`{address, port_value}`), not a core.Address, and is required (PGV message.required).",
    check: "command",
    message: "UpstreamBindConfig",
    field: "source_address",
    kind: "message",
    type: "core.Address",
    required: true,
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];

/** UpstreamBindConfig: rows taken from real Envoy. */
export const UPSTREAM_BIND_CONFIG_ENVOY = [
  {
    id: "cluster.objects.upstream-bind-config.freebind",
    level: "MAY",
    statement:
      "`freebind` is a bool (a BoolValue in Envoy); it is accepted and has no effect: upstream sockets are bound without IP_FREEBIND.",
    cite: NOT_SHOWN,
    envoy:
      "core.BindConfig.freebind (google.protobuf.BoolValue, field 2) sets IP_FREEBIND on upstream sockets, so a source address not (yet) on this host can be bound; node:net has no way to set it.",
    check: "internal",
    message: "UpstreamBindConfig",
    field: "freebind",
    number: 2,
    kind: "bool",
    support: "default-only",
    supportNote: "IP_FREEBIND is not set on upstream sockets",
  },
] as const satisfies readonly FieldRow[];
