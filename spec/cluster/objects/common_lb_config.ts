/**
 * Rows of table `cluster.objects` for `Cluster.CommonLbConfig`, `Cluster.CommonLbConfig.ZoneAwareLbConfig`.
 * The rows are shown by the specification.
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";

/** Cluster.CommonLbConfig, Cluster.CommonLbConfig.ZoneAwareLbConfig: rows the specification shows. */
export const COMMON_LB_CONFIG = [
  {
    id: "cluster.objects.common-lb-config.healthy-panic-threshold",
    level: "MUST",
    statement:
      '`healthy_panic_threshold` is a Percent; it lies in 0..100; unset, it defaults to {"value":50}.',
    cite: {
      section: "Cluster.CommonLbConfig",
      quote: "healthy_panic_threshold | type.Percent | Default 50%; truncated to the nearest 1%.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "healthy_panic_threshold",
    number: 1,
    kind: "Percent",
    default: { value: 50 },
    range: { min: 0, max: 100 },
    support: "honoured",
  },
  {
    id: "cluster.objects.common-lb-config.zone-aware-lb-config",
    level: "MUST",
    statement:
      "`zone_aware_lb_config` is a Cluster.CommonLbConfig.ZoneAwareLbConfig message; at most one member of group `locality_config_specifier` is set.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "zone_aware_lb_config | ZoneAwareLbConfig | Only one of zone_aware_lb_config, locality_weighted_lb_config may be set.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "zone_aware_lb_config",
    number: 2,
    kind: "message",
    type: "Cluster.CommonLbConfig.ZoneAwareLbConfig",
    group: "locality_config_specifier",
    support: "honoured",
  },
  {
    id: "cluster.objects.common-lb-config.locality-weighted-lb-config",
    level: "MUST",
    statement:
      "`locality_weighted_lb_config` is a Cluster.CommonLbConfig.LocalityWeightedLbConfig message; at most one member of group `locality_config_specifier` is set.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "locality_weighted_lb_config | LocalityWeightedLbConfig | Empty object; same exclusivity.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "locality_weighted_lb_config",
    number: 3,
    kind: "message",
    type: "Cluster.CommonLbConfig.LocalityWeightedLbConfig",
    group: "locality_config_specifier",
    support: "honoured",
  },
  {
    id: "cluster.objects.common-lb-config.update-merge-window",
    level: "MUST",
    statement:
      '`update_merge_window` is a duration; it is at least 0ms; unset, it defaults to "1s".',
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "update_merge_window | Duration | Health-check, weight and metadata updates within this window are merged and delivered when it expires; the window starts at the first update; the first set of updates applies at once. Default 1000ms; 0 disables. Membership changes (adds, removes) are not merged.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "update_merge_window",
    number: 4,
    kind: "duration",
    default: "1s",
    range: { min: 0 },
    support: "honoured",
  },
  {
    id: "cluster.objects.common-lb-config.ignore-new-hosts-until-first-hc",
    level: "MUST",
    statement: "`ignore_new_hosts_until_first_hc` is a bool; unset, it defaults to false.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "ignore_new_hosts_until_first_hc | bool | When true, new hosts are excluded from the denominator of weight calculations (priority spillover, locality weighting, panic mode) until first health-checked. No effect without active health checking. Under panic mode, new hosts remain eligible for traffic.",
    },
    check: "command",
    message: "Cluster.CommonLbConfig",
    field: "ignore_new_hosts_until_first_hc",
    number: 5,
    kind: "bool",
    default: false,
    support: "honoured",
  },
  {
    id: "cluster.objects.common-lb-config.zone-aware-lb-config.routing-enabled",
    level: "MUST",
    statement:
      '`routing_enabled` is a Percent; it lies in 0..100; unset, it defaults to {"value":100}.',
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "ZoneAwareLbConfig: `routing_enabled` (type.Percent; share of requests considered for zone-aware routing; default 100%)",
    },
    check: "command",
    message: "Cluster.CommonLbConfig.ZoneAwareLbConfig",
    field: "routing_enabled",
    number: 1,
    kind: "Percent",
    default: { value: 100 },
    range: { min: 0, max: 100 },
    support: "honoured",
  },
  {
    id: "cluster.objects.common-lb-config.zone-aware-lb-config.min-cluster-size",
    level: "MUST",
    statement: "`min_cluster_size` is a UInt64Value; unset, it defaults to 6.",
    cite: {
      section: "Cluster.CommonLbConfig",
      quote:
        "`min_cluster_size` (UInt64Value; below this upstream cluster size no zone-aware routing; default 6)",
    },
    check: "command",
    message: "Cluster.CommonLbConfig.ZoneAwareLbConfig",
    field: "min_cluster_size",
    number: 2,
    kind: "UInt64Value",
    default: 6,
    support: "honoured",
  },
] as const satisfies readonly FieldRow[];
