/**
 * Test fixture: a STATIC cluster of one loopback member with the given `health_checks`, and the
 * four required HealthCheck fields, for the tests of health-check validation and support.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HC_BASE, healthCheckedCluster } from "./health_check_test_cluster.ts";
 * const c = healthCheckedCluster([{ ...HC_BASE, tcp_health_check: {} }]);
 * assert.equal(c.health_checks.length, 1);
 * ```
 * @module
 */

/** A valid STATIC cluster `c` with one member on 127.0.0.1:80 and these health checks. */
export function healthCheckedCluster(
  health_checks: unknown[],
  extra: Record<string, unknown> = {},
) {
  return {
    name: "c",
    connect_timeout: "1s",
    type: "STATIC",
    load_assignment: {
      cluster_name: "c",
      endpoints: [{
        lb_endpoints: [{
          endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: 80 } } },
        }],
      }],
    },
    health_checks,
    ...extra,
  };
}

/** The fields every HealthCheck needs. */
export const HC_BASE = {
  timeout: "1s",
  interval: "1s",
  unhealthy_threshold: 2,
  healthy_threshold: 2,
};
