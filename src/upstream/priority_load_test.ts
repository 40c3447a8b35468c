import assert from "node:assert/strict";
import fc from "fast-check";
import { Host } from "./host.ts";
import { candidateHosts, computePriorityLoad, ignoreNewHosts, onPanic } from "./priority_load.ts";

function host(port: number, priority = 0, unhealthy = false): Host {
  const h = new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight: 1,
    priority,
    region: "",
    zone: "",
    sub_zone: "",
    metadata: {},
  });
  if (unhealthy) h.setFlag("failed_active_hc", true);
  return h;
}

Deno.test("cluster.objects.common-lb-config.healthy-panic-threshold: Envoy's priority loads with overprovisioning 1.4", () => {
  // All healthy at priority 0: everything there.
  assert.deepEqual(computePriorityLoad([[4, 4, 0], [4, 4, 0]], 50).healthy, [100, 0]);
  // 1 of 2 healthy at P0: 70% availability, the rest spills to P1.
  assert.deepEqual(computePriorityLoad([[2, 1, 0], [2, 2, 0]], 50).healthy, [70, 30]);
  // 3 of 4 healthy: 105% → capped, nothing spills.
  assert.deepEqual(computePriorityLoad([[4, 3, 0], [4, 4, 0]], 50).healthy, [100, 0]);
  // Empty priority 0: all load to priority 1.
  assert.deepEqual(computePriorityLoad([[0, 0, 0], [3, 3, 0]], 50).healthy, [0, 100]);
  // Priority 0 below the threshold is in panic; priority 1 is not.
  const p = computePriorityLoad([[3, 1, 0], [3, 3, 0]], 50);
  assert.deepEqual(p.healthy, [46, 54]);
  assert.deepEqual(p.panic, [true, false]);
  // Nothing healthy anywhere: total panic, load by host count.
  const t = computePriorityLoad([[1, 0, 0], [3, 0, 0]], 50);
  assert.deepEqual(t.healthy, [25, 75]);
  assert.deepEqual(t.panic, [true, true]);
  // Panic disabled (threshold 0) and nothing healthy: no load anywhere.
  assert.deepEqual(computePriorityLoad([[2, 0, 0]], 0).healthy, [0]);
  // Degraded hosts take what healthy ones cannot.
  assert.deepEqual(computePriorityLoad([[2, 0, 2]], 50).degraded, [100]);
});

Deno.test("cluster.objects.common-lb-config.healthy-panic-threshold: loads always sum to 100 when any host exists (property)", () => {
  fc.assert(fc.property(
    fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 20 }),
      )
        .map(([t, h, d]) => [t, Math.min(h, t), Math.min(d, t - Math.min(h, t))] as const),
      { minLength: 1, maxLength: 5 },
    ),
    fc.integer({ min: 1, max: 100 }),
    (counts, threshold) => {
      const p = computePriorityLoad(counts, threshold);
      const sum = [...p.healthy, ...p.degraded].reduce((a, b) => a + b, 0);
      assert.equal(sum, 100);
      for (const x of [...p.healthy, ...p.degraded]) assert.ok(x >= 0);
    },
  ));
});

Deno.test("cluster.fields.health-checks: hosts all at priority 1 are chosen (no 503 for an empty priority 0)", () => {
  const hs = [host(1, 1), host(2, 1)];
  const seen = new Set<Host>();
  for (let i = 0; i < 10; i++) {
    for (const h of candidateHosts(hs, 50, () => i / 10)) seen.add(h);
  }
  assert.equal(seen.size, 2);
});

Deno.test("cluster.fields.health-checks: priority failover moves traffic to priority 1 as priority 0 fails", () => {
  const p0 = [host(1, 0), host(2, 0)];
  const p1 = [host(3, 1), host(4, 1)];
  const hs = [...p0, ...p1];
  const share = () => {
    let toP1 = 0;
    for (let i = 0; i < 100; i++) {
      const c = candidateHosts(hs, 50, () => i / 100);
      if (c.every((h) => h.priority === 1)) toP1++;
    }
    return toP1;
  };
  assert.equal(share(), 0);
  p0[0].setFlag("failed_active_hc", true);
  assert.equal(share(), 30); // 1 of 2 healthy: 70% stays, 30% spills over
  p0[1].setFlag("failed_outlier_check", true);
  assert.equal(share(), 100);
  p0[0].setFlag("failed_active_hc", false);
  p0[1].setFlag("failed_outlier_check", false);
  assert.equal(share(), 0);
});

Deno.test("cluster.objects.common-lb-config.healthy-panic-threshold: panic mode balances over all hosts and is counted", () => {
  const hs = [host(1), host(2, 0, true), host(3, 0, true)];
  let panics = 0;
  onPanic(hs, () => panics++);
  assert.deepEqual(candidateHosts(hs, 50), hs);
  assert.equal(panics, 1);
  // Below the threshold no panic: only the healthy host.
  assert.deepEqual(candidateHosts(hs, 30), [hs[0]]);
  assert.equal(panics, 1);
  // A threshold of 0 disables panic mode: with no healthy host nothing is chosen.
  hs[0].setFlag("failed_active_hc", true);
  assert.deepEqual(candidateHosts(hs, 0), []);
});

Deno.test("cluster.fields.health-checks: excluded hosts are never chosen, even in panic", () => {
  const hs = [host(1, 0, true), host(2, 0, true)];
  hs[1].setMarks({ excluded: true });
  assert.deepEqual(candidateHosts(hs, 50), [hs[0]]);
});

Deno.test("cluster.objects.common-lb-config.ignore-new-hosts-until-first-hc: hosts not checked yet leave the denominator but stay eligible in panic", () => {
  const checked = host(1);
  const fresh = [host(2, 0, true), host(3, 0, true)];
  for (const h of fresh) h.setPending(true);
  const plain = [checked, ...fresh];
  assert.deepEqual(candidateHosts(plain, 50), plain); // 1 of 3 healthy: panic
  const ignoring = [checked, ...fresh];
  ignoreNewHosts(ignoring);
  assert.deepEqual(candidateHosts(ignoring, 50), [checked]); // 1 of 1 counted
  checked.setFlag("failed_active_hc", true);
  assert.deepEqual(candidateHosts(ignoring, 50), ignoring); // panic: new hosts eligible
});
