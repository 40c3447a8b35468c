import assert from "node:assert/strict";
import { TARGETS } from "./targets.ts";
import { formatReport } from "./target.ts";
import { errorIsLocated } from "./bootstrap_target.ts";
import { firstDifference, nackIsLocated } from "./xds_target.ts";

/** Bounded runs with fixed seeds: a few seconds each; `deno task fuzz` runs longer ones. */
const CI_RUNS = { admin: 600, http1: 3000, bootstrap: 300, xds: 40 } as const;

for (const [name, runs] of Object.entries(CI_RUNS) as [keyof typeof CI_RUNS, number][]) {
  Deno.test(`fuzz ${name}: ${runs} inputs with a fixed seed find no failure`, async () => {
    const report = await TARGETS[name].run(runs, 20261124);
    console.log(formatReport(report).trimEnd());
    assert.deepEqual(report.failures, []);
  });
}

Deno.test("fuzz bootstrap: an error is located by its field path or its place in the file", () => {
  const file = "/tmp/b.yaml";
  assert.ok(errorIsLocated({ path: "admin.bogus", rule: "", message: "unknown field" }, file));
  assert.ok(errorIsLocated({ path: file, rule: "", message: "bad indentation (3:5)" }, file));
  assert.ok(errorIsLocated({ path: file, rule: "", message: "truncated varint at byte 7" }, file));
  assert.ok(!errorIsLocated({ path: file, rule: "", message: "truncated varint" }, file));
  assert.ok(!errorIsLocated({ path: "", rule: "", message: "x" }, file));
  // Found by the bootstrap target (seed 1, 10,000 runs): a path through a key with spaces.
  const deep =
    'admin.address["#V?><s^ "].fields.a: objects and lists nested deeper than 100 levels';
  assert.ok(errorIsLocated({ path: file, rule: "", message: deep }, file));
});

Deno.test("fuzz xds: a NACK is located when it starts with the path of what it refuses", () => {
  assert.ok(nackIsLocated("resources[0].load_assignment.endpoints: port 0 is not valid"));
  assert.ok(nackIsLocated('resources: expected the RouteConfiguration "r"'));
  assert.ok(nackIsLocated("resources[2]: cannot decode envoy.config.cluster.v3.Cluster: x"));
  assert.ok(!nackIsLocated("cannot decode envoy.config.cluster.v3.Cluster: truncated varint"));
  assert.ok(!nackIsLocated("Maximum call stack size exceeded"));
  assert.ok(!nackIsLocated("resourcesX: no"));
});

Deno.test("fuzz xds: a changed state is reported by its first differing line", () => {
  assert.equal(firstDifference("a\nb\nc", "a\nx\nc"), 'line 2: "b" became "x"');
  assert.equal(firstDifference("a", "a\nmore"), 'line 2: "" became "more"');
});
