import assert from "node:assert/strict";
import { equalWeights, PerHostList, sameHosts } from "./host_list.ts";
import { testHosts } from "./test_hosts.ts";

Deno.test("cluster.fields.lb-policy: a balancer keeps what it built per candidate list (no rebuild when lists alternate)", () => {
  const [a, b, c] = testHosts([1, 2, 3]);
  const cache = new PerHostList<number>(2);
  let builds = 0;
  const build = () => ++builds;
  const p0 = [a, b];
  const p1 = [c];
  for (let i = 0; i < 5; i++) {
    assert.equal(cache.get(p0, build), 1);
    assert.equal(cache.get(p1, build), 2);
  }
  // An equal list in a new array is the same list.
  assert.equal(cache.get([a, b], build), 1);
  // A third list evicts the least recently added one.
  assert.equal(cache.get([b], build), 3);
  assert.equal(builds, 3);
  assert.ok(sameHosts([a], [a]) && !sameHosts([a], [b]) && !sameHosts(null, []));
  assert.ok(equalWeights(testHosts([1, 2])) && !equalWeights(testHosts([1, 2], [1, 2])));
});
