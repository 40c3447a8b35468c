import assert from "node:assert/strict";
import { startSelfTarget } from "./self_target.ts";

Deno.test("self target: a proxy that exits at start-up is reported with its exit and stderr", async () => {
  const dir = await Deno.makeTempDir({ prefix: "self-target-" });
  try {
    const bad = `${dir}/bad.yaml`;
    await Deno.writeTextFile(bad, "static_resources: {clusters: [{name: x, lb_policy: NOPE}]}\n");
    const target = await startSelfTarget(dir, 30_000, bad);
    await target.stop();
    assert.equal(target.address, null);
    assert.match(target.failure ?? "", /exited \(code [1-9]/);
    assert.match(target.failure ?? "", /stderr ended with/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
