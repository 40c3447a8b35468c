/**
 * Rows of table `cluster.objects` for `core.Address`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.Address: rows taken from real Envoy. */
export const ADDRESS_ENVOY = [
  {
    id: "cluster.objects.core.address.socket-address",
    level: "MUST",
    statement:
      "`socket_address` is a core.SocketAddress message; exactly one member of group `address` is set.",
    cite: NOT_SHOWN,
    envoy: "core.Address: oneof `socket_address`/`pipe` is required (PGV).",
    check: "internal",
    message: "core.Address",
    field: "socket_address",
    number: 1,
    kind: "message",
    type: "core.SocketAddress",
    group: "address",
    groupRequired: true,
    support: "honoured",
  },
  {
    id: "cluster.objects.core.address.pipe",
    level: "MUST",
    statement: "`pipe` is a core.Pipe message; exactly one member of group `address` is set.",
    cite: NOT_SHOWN,
    envoy: "core.Address: oneof `socket_address`/`pipe` is required (PGV).",
    check: "internal",
    message: "core.Address",
    field: "pipe",
    number: 2,
    kind: "message",
    type: "core.Pipe",
    group: "address",
    groupRequired: true,
    support: "refused",
    supportNote: "upstream hosts are reached over TCP only",
  },
] as const satisfies readonly FieldRow[];
