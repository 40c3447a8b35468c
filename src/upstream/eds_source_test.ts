import assert from "node:assert/strict";
import { edsSourceOf } from "./eds_source.ts";

Deno.test("cluster.objects.eds-cluster-config.service-name: service_name, else the cluster name, selects the assignment", () => {
  assert.deepEqual(
    edsSourceOf({ name: "a", edsClusterConfig: { edsConfig: { path: "/p" }, serviceName: "s" } }),
    { ok: true, path: "/p", serviceName: "s" },
  );
  assert.deepEqual(
    edsSourceOf({
      name: "a",
      eds_cluster_config: { eds_config: { path_config_source: { path: "/q" } } },
    }),
    { ok: true, path: "/q", serviceName: "a" },
  );
});

Deno.test("cluster.objects.eds-cluster-config.eds-config: API and ADS sources are refused with a reason", () => {
  const r = edsSourceOf({ name: "a", eds_cluster_config: { eds_config: { ads: {} } } });
  assert.equal(r.ok, false);
  assert.ok(
    !r.ok && r.at === "eds_cluster_config.eds_config.ads" && /not implemented/.test(r.message),
  );
  assert.equal(edsSourceOf({ name: "a", type: "EDS" }).ok, false);
});
