/**
 * Rows of table `cluster.objects` for `endpoint.Endpoint`, `endpoint.Endpoint.HealthCheckConfig`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** endpoint.Endpoint, endpoint.Endpoint.HealthCheckConfig: rows taken from real Envoy. */
export const ENDPOINT_ENVOY = [
  {
    id: "cluster.objects.endpoint.endpoint.address",
    level: "MUST",
    statement: "`address` is a core.Address message.",
    cite: NOT_SHOWN,
    envoy: "Endpoint: address, health_check_config (port_value lte 65535), hostname.",
    check: "internal",
    message: "endpoint.Endpoint",
    field: "address",
    number: 1,
    kind: "message",
    type: "core.Address",
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.endpoint.health-check-config",
    level: "MUST",
    statement: "`health_check_config` is a endpoint.Endpoint.HealthCheckConfig message.",
    cite: NOT_SHOWN,
    envoy: "Endpoint: address, health_check_config (port_value lte 65535), hostname.",
    check: "internal",
    message: "endpoint.Endpoint",
    field: "health_check_config",
    number: 2,
    kind: "message",
    type: "endpoint.Endpoint.HealthCheckConfig",
    support: "refused",
    supportNote: "per-endpoint health check settings are not implemented",
  },
  {
    id: "cluster.objects.endpoint.endpoint.hostname",
    level: "MUST",
    statement: "`hostname` is a string.",
    cite: NOT_SHOWN,
    envoy: "Endpoint: address, health_check_config (port_value lte 65535), hostname.",
    check: "internal",
    message: "endpoint.Endpoint",
    field: "hostname",
    number: 3,
    kind: "string",
    support: "honoured",
  },
  {
    id: "cluster.objects.endpoint.endpoint.health-check-config.port-value",
    level: "MUST",
    statement: "`port_value` is a uint32; it is at most 65535.",
    cite: NOT_SHOWN,
    envoy: "HealthCheckConfig.port_value lte 65535.",
    check: "internal",
    message: "endpoint.Endpoint.HealthCheckConfig",
    field: "port_value",
    number: 1,
    kind: "uint32",
    range: { max: 65535 },
    support: "refused",
    supportNote: "per-endpoint health check settings are not implemented",
  },
  {
    id: "cluster.objects.endpoint.endpoint.health-check-config.hostname",
    level: "MUST",
    statement: "`hostname` is a string.",
    cite: NOT_SHOWN,
    envoy: "HealthCheckConfig.port_value lte 65535.",
    check: "internal",
    message: "endpoint.Endpoint.HealthCheckConfig",
    field: "hostname",
    number: 2,
    kind: "string",
    support: "refused",
    supportNote: "per-endpoint health check settings are not implemented",
  },
] as const satisfies readonly FieldRow[];
