import assert from "node:assert/strict";
import {
  HC_BASE as base,
  healthCheckedCluster as cluster,
} from "../../config/health_check_test_cluster.ts";
import { validateClusters } from "../../config/validate_cluster.ts";
import { checkClusterSupport } from "../cluster_manager.ts";

Deno.test("cluster.objects.core.health-check.custom-health-check cluster.fields.outlier-detection: settings this build does not run are refused with their path", () => {
  const ok = validateClusters([
    cluster([{ ...base, custom_health_check: { name: "redis" } }]),
    cluster([
      {
        ...base,
        http_health_check: { path: "/", codec_client_type: "HTTP3", send: { text: "00" } },
      },
    ], { name: "d", outlier_detection: { monitors: {} } }),
    cluster([{ ...base, tcp_health_check: { send: { binary: "AA==" } }, alt_port: 81 }], {
      name: "e",
    }),
  ], { path: "static_resources.clusters", allowUnknown: false });
  assert.deepEqual(ok.errors, []);
  const refused = checkClusterSupport(ok.clusters).map((e) => `${e.path}: ${e.message}`);
  for (
    const want of [
      "static_resources.clusters[0].health_checks[0].custom_health_check: custom_health_check is not supported by this build",
      "static_resources.clusters[1].health_checks[0].http_health_check.codec_client_type: codec_client_type HTTP3 is not supported by this build",
      "static_resources.clusters[1].health_checks[0].http_health_check.send: send is not supported by this build",
      "static_resources.clusters[2].health_checks[0].alt_port: alt_port is not supported by this build",
      "static_resources.clusters[1].outlier_detection.monitors: monitors is not supported by this build",
    ]
  ) assert.ok(refused.some((e) => e.startsWith(want)), `missing ${want} in\n${refused.join("\n")}`);
});
