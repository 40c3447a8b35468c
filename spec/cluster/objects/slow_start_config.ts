/**
 * Rows of table `cluster.objects` for `Cluster.SlowStartConfig`, `Cluster.RoundRobinLbConfig`
 * and `core.RuntimeDouble`, taken from real Envoy (the specification does not show them).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** Cluster.RoundRobinLbConfig, Cluster.SlowStartConfig and core.RuntimeDouble from real Envoy. */
export const SLOW_START_CONFIG_ENVOY = [
  {
    id: "cluster.objects.round-robin-lb-config.slow-start-config",
    level: "MUST",
    statement: "`slow_start_config` is a Cluster.SlowStartConfig message.",
    cite: NOT_SHOWN,
    envoy: "Cluster.RoundRobinLbConfig.slow_start_config (Cluster.SlowStartConfig, field 1).",
    check: "internal",
    message: "Cluster.RoundRobinLbConfig",
    field: "slow_start_config",
    number: 1,
    kind: "message",
    type: "Cluster.SlowStartConfig",
    support: "honoured",
  },
  {
    id: "cluster.objects.slow-start-config.slow-start-window",
    level: "MUST",
    statement:
      "`slow_start_window` is a duration; a host stays in slow start for this long after it joins (or passes active health checking again); unset or zero, there is no slow start.",
    cite: NOT_SHOWN,
    envoy:
      "Cluster.SlowStartConfig.slow_start_window (google.protobuf.Duration, field 1); a host is in slow start while `now - last_hc_pass_time < slow_start_window`.",
    check: "internal",
    message: "Cluster.SlowStartConfig",
    field: "slow_start_window",
    number: 1,
    kind: "duration",
    support: "honoured",
  },
  {
    id: "cluster.objects.slow-start-config.aggression",
    level: "MUST",
    statement:
      "`aggression` is a core.RuntimeDouble; a host in slow start weighs `weight * max(min_weight_percent, (time in slow start / window) ^ (1 / aggression))`; unset (or not above 0 at run time), it is 1.0.",
    cite: NOT_SHOWN,
    envoy:
      "Cluster.SlowStartConfig.aggression (core.RuntimeDouble, field 2); Envoy's `applySlowStartFactor` and `applyAggressionFactor`.",
    check: "internal",
    message: "Cluster.SlowStartConfig",
    field: "aggression",
    number: 2,
    kind: "message",
    type: "core.RuntimeDouble",
    support: "honoured",
  },
  {
    id: "cluster.objects.slow-start-config.min-weight-percent",
    level: "MUST",
    statement:
      '`min_weight_percent` is a Percent; it lies in 0..100; unset, it defaults to {"value":10}; a host in slow start never weighs less than this share of its weight.',
    cite: NOT_SHOWN,
    envoy: "Cluster.SlowStartConfig.min_weight_percent (type.v3.Percent, field 3), default 10%.",
    check: "internal",
    message: "Cluster.SlowStartConfig",
    field: "min_weight_percent",
    number: 3,
    kind: "Percent",
    default: { value: 10 },
    range: { min: 0, max: 100 },
    support: "honoured",
  },
  {
    id: "cluster.objects.runtime-double.default-value",
    level: "MUST",
    statement: "`default_value` is a double, the value when the runtime does not set the key.",
    cite: NOT_SHOWN,
    envoy: "core.RuntimeDouble.default_value (double, field 1).",
    check: "internal",
    message: "core.RuntimeDouble",
    field: "default_value",
    number: 1,
    kind: "double",
    support: "honoured",
  },
  {
    id: "cluster.objects.runtime-double.runtime-key",
    level: "MUST",
    statement:
      "`runtime_key` is a required, non-empty string; a numeric runtime value under it overrides `default_value`.",
    cite: NOT_SHOWN,
    envoy: "core.RuntimeDouble.runtime_key (string, field 2, `min_len: 1`).",
    check: "internal",
    message: "core.RuntimeDouble",
    field: "runtime_key",
    number: 2,
    kind: "string",
    required: true,
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
