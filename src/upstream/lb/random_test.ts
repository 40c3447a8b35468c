import assert from "node:assert/strict";
import { RandomLoadBalancer } from "./random.ts";
import { defaultLbOptions } from "./load_balancer.ts";
import { testHosts } from "./test_hosts.ts";

function tally(lb: RandomLoadBalancer, n: number): number[] {
  const out = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const p = lb.choose()!.port;
    out.set(p, (out.get(p) ?? 0) + 1);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

Deno.test("cluster.enums.lb-policy: RANDOM draws in proportion to host weight (evenly spread draws give exact shares)", () => {
  let i = 0;
  const even = () => ((i++ % 1000) + 0.5) / 1000;
  const weighted = new RandomLoadBalancer(
    testHosts([1, 2, 3], [1, 3, 6]),
    defaultLbOptions(),
    even,
  );
  assert.deepEqual(tally(weighted, 1000), [100, 300, 600]);
  i = 0;
  const equal = new RandomLoadBalancer(testHosts([1, 2, 3, 4]), defaultLbOptions(), even);
  assert.deepEqual(tally(equal, 1000), [250, 250, 250, 250]);
});
