/**
 * Rows of table `cluster.objects` for `cluster.CircuitBreakers`, `cluster.CircuitBreakers.Thresholds`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/**
 * cluster.CircuitBreakers, cluster.CircuitBreakers.Thresholds and its RetryBudget: rows taken from
 * real Envoy.
 */
export const CIRCUIT_BREAKERS_ENVOY = [
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds",
    level: "MUST",
    statement: "`thresholds` is a list of cluster.CircuitBreakers.Thresholds message values.",
    cite: NOT_SHOWN,
    envoy: "CircuitBreakers: a list of Thresholds, one per routing priority.",
    check: "internal",
    message: "cluster.CircuitBreakers",
    field: "thresholds",
    number: 1,
    kind: "message",
    cardinality: "repeated",
    type: "cluster.CircuitBreakers.Thresholds",
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.priority",
    level: "MUST",
    statement: '`priority` is a core.RoutingPriority value; unset, it defaults to "DEFAULT".',
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "priority",
    number: 1,
    kind: "enum",
    enum: "core.RoutingPriority",
    default: "DEFAULT",
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-connections",
    level: "MUST",
    statement: "`max_connections` is a UInt32Value; unset, it defaults to 1024.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_connections",
    number: 2,
    kind: "UInt32Value",
    default: 1024,
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-pending-requests",
    level: "MUST",
    statement: "`max_pending_requests` is a UInt32Value; unset, it defaults to 1024.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_pending_requests",
    number: 3,
    kind: "UInt32Value",
    default: 1024,
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-requests",
    level: "MUST",
    statement: "`max_requests` is a UInt32Value; unset, it defaults to 1024.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_requests",
    number: 4,
    kind: "UInt32Value",
    default: 1024,
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-retries",
    level: "MUST",
    statement: "`max_retries` is a UInt32Value; unset, it defaults to 3.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_retries",
    number: 5,
    kind: "UInt32Value",
    default: 3,
    support: "honoured",
    supportNote: "limits the retries in flight of route retry policies",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.retry-budget",
    level: "MUST",
    statement: "`retry_budget` is a cluster.CircuitBreakers.Thresholds.RetryBudget message.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "retry_budget",
    kind: "message",
    type: "cluster.CircuitBreakers.Thresholds.RetryBudget",
    support: "honoured",
    supportNote:
      "limits the retries in flight to budget_percent of the active and pending requests, never below min_retry_concurrency; max_retries is then ignored",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.track-remaining",
    level: "MUST",
    statement: "`track_remaining` is a bool; unset, it defaults to false.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "track_remaining",
    number: 6,
    kind: "bool",
    default: false,
    support: "default-only",
    supportNote: "remaining_* gauges are not published",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.max-connection-pools",
    level: "MUST",
    statement: "`max_connection_pools` is a UInt32Value.",
    cite: NOT_SHOWN,
    envoy:
      "Thresholds defaults (ResourceManagers::load): max_connections 1024, max_pending_requests 1024, max_requests 1024, max_retries 3; max_connection_pools unlimited; priority defined_only.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds",
    field: "max_connection_pools",
    number: 7,
    kind: "UInt32Value",
    support: "refused",
    supportNote: "connection pools are not limited",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.retry-budget.budget-percent",
    level: "MUST",
    statement:
      '`budget_percent` is a Percent; it lies in 0..100; unset, it defaults to {"value":20}.',
    cite: NOT_SHOWN,
    envoy:
      "RetryBudget: retries in flight may be budget_percent of the active plus pending requests (default 20%), never fewer than min_retry_concurrency (default 3); a retry budget overrides max_retries.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds.RetryBudget",
    field: "budget_percent",
    number: 1,
    kind: "Percent",
    default: { value: 20 },
    range: { min: 0, max: 100 },
    support: "honoured",
  },
  {
    id: "cluster.objects.cluster.circuit-breakers.thresholds.retry-budget.min-retry-concurrency",
    level: "MUST",
    statement: "`min_retry_concurrency` is a UInt32Value; unset, it defaults to 3.",
    cite: NOT_SHOWN,
    envoy:
      "RetryBudget: retries in flight may be budget_percent of the active plus pending requests (default 20%), never fewer than min_retry_concurrency (default 3); a retry budget overrides max_retries.",
    check: "internal",
    message: "cluster.CircuitBreakers.Thresholds.RetryBudget",
    field: "min_retry_concurrency",
    number: 2,
    kind: "UInt32Value",
    default: 3,
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
