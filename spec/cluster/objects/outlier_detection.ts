/**
 * Rows of table `cluster.objects` for `cluster.OutlierDetection`.
 * The rows are taken from real Envoy (check `internal`).
 *
 * @module
 */
import type { FieldRow } from "../../rule.ts";
import { NOT_SHOWN } from "./not_shown.ts";

/** cluster.OutlierDetection: rows taken from real Envoy. */
export const OUTLIER_DETECTION_ENVOY = [
  {
    id: "cluster.objects.cluster.outlier-detection.consecutive-5xx",
    level: "MUST",
    statement: "`consecutive_5xx` is a UInt32Value; unset, it defaults to 5.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "consecutive_5xx",
    number: 1,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.interval",
    level: "MUST",
    statement: '`interval` is a duration; it is greater than 0; unset, it defaults to "10s".',
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "interval",
    number: 2,
    kind: "duration",
    default: "10s",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.base-ejection-time",
    level: "MUST",
    statement:
      '`base_ejection_time` is a duration; it is greater than 0; unset, it defaults to "30s".',
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "base_ejection_time",
    number: 3,
    kind: "duration",
    default: "30s",
    range: { gtZero: true },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.max-ejection-percent",
    level: "MUST",
    statement:
      "`max_ejection_percent` is a UInt32Value; it is at most 100; unset, it defaults to 10.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "max_ejection_percent",
    number: 4,
    kind: "UInt32Value",
    default: 10,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-consecutive-5xx",
    level: "MUST",
    statement:
      "`enforcing_consecutive_5xx` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_consecutive_5xx",
    number: 5,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-success-rate",
    level: "MUST",
    statement:
      "`enforcing_success_rate` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_success_rate",
    number: 6,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.success-rate-minimum-hosts",
    level: "MUST",
    statement: "`success_rate_minimum_hosts` is a UInt32Value; unset, it defaults to 5.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "success_rate_minimum_hosts",
    number: 7,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.success-rate-request-volume",
    level: "MUST",
    statement: "`success_rate_request_volume` is a UInt32Value; unset, it defaults to 100.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "success_rate_request_volume",
    number: 8,
    kind: "UInt32Value",
    default: 100,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.success-rate-stdev-factor",
    level: "MUST",
    statement: "`success_rate_stdev_factor` is a UInt32Value; unset, it defaults to 1900.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "success_rate_stdev_factor",
    number: 9,
    kind: "UInt32Value",
    default: 1900,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.consecutive-gateway-failure",
    level: "MUST",
    statement: "`consecutive_gateway_failure` is a UInt32Value; unset, it defaults to 5.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "consecutive_gateway_failure",
    number: 10,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-consecutive-gateway-failure",
    level: "MUST",
    statement:
      "`enforcing_consecutive_gateway_failure` is a UInt32Value; it is at most 100; unset, it defaults to 0.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_consecutive_gateway_failure",
    number: 11,
    kind: "UInt32Value",
    default: 0,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.split-external-local-origin-errors",
    level: "MUST",
    statement: "`split_external_local_origin_errors` is a bool; unset, it defaults to false.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "split_external_local_origin_errors",
    number: 12,
    kind: "bool",
    default: false,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.consecutive-local-origin-failure",
    level: "MUST",
    statement: "`consecutive_local_origin_failure` is a UInt32Value; unset, it defaults to 5.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "consecutive_local_origin_failure",
    number: 13,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-consecutive-local-origin-failure",
    level: "MUST",
    statement:
      "`enforcing_consecutive_local_origin_failure` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_consecutive_local_origin_failure",
    number: 14,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-local-origin-success-rate",
    level: "MUST",
    statement:
      "`enforcing_local_origin_success_rate` is a UInt32Value; it is at most 100; unset, it defaults to 100.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_local_origin_success_rate",
    number: 15,
    kind: "UInt32Value",
    default: 100,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.failure-percentage-threshold",
    level: "MUST",
    statement:
      "`failure_percentage_threshold` is a UInt32Value; it is at most 100; unset, it defaults to 85.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "failure_percentage_threshold",
    number: 16,
    kind: "UInt32Value",
    default: 85,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-failure-percentage",
    level: "MUST",
    statement:
      "`enforcing_failure_percentage` is a UInt32Value; it is at most 100; unset, it defaults to 0.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_failure_percentage",
    number: 17,
    kind: "UInt32Value",
    default: 0,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.enforcing-failure-percentage-local-origin",
    level: "MUST",
    statement:
      "`enforcing_failure_percentage_local_origin` is a UInt32Value; it is at most 100; unset, it defaults to 0.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "enforcing_failure_percentage_local_origin",
    number: 18,
    kind: "UInt32Value",
    default: 0,
    range: { max: 100 },
  },
  {
    id: "cluster.objects.cluster.outlier-detection.failure-percentage-minimum-hosts",
    level: "MUST",
    statement: "`failure_percentage_minimum_hosts` is a UInt32Value; unset, it defaults to 5.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "failure_percentage_minimum_hosts",
    number: 19,
    kind: "UInt32Value",
    default: 5,
  },
  {
    id: "cluster.objects.cluster.outlier-detection.failure-percentage-request-volume",
    level: "MUST",
    statement: "`failure_percentage_request_volume` is a UInt32Value; unset, it defaults to 50.",
    cite: NOT_SHOWN,
    envoy:
      "OutlierDetection: interval and base_ejection_time > 0s; the percentage fields lte 100; defaults from outlier_detection.proto.",
    check: "internal",
    message: "cluster.OutlierDetection",
    field: "failure_percentage_request_volume",
    number: 20,
    kind: "UInt32Value",
    default: 50,
  },
] as const satisfies readonly FieldRow[];
