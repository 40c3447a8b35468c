/**
 * Rows of table `cluster.objects` for `core.SocketAddress`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.SocketAddress: rows taken from real Envoy. */
export const SOCKET_ADDRESS_ENVOY = [
  {
    id: "cluster.objects.core.socket-address.protocol",
    level: "MUST",
    statement: '`protocol` is a core.SocketAddress.Protocol value; unset, it defaults to "TCP".',
    cite: NOT_SHOWN,
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "protocol",
    number: 1,
    kind: "enum",
    enum: "core.SocketAddress.Protocol",
    default: "TCP",
    support: "default-only",
    supportNote: "upstream connections are TCP",
  },
  {
    id: "cluster.objects.core.socket-address.address",
    level: "MUST",
    statement: "`address` is a string; it is required.",
    cite: NOT_SHOWN,
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "address",
    number: 2,
    kind: "string",
    required: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.core.socket-address.port-value",
    level: "MUST",
    statement:
      "`port_value` is a uint32; exactly one member of group `port_specifier` is set; it is at most 65535.",
    cite: NOT_SHOWN,
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "port_value",
    number: 3,
    kind: "uint32",
    range: { max: 65535 },
    group: "port_specifier",
    groupRequired: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.core.socket-address.named-port",
    level: "MUST",
    statement: "`named_port` is a string; exactly one member of group `port_specifier` is set.",
    cite: NOT_SHOWN,
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "named_port",
    number: 4,
    kind: "string",
    group: "port_specifier",
    groupRequired: true,
    support: "refused",
    supportNote: "named ports are not resolved",
  },
  {
    id: "cluster.objects.core.socket-address.resolver-name",
    level: "MUST",
    statement: "`resolver_name` is a string.",
    cite: NOT_SHOWN,
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "resolver_name",
    number: 5,
    kind: "string",
    support: "refused",
    supportNote: "only the system resolver is used",
  },
  {
    id: "cluster.objects.core.socket-address.ipv4-compat",
    level: "MUST",
    statement: "`ipv4_compat` is a bool; unset, it defaults to false.",
    cite: NOT_SHOWN,
    envoy:
      "SocketAddress: `address` min_bytes 1; oneof port_specifier (`port_value` lte 65535, `named_port`) required; protocol defined_only.",
    check: "internal",
    message: "core.SocketAddress",
    field: "ipv4_compat",
    number: 6,
    kind: "bool",
    default: false,
    support: "default-only",
    supportNote: "IPv4-mapped IPv6 sockets are not set up",
  },
] as const satisfies readonly FieldRow[];
