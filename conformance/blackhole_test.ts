import assert from "node:assert/strict";
import { startBlackhole } from "./blackhole.ts";

Deno.test("conformance blackhole: its accept queue is full, so a further connect does not complete until it is closed", async () => {
  const hole = await startBlackhole();
  assert.ok(hole.fillers > 0, "no filler connection was made");
  const ac = new AbortController();
  let outcome = "pending";
  const attempt = Deno.connect({ hostname: "127.0.0.1", port: hole.port, signal: ac.signal })
    .then((c) => {
      outcome = "connected";
      c.close();
    }, () => {
      outcome = "failed";
    });
  await hole.wait(1500);
  assert.equal(outcome, "pending", "a connect to the blackhole completed");
  ac.abort();
  await attempt;
  await hole.close();
  await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: hole.port }));
});
