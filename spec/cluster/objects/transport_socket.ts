/**
 * Rows of table `cluster.objects` for `core.TransportSocket`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** core.TransportSocket: rows taken from real Envoy. */
export const TRANSPORT_SOCKET_ENVOY = [
  {
    id: "cluster.objects.core.transport-socket.name",
    level: "MUST",
    statement: "`name` is a string; it is required.",
    cite: NOT_SHOWN,
    envoy: "TransportSocket: `name` min_bytes 1; oneof config_type `config`/`typed_config`.",
    check: "internal",
    message: "core.TransportSocket",
    field: "name",
    kind: "string",
    required: true,
    support: "honoured",
    supportNote: "tls or raw_buffer",
  },
  {
    id: "cluster.objects.core.transport-socket.config",
    level: "MUST",
    statement:
      "`config` is a Struct (any JSON object); at most one member of group `config_type` is set.",
    cite: NOT_SHOWN,
    envoy: "TransportSocket: `name` min_bytes 1; oneof config_type `config`/`typed_config`.",
    check: "internal",
    message: "core.TransportSocket",
    field: "config",
    kind: "struct",
    group: "config_type",
    support: "honoured",
    supportNote: "an UpstreamTlsContext for tls",
  },
  {
    id: "cluster.objects.core.transport-socket.typed-config",
    level: "MUST",
    statement:
      "`typed_config` is an Any (an object with `@type`); at most one member of group `config_type` is set.",
    cite: NOT_SHOWN,
    envoy: "TransportSocket: `name` min_bytes 1; oneof config_type `config`/`typed_config`.",
    check: "internal",
    message: "core.TransportSocket",
    field: "typed_config",
    kind: "any",
    group: "config_type",
    support: "honoured",
    supportNote: "an UpstreamTlsContext for tls",
  },
] as const satisfies readonly FieldRow[];
