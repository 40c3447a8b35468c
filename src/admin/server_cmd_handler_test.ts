import assert from "node:assert/strict";
import { call, testContext } from "./testing_context.ts";

Deno.test("admin.endpoints.healthcheck-fail, admin.endpoints.healthcheck-ok, admin.states.healthcheck-fail, admin.states.healthcheck-ok: fail and ok toggle the flag; /ready follows Envoy", async () => {
  const ctx = testContext({ features: ["health_check_filter"] });
  let res = await call(ctx, "POST", "/healthcheck/fail");
  assert.equal(await res.text(), "OK\n");
  assert.equal(ctx.healthCheckFailed, true);
  res = await call(ctx, "GET", "/ready");
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "DRAINING\n");
  assert.equal((await (await call(ctx, "GET", "/server_info")).json()).state, "DRAINING");
  res = await call(ctx, "POST", "/healthcheck/ok");
  assert.equal(await res.text(), "OK\n");
  assert.equal(ctx.healthCheckFailed, false);
  assert.equal((await call(ctx, "GET", "/ready")).status, 200);
});

Deno.test("admin.endpoints.quitquitquit, admin.states.quitquitquit: answers OK then shuts down", async () => {
  const ctx = testContext();
  const res = await call(ctx, "POST", "/quitquitquit");
  assert.equal(await res.text(), "OK\n");
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(ctx.shutdowns, 1);
});
