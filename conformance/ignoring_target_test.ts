/**
 * Proof that the behaviour cases check behaviour: against `fixtures/conformance/ignoring_proxy.ts`,
 * our proxy behind a wrapper that accepts cluster settings and drops them before loading, every
 * rule those settings carry must FAIL, although `--mode validate` accepts the same files.
 */
import assert from "node:assert/strict";
import { runForReport } from "./testing.ts";

const root = new URL("../", import.meta.url).pathname;

/** Rules the behaviour cases check that a proxy ignoring the settings fails. */
const FAILING = [
  "cluster.fields.health-checks",
  "cluster.fields.outlier-detection",
  "cluster.fields.circuit-breakers",
  "cluster.fields.max-requests-per-connection",
  "cluster.fields.connect-timeout",
  "cluster.fields.alt-stat-name",
  "cluster.fields.lb-subset-config",
  "cluster.fields.upstream-bind-config",
  "cluster.fields.http2-protocol-options",
  "cluster.enums.lb-policy",
  "cluster.objects.endpoint.lb-endpoint.load-balancing-weight",
  "cluster.objects.common-lb-config.healthy-panic-threshold",
  "admin.resources.health.failed_active_hc",
  "admin.resources.health.failed_outlier_check",
  "admin.resources.health.concatenated",
];

Deno.test(
  "cluster.fields.health-checks, cluster.fields.outlier-detection, cluster.fields.circuit-breakers: a proxy that accepts cluster settings and ignores them fails the behaviour cases",
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "ignoring-target-" });
    try {
      const { code, results } = await runForReport(
        [
          "--command",
          `${Deno.execPath()} run -A ${root}fixtures/conformance/ignoring_proxy.ts`,
          "--seed",
          "7",
          "--timeout",
          "120000",
          ...FAILING,
        ],
        dir,
        "json",
      );
      assert.equal(code, 1, "a proxy ignoring cluster settings must fail the run");
      for (const id of FAILING) {
        const r = results.get(id);
        assert.equal(r?.status, "FAIL", `${id}: ${JSON.stringify(r)}`);
        // Failed through traffic, not only by accepting what the wrapper stripped: a behaviour
        // case of the rule did not pass (FAIL; on a loaded machine a wait may end as TIMEOUT).
        const behaviour = r!.cases.filter((c) => c.id.startsWith("behaviour:"));
        assert.ok(
          behaviour.some((c) => ["FAIL", "ERROR", "TIMEOUT"].includes(c.status)),
          `${id}: no behaviour case failed: ${JSON.stringify(behaviour)}`,
        );
      }
      assert.match(
        results.get("cluster.fields.health-checks")!.message,
        /behaviour:health-check-ejects|failed_active_hc/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
