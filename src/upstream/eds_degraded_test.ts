import assert from "node:assert/strict";
import { Host } from "./host.ts";
import { candidateHosts } from "./priority_load.ts";

function host(port: number, health_status?: string): Host {
  return new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight: 1,
    priority: 0,
    region: "",
    zone: "",
    sub_zone: "",
    metadata: {},
    ...(health_status ? { health_status } : {}),
  });
}

Deno.test("cluster.objects.endpoint.lb-endpoint.health-status: an EDS DEGRADED host is degraded, not failed: it takes the load healthy hosts cannot", () => {
  const healthy = host(1);
  const degraded = host(2, "DEGRADED");
  const unhealthy = host(3, "UNHEALTHY");
  assert.equal(degraded.healthy(), true);
  assert.equal(degraded.degraded(), true);
  assert.equal(degraded.health.failed_eds_health, false);
  assert.equal(unhealthy.healthy(), false);
  const hosts = [healthy, degraded, unhealthy];
  // One of three healthy (46% available) and one degraded (46%): normalized to 92%, half each.
  const counts = new Map<number, number>();
  for (let x = 0; x < 100; x++) {
    for (const h of candidateHosts(hosts, 0, () => x / 100)) {
      counts.set(h.port, (counts.get(h.port) ?? 0) + 1);
    }
  }
  assert.deepEqual([counts.get(1), counts.get(2), counts.get(3)], [50, 50, undefined]);
  // Back to HEALTHY: no longer degraded.
  degraded.update({ ...degraded, metadata: {}, health_status: "HEALTHY" });
  assert.equal(degraded.degraded(), false);
});
