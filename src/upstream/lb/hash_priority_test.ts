import assert from "node:assert/strict";
import { createLoadBalancer, defaultLbOptions } from "./load_balancer.ts";
import { testHost } from "./test_hosts.ts";

Deno.test("cluster.enums.lb-policy: RING_HASH and MAGLEV draw the priority from the request hash (hash % 100), as Envoy does", () => {
  for (const policy of ["RING_HASH", "MAGLEV"]) {
    const p0 = [testHost(1), testHost(2, 1, "UNHEALTHY")];
    const p1 = [testHost(3), testHost(4)];
    for (const h of p1) h.priority = 1;
    // Priority 0 has 1 of 2 hosts healthy: 70% of the load (overprovisioning 1.4), priority 1 30%.
    const lb = createLoadBalancer(policy, [...p0, ...p1], defaultLbOptions());
    for (let k = 0n; k < 50n; k++) {
      for (const [rest, priority] of [[5n, 0], [69n, 0], [70n, 1], [99n, 1]] as const) {
        const hash = k * 7919n * 100n + rest;
        const host = lb.choose({ computeHashKey: () => hash });
        assert.equal(host?.priority, priority, `${policy}: hash ${hash}`);
        assert.ok(host?.healthy());
      }
    }
  }
});
