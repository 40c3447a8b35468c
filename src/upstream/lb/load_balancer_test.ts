import assert from "node:assert/strict";
import fc from "fast-check";
import { Host } from "../host.ts";
import { candidateHosts, createLoadBalancer, UnsupportedLbPolicyError } from "./load_balancer.ts";

function host(port: number, weight = 1, health_status?: string): Host {
  return new Host({
    address: "127.0.0.1",
    port,
    hostname: "",
    weight,
    priority: 0,
    region: "",
    zone: "",
    sub_zone: "",
    metadata: {},
    ...(health_status ? { health_status } : {}),
  });
}

const opts = { choiceCount: 2, panicThreshold: 50 };

Deno.test("cluster.fields.lb-policy: ROUND_ROBIN smooth weighted round robin gives each host its weight share (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }),
      (weights) => {
        const hs = weights.map((w, i) => host(1000 + i, w));
        const lb = createLoadBalancer("ROUND_ROBIN", hs, opts);
        const total = weights.reduce((a, b) => a + b, 0);
        const counts = new Map<Host, number>();
        for (let i = 0; i < total; i++) {
          const h = lb.choose({})!;
          counts.set(h, (counts.get(h) ?? 0) + 1);
        }
        hs.forEach((h, i) => assert.equal(counts.get(h) ?? 0, weights[i]));
      },
    ),
  );
});

Deno.test("cluster.fields.lb-policy: ROUND_ROBIN skips unhealthy hosts; all unhealthy enters panic and uses all", () => {
  const a = host(1);
  const b = host(2, 1, "UNHEALTHY");
  const c = host(3);
  assert.deepEqual(candidateHosts([a, b, c], 50), [a, c]);
  const lb = createLoadBalancer("ROUND_ROBIN", [a, b, c], opts);
  for (let i = 0; i < 6; i++) assert.notEqual(lb.choose({}), b);
  const x = host(4, 1, "UNHEALTHY");
  const y = host(5, 1, "DRAINING");
  assert.deepEqual(candidateHosts([x, y], 50), [x, y]);
});

Deno.test("cluster.fields.lb-policy: RANDOM and LEAST_REQUEST pick among hosts; LEAST_REQUEST prefers idle hosts", () => {
  const hs = [host(1), host(2)];
  const r = createLoadBalancer("RANDOM", hs, opts);
  for (let i = 0; i < 20; i++) assert.ok(hs.includes(r.choose({})!));
  hs[0].active = 50;
  const lr = createLoadBalancer("LEAST_REQUEST", hs, { ...opts, choiceCount: 10 });
  let idle = 0;
  for (let i = 0; i < 50; i++) if (lr.choose({}) === hs[1]) idle++;
  assert.ok(idle >= 45, `idle host chosen ${idle}/50`);
  assert.equal(createLoadBalancer("RANDOM", [], opts).choose({}), null);
});

Deno.test("cluster.fields.lb-policy: unimplemented policies are refused by name", () => {
  assert.throws(() => createLoadBalancer("MAGLEV", [], opts), UnsupportedLbPolicyError);
  assert.throws(
    () => createLoadBalancer("RING_HASH", [], opts),
    /lb_policy RING_HASH is not supported by this build/,
  );
});
